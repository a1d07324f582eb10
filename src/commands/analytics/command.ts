// crm analytics [--period 7d|30d|90d]: the rollup as one record.

import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const spec = {
  command: ['analytics'],
  summary: 'Rollups of contacts, deals, emails and tasks',
  endpoint: 'analytics',
  examples: [ex('crm analytics --period 7d', 'the last seven days', { tool: { period: '7d' } }), ex('crm analytics --json', 'the rollup as JSON')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
