// crm config list: every setting of the active profile, the key masked, and where each came from.

import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand(
  {
    command: ['config', 'list'],
    aliases: ['ls'],
    summary: 'Print every setting of the active profile: the value in effect and where it came from',
    ignoresOutputSetting: true,
    examples: [ex('crm config list', 'every setting, the key masked')],
  },
  () => import('./run.js'),
);
