// crm auth status: which workspace, and does the key work.

import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand(
  {
    command: ['auth', 'status'],
    summary: 'Show the profile, base URL, key (last 4 characters), where each came from, and whether the key works',
    examples: [ex('crm auth status', 'which workspace, and does the key work')],
  },
  () => import('./run.js'),
);
