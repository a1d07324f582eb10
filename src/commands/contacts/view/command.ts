// crm contacts view ID|EMAIL: a contact whole (its notes, open tasks, sequence enrolments, its
// account and that account's open deals, its latest suggestion), every part read at once.

import { DEMO } from '../../../registry/demo.js';
import { PART_READ_MAX, VIEW_LIMIT } from '../../../registry/local.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idArg } from '../../crud.js';

const spec = {
  command: ['contacts', 'view'],
  summary: 'Show a contact whole: notes, open tasks, sequences, account and its open deals, latest suggestion',
  description: `Reads the contact, its notes, its open tasks, the sequences it is enrolled in, its latest pending AI suggestion and, once the contact says which account it belongs to, the account and its open deals, each request sent as soon as what it needs is known. The service lists no contact's enrolments: crm reads the contacts of each sequence (at most ${PART_READ_MAX} a sequence) and keeps this one, which stderr (and filtered_locally in --json) says. For the contact alone: crm contacts get.`,
  args: [idArg('contact')],
  options: [{ name: 'limit', short: 'L', type: 'integer', min: 1, max: 50, description: `records shown in each part (default ${VIEW_LIMIT}); each says how many more there are` }],
  printed: ['contact', 'notes', 'tasks_open', 'enrollments', 'account', 'account_deals_open', 'latest_suggestion', 'filtered_locally', 'errors'],
  examples: [
    ex(`crm contacts view ${DEMO.email}`, 'a contact whole, found by its email: one section a part'),
    ex(`crm contacts view ${DEMO.contact} --json`, 'the same as one nested JSON object'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
