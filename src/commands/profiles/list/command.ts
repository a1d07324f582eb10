// crm profiles list: the built-in sandbox and every stored workspace.

import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand(
  {
    command: ['profiles', 'list'],
    aliases: ['ls'],
    summary: 'List stored profiles',
    printed: ['name', 'active', 'base_url', 'key'],
    examples: [ex('crm profiles list', 'the built-in sandbox and every stored workspace')],
  },
  () => import('./run.js'),
);
