// crm sandbox serve [--port N]: the sandbox over HTTP on 127.0.0.1, until stopped.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['sandbox', 'serve'],
  summary: 'Serve the sandbox over HTTP on 127.0.0.1 (with the hourly scoring agent)',
  options: [{ name: 'port', type: 'integer', min: 0, max: 65535, description: 'port to listen on (default 4010; 0 picks a free one)' }],
  examples: [ex('crm sandbox serve --port 0 --json', 'a free port; prints the URL and key as JSON', { needs: 'Ctrl-C to stop it (it serves until then)' })],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
