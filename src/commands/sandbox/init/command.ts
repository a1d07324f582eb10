// crm sandbox init [--force]: the local sandbox database with demo data.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['sandbox', 'init'],
  summary: 'Create the local sandbox database with demo data',
  options: [{ name: 'force', type: 'boolean', description: 'start again from fresh demo data if it exists' }],
  examples: [ex('crm sandbox init --force', 'start again from fresh demo data')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
