// crm accounts view ID|NAME: an account whole (its contacts and deals), every part read at once.

import { DEMO } from '../../../registry/demo.js';
import { PART_READ_MAX, VIEW_LIMIT } from '../../../registry/local.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idArg } from '../../crud.js';

const spec = {
  command: ['accounts', 'view'],
  summary: 'Show an account whole: its contacts and its deals',
  description: `Reads the account, its contacts and its deals at once. The service cannot select contacts by account: crm reads the newest ${PART_READ_MAX} contacts and keeps the account's, which stderr (and filtered_locally in --json) says, with a warning when the workspace holds more. For the account alone: crm accounts get.`,
  args: [idArg('account')],
  options: [{ name: 'limit', short: 'L', type: 'integer', min: 1, max: 50, description: `records shown in each part (default ${VIEW_LIMIT}); each says how many more there are` }],
  printed: ['account', 'contacts', 'deals', 'filtered_locally', 'errors'],
  examples: [
    ex(`crm accounts view "${DEMO.accountName}"`, 'an account whole, found by its name'),
    ex(`crm accounts view ${DEMO.account} --json`, 'the same as one nested JSON object'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
