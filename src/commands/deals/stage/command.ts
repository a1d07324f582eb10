// crm deals stage ID... [STAGE] | - STAGE: a stage move of one deal or several, checked against the
// pipeline's stages.

import { DEMO } from '../../../registry/demo.js';
import { CONCURRENCY_OPTIONS } from '../../../registry/options.js';
import { TERMINAL, example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idsArg } from '../../crud.js';

const spec = {
  command: ['deals', 'stage'],
  summary: 'Move a deal to another pipeline stage (logs an activity)',
  endpoint: 'deals_stage',
  // As mv takes files then a directory: the deals, then the stage (or --stage, then every argument is a deal).
  // Read as text: the last may be a stage's name ("Closed Won"); the handler checks the deal ids.
  // Completion offers the stages there (a deal id is never completed).
  args: [{ ...idsArg('deal'), type: 'string', flag: 'id', description: 'deal ids (or `-`: from stdin), then the new stage unless --stage is given', forAgents: 'deal ids', known: 'stages' }],
  options: [{ name: 'stage', type: 'string', description: 'the new stage (id or name); none at a terminal: pick one', forAgents: 'the new stage (id or name)', known: 'stages' }, ...CONCURRENCY_OPTIONS],
  columns: ['id', 'name', 'stage', 'amount', 'status'],
  examples: [
    ex(`crm deals stage ${DEMO.deal} negotiation`, 'move a deal', { tool: { ids: [DEMO.deal], stage: 'negotiation' } }),
    ex('crm deals list --stage proposal -q | crm deals stage - negotiation', 'move every deal of the page (a report, a row each)'),
    ex(`crm deals stage ${DEMO.deal}`, 'pick the stage from a list (on a terminal)', { needs: TERMINAL }),
  ],
  // A move to the stage the deal is in already is no move (already_in_stage); it is deals_update's change of stage.
  // A call has no last argument to give the stage: it gives stage.
  mcp: { idempotent: true, sameChangeAs: 'deals_update', required: ['stage'] },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
