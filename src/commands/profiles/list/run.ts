// crm profiles list: the built-in sandbox and every stored workspace.

import { list } from '../../../cli/result.js';
import { SANDBOX_PROFILE } from '../../../config/store.js';
import { activeProfileName } from '../../../config/resolve.js';
import { maskKey } from '../../../http/redact.js';

import type { Handler } from '../../command.js';

export const run: Handler = async (ctx) => {
  const config = ctx.config();
  const active = activeProfileName({ profile: ctx.options.profile }, ctx.env, config);
  const rows = [
    { name: SANDBOX_PROFILE, active: active === SANDBOX_PROFILE, base_url: 'sandbox (local)', key: 'local' },
    ...Object.entries(config.profiles)
      .filter(([name]) => name !== SANDBOX_PROFILE)
      .map(([name, profile]) => ({ name, active: name === active, base_url: profile?.base_url ?? null, key: profile?.api_key ? maskKey(profile.api_key) : null })),
  ];
  return list(rows, { columns: ['name', 'active', 'base_url', 'key'], noun: 'profiles' });
};
