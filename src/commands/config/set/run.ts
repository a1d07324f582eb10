// crm config set KEY VALUE: one setting of the active profile, checked and saved.

import { usageError } from '../../../cli/errors.js';
import type { Handler } from '../../command.js';
import { change, settingOf } from '../settings.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args }) => {
  const [key, setting] = settingOf(args.key);
  if (!setting.parse) throw usageError(`${key} cannot be set here`, 'run `crm auth login`');
  const value = setting.parse(args.value);
  return change(ctx, key, value, `✓ ${key} = ${String(value)}`);
};
