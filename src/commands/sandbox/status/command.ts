// crm sandbox status: where the local data is, on which SQLite, and how much.

import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand(
  { command: ['sandbox', 'status'], summary: 'Show the sandbox database path, record counts and its local API key', examples: [ex('crm sandbox status', 'where the local data is, and how much')] },
  () => import('./run.js'),
);
