// crm config list: every setting of the active profile, the key masked: the value in effect and where it came from.

import { list } from '../../../cli/result.js';
import { profileOf, type Profile } from '../../../config/store.js';
import type { Handler } from '../../command.js';
import { SETTINGS, inEffect, profileName } from '../settings.js';

export const run: Handler = async (ctx) => {
  const stored = profileOf(ctx.config(), profileName(ctx)) ?? {};
  const rows = (Object.keys(SETTINGS) as Array<keyof Profile>).map((key) => {
    return { key, ...inEffect(ctx, key, stored[key]), description: SETTINGS[key].description };
  });
  return list(rows, { columns: ['key', 'value', 'source', 'description'], noun: 'settings' });
};
