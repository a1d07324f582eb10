// crm config get KEY: one setting of the active profile, bare (as `git config` prints it).

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { SETTING_ARG } from '../setting.js';

const spec = {
  command: ['config', 'get'],
  summary: 'Print one setting of the active profile',
  args: [SETTING_ARG],
  ignoresOutputSetting: true,
  examples: [ex('crm config get output', 'the default output format, if set')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
