// crm config unset KEY: back to the default.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { SETTABLE_ARG } from '../setting.js';

const spec = {
  command: ['config', 'unset'],
  summary: 'Remove one setting of the active profile (back to the default)',
  args: [SETTABLE_ARG],
  ignoresOutputSetting: true,
  examples: [ex('crm config unset output', 'back to tables on a terminal')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
