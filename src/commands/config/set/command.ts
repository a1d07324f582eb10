// crm config set KEY VALUE: change one setting of the active profile.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { SETTABLE_ARG } from '../setting.js';

const spec = {
  command: ['config', 'set'],
  summary: 'Change one setting of the active profile',
  args: [SETTABLE_ARG, { name: 'value', type: 'string', description: 'the new value' }],
  ignoresOutputSetting: true,
  examples: [ex('crm config set output json', 'JSON by default, also on a terminal')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
