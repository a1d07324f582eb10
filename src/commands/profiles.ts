// crm profiles list | use NAME | remove NAME

import { usageError } from '../cli/errors.js';
import { SANDBOX_PROFILE, updateConfig } from '../config/store.js';
import { activeProfileName } from '../config/resolve.js';
import { maskKey } from '../http/redact.js';
import type { LocalHandler } from './local.js';

export const list: LocalHandler = async (ctx) => {
  const config = ctx.config();
  const active = activeProfileName({ profile: ctx.options.profile }, ctx.env, config);
  const rows = [
    { name: SANDBOX_PROFILE, active: active === SANDBOX_PROFILE, base_url: 'sandbox (local)', key: 'local' },
    ...Object.entries(config.profiles)
      .filter(([name]) => name !== SANDBOX_PROFILE)
      .map(([name, profile]) => ({
        name,
        active: name === active,
        base_url: profile.base_url ?? null,
        key: profile.api_key ? maskKey(profile.api_key) : null,
      })),
  ];
  await ctx.printer.records(rows, { columns: ['name', 'active', 'base_url', 'key'] });
};

export const use: LocalHandler = async (ctx, { args }) => {
  const name = String(args[0]);
  if (name !== SANDBOX_PROFILE && !ctx.config().profiles[name]) {
    throw usageError(`unknown profile "${name}"`, 'create it with `crm auth login --profile NAME`');
  }
  await updateConfig(ctx.env, (data) => {
    data.active_profile = name;
  });
  ctx.info(`✓ Active profile: ${name}`);
};

export const remove: LocalHandler = async (ctx, { args }) => {
  const name = String(args[0]);
  if (name === SANDBOX_PROFILE) throw usageError('the sandbox profile is built in; use `crm sandbox reset` to clear its data');
  if (!ctx.config().profiles[name]) throw usageError(`unknown profile "${name}"`);
  await updateConfig(ctx.env, (data) => {
    delete data.profiles[name];
    if (data.active_profile === name) delete data.active_profile;
  });
  ctx.info(`✓ Removed profile ${name}`);
};
