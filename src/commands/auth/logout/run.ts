// crm auth logout: remove the active profile's stored key.

import { done } from '../../../cli/result.js';
import { SANDBOX_PROFILE, profileOf, updateConfig } from '../../../config/store.js';
import { activeProfileName } from '../../../config/resolve.js';
import type { Handler } from '../../command.js';
import { offerToForgetReplica } from '../../mirror/forget.js';

export const run: Handler = async (ctx) => {
  const profile = activeProfileName({ profile: ctx.options.profile }, ctx.env, ctx.config());
  if (profile === SANDBOX_PROFILE) return done('The local sandbox has no stored key to remove.');
  const hadKey = Boolean(profileOf(ctx.config(), profile)?.api_key);
  if (ctx.dryRun) return done(`Dry run: the key of profile "${profile}" was not removed`);
  if (hadKey) {
    await updateConfig(ctx.env, (data) => {
      const entry = profileOf(data, profile);
      if (entry) delete entry.api_key;
    });
  }
  if (ctx.env.CRM_API_KEY) ctx.warn('CRM_API_KEY is still set in the environment and will be used');
  const replicaDeleted = await offerToForgetReplica(ctx, profile);
  return done(hadKey ? `✓ Removed the key of profile "${profile}"` : `Profile "${profile}" has no stored key.`, { profile, removed: hadKey, ...(replicaDeleted === undefined ? {} : { replica_deleted: replicaDeleted }) });
};
