// crm sandbox reset [--yes]: every record replaced with fresh demo data; the key stays.

import { DELETE_OPTIONS } from '../../../registry/options.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['sandbox', 'reset'],
  summary: 'Replace every record of the local sandbox with fresh demo data (the key stays; safe while it is served)',
  options: DELETE_OPTIONS,
  examples: [ex('crm sandbox reset --yes', 'start again from fresh demo data')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
