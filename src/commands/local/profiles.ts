// crm profiles list | use NAME | remove NAME

import { usageError } from '../../cli/errors.js';
import { done, list } from '../../cli/result.js';
import { SANDBOX_PROFILE, checkProfileName, profileOf, updateConfig } from '../../config/store.js';
import { activeProfileName } from '../../config/resolve.js';
import { maskKey } from '../../http/redact.js';
import { offerToForgetReplica } from '../mirror/forget.js';
import type { LocalHandler } from './types.js';

export const listProfiles: LocalHandler = async (ctx) => {
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

export const use: LocalHandler = async (ctx, { args }) => {
  const name = checkProfileName(args.string('name')!);
  if (name !== SANDBOX_PROFILE && !profileOf(ctx.config(), name)) throw usageError(`unknown profile "${name}"`, 'create it with `crm auth login --profile NAME`');
  if (ctx.dryRun) return done(`Dry run: the active profile stays as it is (would be ${name})`);
  await updateConfig(ctx.env, (data) => {
    data.active_profile = name;
  });
  return done(`✓ Active profile: ${name}`, { profile: name, active: true });
};

export const remove: LocalHandler = async (ctx, { args }) => {
  const name = checkProfileName(args.string('name')!);
  if (name === SANDBOX_PROFILE) throw usageError('the sandbox profile is built in; use `crm sandbox reset` to clear its data');
  if (!profileOf(ctx.config(), name)) throw usageError(`unknown profile "${name}"`);
  if (ctx.dryRun) return done(`Dry run: profile ${name} was not removed`);
  await updateConfig(ctx.env, (data) => {
    delete data.profiles[name];
    if (data.active_profile === name) delete data.active_profile;
  });
  const replicaDeleted = await offerToForgetReplica(ctx, name);
  return done(`✓ Removed profile ${name}`, { profile: name, removed: true, ...(replicaDeleted === undefined ? {} : { replica_deleted: replicaDeleted }) });
};
