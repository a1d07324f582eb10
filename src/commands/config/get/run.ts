// crm config get KEY: the bare value, as `git config` prints it.

import { profileOf } from '../../../config/store.js';
import type { Handler } from '../../command.js';
import { profileName, settingOf, shown } from '../settings.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args }) => {
  const [key] = settingOf(args.key);
  // The bare value, as `git config` prints it, so that $(crm config get KEY) works; JSON with --json.
  return { kind: 'value', value: shown(key, profileOf(ctx.config(), profileName(ctx))?.[key]) };
};
