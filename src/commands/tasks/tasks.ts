// crm tasks: the group. Its CRUD commands are declared from the registry's task; list filters and
// sorts by due date too (./list/).

import { DEMO } from '../../registry/demo.js';
import { example as ex } from '../../registry/types.js';
import type { Command } from '../command.js';
import { crud } from '../crud.js';
import complete from './complete/command.js';
import list from './list/command.js';

export const TASKS: readonly Command[] = [
  ...crud('task', {
    list: [],
    get: [ex(`crm tasks get ${DEMO.task}`, 'one task', { tool: { id: DEMO.task } })],
    create: [ex('crm tasks create --title "Send the proposal" --due tomorrow --priority high', 'create a task', { tool: { title: 'Send the proposal', due_date: 'tomorrow', priority: 'high' } })],
    update: [ex(`crm tasks update ${DEMO.task} --due +1w`, 'push the due date a week out', { tool: { ids: [DEMO.task], due_date: '+1w' } })],
    delete: [
      ex(`crm tasks delete ${DEMO.task} --yes`, 'delete without asking', { tool: { ids: [DEMO.task] } }),
      ex('crm tasks list --status completed --json | crm tasks delete - --yes', 'delete what another crm command printed (--json, NDJSON, TSV: the id is taken)'),
    ],
  }, { list }),
  complete,
];
