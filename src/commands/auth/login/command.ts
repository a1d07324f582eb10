// crm auth login: store a key for a workspace, verified before it is saved.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const WORKSPACE = 'a real workspace and its key';

const spec = {
  command: ['auth', 'login'],
  summary: 'Store an API key for a workspace (verified before it is saved)',
  options: [{ name: 'with_key', type: 'boolean', description: 'read the key from stdin instead of prompting' }],
  examples: [
    ex('crm auth login --base-url https://crm.example.com', 'asks for the key (masked)', { needs: WORKSPACE }),
    ex('crm auth login --base-url https://crm.example.com --with-key < keyfile', 'in a script', { needs: WORKSPACE }),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
