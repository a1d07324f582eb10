// crm profiles remove NAME: forget a workspace and its key.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['profiles', 'remove'],
  aliases: ['rm'],
  summary: 'Remove a stored profile and its key (and offer to delete its local replica)',
  args: [{ name: 'name', type: 'string', description: 'profile name', known: 'profiles' }],
  examples: [ex('crm profiles remove staging', 'forget a workspace', { needs: 'a stored profile named staging' })],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
