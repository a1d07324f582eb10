// crm deals stage ID [STAGE]: a stage move, checked against the pipeline's stages.

import { DEMO } from '../../../registry/demo.js';
import { TERMINAL, example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idArg } from '../../crud.js';

const spec = {
  command: ['deals', 'stage'],
  summary: 'Move a deal to another pipeline stage (logs an activity)',
  endpoint: 'deals_stage',
  args: [
    idArg('deal'),
    { name: 'stage', type: 'string', description: 'the new stage (id or name); omitted on a terminal: pick one', forAgents: 'the new stage (id or name)', optional: true, known: 'stages' },
  ],
  columns: ['id', 'name', 'stage', 'amount', 'status'],
  examples: [
    ex(`crm deals stage ${DEMO.deal} negotiation`, 'move a deal', { tool: { id: DEMO.deal, stage: 'negotiation' } }),
    ex(`crm deals stage ${DEMO.deal}`, 'pick the stage from a list (on a terminal)', { needs: TERMINAL }),
  ],
  // A move to the stage the deal is in already is no move (already_in_stage); it is deals_update's change of stage.
  mcp: { idempotent: true, sameChangeAs: 'deals_update' },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
