// crm config list: every setting of the active profile, the key masked.

import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand(
  {
    command: ['config', 'list'],
    aliases: ['ls'],
    summary: 'Print every setting of the active profile',
    ignoresOutputSetting: true,
    examples: [ex('crm config list', 'every setting, the key masked')],
  },
  () => import('./run.js'),
);
