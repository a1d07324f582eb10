// crm config unset KEY: back to the default.

import { usageError } from '../../../cli/errors.js';
import type { Handler } from '../../command.js';
import { change, settingOf } from '../settings.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args }) => {
  const [key, setting] = settingOf(args.key);
  if (!setting.parse) throw usageError(`${key} cannot be unset here`, 'run `crm auth logout`');
  return change(ctx, key, undefined, `✓ ${key} unset`);
};
