// crm contacts: the group. Its five CRUD commands are declared from the registry's contact (no
// code of their own); the commands that do more are the folders beside this file.

import { DEMO } from '../../registry/demo.js';
import { example as ex } from '../../registry/types.js';
import type { Command } from '../command.js';
import { crud } from '../crud.js';
import create from './create/command.js';
import enroll from './enroll/command.js';
import contactsExport from './export/command.js';
import contactsImport from './import/command.js';
import { notesAdd, notesList } from './notes/command.js';
import tasksAdd from './tasks/command.js';
import view from './view/command.js';

export const CONTACTS: readonly Command[] = [
  ...crud(
    'contact',
    {
      list: [ex('crm contacts list --status lead --limit 10', 'the ten newest leads', { tool: { status: 'lead', limit: 10 } }), ex('crm contacts list --all -o ndjson', 'every contact, one JSON record a line')],
      get: [ex(`crm contacts get ${DEMO.contact}`, 'one contact, every field', { tool: { id: DEMO.contact } }), ex(`crm contacts get ${DEMO.email}`, 'a contact by its email')],
      create: [],
      update: [
        ex(`crm contacts update ${DEMO.contact} --status customer`, 'change one field', { tool: { ids: [DEMO.contact], status: 'customer' } }),
        ex('crm contacts list --status lead -q | crm contacts update - --set status=customer', 'every lead of the page made a customer (a report, a row each)'),
      ],
      delete: [ex(`crm contacts delete ${DEMO.contact} --yes`, 'soft-delete without asking', { tool: { ids: [DEMO.contact] } })],
    },
    { create, view },
  ),
  notesList,
  notesAdd,
  tasksAdd,
  enroll,
  contactsImport,
  contactsExport,
];
