// crm deals view ID: a deal whole (its stage history, account, contact and open tasks), every part
// read at once.

import { DEMO } from '../../../registry/demo.js';
import { VIEW_LIMIT } from '../../../registry/local.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idArg } from '../../crud.js';

const spec = {
  command: ['deals', 'view'],
  summary: 'Show a deal whole: its stage history, account, contact and open tasks',
  description: 'Reads the deal and its open tasks at once and, as soon as the deal says which account and contact it belongs to, those two. For the deal alone: crm deals get.',
  args: [idArg('deal')],
  options: [{ name: 'limit', short: 'L', type: 'integer', min: 1, max: 50, description: `records shown in each part (default ${VIEW_LIMIT}); each says how many more there are` }],
  printed: ['deal', 'account', 'contact', 'tasks_open', 'filtered_locally', 'errors'],
  examples: [
    ex(`crm deals view ${DEMO.deal}`, 'a deal whole: one section a part'),
    ex(`crm deals view ${DEMO.deal} --json`, 'the same as one nested JSON object'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
