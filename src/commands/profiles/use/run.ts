// crm profiles use NAME: make a profile the active one.

import { usageError } from '../../../cli/errors.js';
import { done } from '../../../cli/result.js';
import { SANDBOX_PROFILE, checkProfileName, profileOf, updateConfig } from '../../../config/store.js';

import type { Handler } from '../../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args }) => {
  const name = checkProfileName(args.name);
  if (name !== SANDBOX_PROFILE && !profileOf(ctx.config(), name)) throw usageError(`unknown profile "${name}"`, 'create it with `crm auth login --profile NAME`');
  if (ctx.dryRun) return done(`Dry run: the active profile stays as it is (would be ${name})`);
  await updateConfig(ctx.env, (data) => {
    data.active_profile = name;
  });
  return done(`✓ Active profile: ${name}`, { profile: name, active: true });
};
