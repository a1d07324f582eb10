// crm contacts notes list | add: a contact's notes, run by the generic runner.

import { DEMO } from '../../../registry/demo.js';
import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';
import { idArg } from '../../crud.js';

export const notesList = defineCommand({
  command: ['contacts', 'notes', 'list'],
  aliases: ['ls'],
  summary: "List a contact's notes",
  endpoint: 'contacts_notes_list',
  args: [idArg('contact')],
  columns: RESOURCES.note.columns,
  examples: [ex(`crm contacts notes list ${DEMO.contact}`, "the contact's notes, newest first", { tool: { id: DEMO.contact } })],
});

export const notesAdd = defineCommand({
  command: ['contacts', 'notes', 'add'],
  summary: 'Add a note to a contact',
  endpoint: 'contacts_notes_add',
  args: [idArg('contact')],
  columns: RESOURCES.note.columns,
  examples: [ex(`crm contacts notes add ${DEMO.contact} --body "Asked for a demo next week"`, 'add a note', { tool: { id: DEMO.contact, body: 'Asked for a demo next week' } })],
});
