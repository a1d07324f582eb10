// crm ai accept ID...: accept suggestions; with no id on a terminal, pick from the pending ones.

import { CONCURRENCY_OPTIONS } from '../../../registry/options.js';
import { TERMINAL, example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['ai', 'accept'],
  summary: 'Accept AI suggestions (no id on a terminal: pick from the pending ones)',
  endpoint: 'ai_accept',
  args: [{ name: 'ids', type: 'ids', description: 'suggestion ids; several, or `-` to read them from stdin', forAgents: 'suggestion ids', references: 'suggestion', variadic: true, optional: true }],
  options: CONCURRENCY_OPTIONS,
  columns: ['id', 'result', 'record.title', 'record.task_id', 'error'],
  printsReport: true,
  examples: [
    ex('crm ai accept $(crm ai suggestions -q --limit 1)', 'accept the newest suggestion'),
    ex('crm ai accept', 'pick from the pending ones (on a terminal)', { needs: TERMINAL }),
  ],
  mcp: { summary: 'Accept AI suggestions', idempotent: true },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
