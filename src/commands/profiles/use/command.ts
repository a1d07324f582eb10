// crm profiles use NAME: make a profile the active one.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['profiles', 'use'],
  summary: 'Make a profile the active one',
  args: [{ name: 'name', type: 'string', description: 'profile name (sandbox: the local workspace)', known: 'profiles' }],
  examples: [ex('crm profiles use sandbox', 'back to the local sandbox')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
