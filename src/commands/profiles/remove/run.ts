// crm profiles remove NAME: forget a workspace and its key.

import { usageError } from '../../../cli/errors.js';
import { done } from '../../../cli/result.js';
import { activeProfileName } from '../../../config/resolve.js';
import { SANDBOX_PROFILE, checkProfileName, profileOf, updateConfig } from '../../../config/store.js';

import type { Handler } from '../../command.js';
import { offerToForgetReplica } from '../../mirror/forget.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args }) => {
  const name = checkProfileName(args.name);
  if (name === SANDBOX_PROFILE) throw usageError('the sandbox profile is built in; use `crm sandbox reset` to clear its data');
  if (!profileOf(ctx.config(), name)) throw usageError(`unknown profile "${name}"`);
  if (ctx.dryRun) return done(`Dry run: profile ${name} was not removed`);
  let wasActive = false;
  const after = await updateConfig(ctx.env, (data) => {
    delete data.profiles[name];
    wasActive = data.active_profile === name;
    if (wasActive) delete data.active_profile;
  });
  // Commands go on without a word to another workspace (default, or the sandbox): say which.
  const next = wasActive ? activeProfileName({}, {}, after) : undefined;
  const replicaDeleted = await offerToForgetReplica(ctx, name);
  const message = next ? `✓ Removed profile ${name}; the active profile is now ${next} (\`crm profiles use NAME\` picks another)` : `✓ Removed profile ${name}`;
  return done(message, { profile: name, removed: true, ...(next ? { active_profile: next } : {}), ...(replicaDeleted === undefined ? {} : { replica_deleted: replicaDeleted }) });
};
