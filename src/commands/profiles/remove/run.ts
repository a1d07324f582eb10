// crm profiles remove NAME: forget a workspace and its key.

import { usageError } from '../../../cli/errors.js';
import { done } from '../../../cli/result.js';
import { SANDBOX_PROFILE, checkProfileName, profileOf, updateConfig } from '../../../config/store.js';

import type { Handler } from '../../command.js';
import { offerToForgetReplica } from '../../mirror/forget.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args }) => {
  const name = checkProfileName(args.name);
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
