// crm contacts tasks add: a task for a contact, run by the generic runner.

import { DEMO } from '../../../registry/demo.js';
import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';
import { idArg } from '../../crud.js';

export default defineCommand({
  command: ['contacts', 'tasks', 'add'],
  summary: 'Create a task for a contact',
  endpoint: 'contacts_tasks_add',
  args: [idArg('contact')],
  columns: RESOURCES.task.columns,
  examples: [ex(`crm contacts tasks add ${DEMO.contact} --title "Intro call" --due +2d`, 'a task due in two days', { tool: { id: DEMO.contact, title: 'Intro call', due_date: '+2d' } })],
});
