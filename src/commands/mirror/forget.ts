// `crm auth logout` and `crm profiles remove` leave a profile's workspace; its local replica holds
// that workspace's records. At a terminal they ask whether to delete it too; in a script they say
// where it is and how to delete it. Never deleted unasked, never left unsaid.

import type { Context } from '../../cli/context.js';
import { replicaPath } from '../../config/paths.js';
import { forgetReplica, replicaExists, replicaSize } from '../../mirror/files.js';

/** Whether the replica was deleted (undefined: the profile has none). */
export async function offerToForgetReplica(ctx: Context, profile: string): Promise<boolean | undefined> {
  const path = replicaPath(ctx.env, profile);
  if (!replicaExists(path)) return undefined;
  const what = `the local replica of profile "${profile}" (${path}, ${(replicaSize(path) / 1_048_576).toFixed(1)} MB)`;
  if (ctx.io.canPrompt && (await ctx.prompter().confirm(`Also delete ${what}?`, false))) return forgetReplica(path);
  ctx.info(`Kept ${what}; \`crm sync --forget --profile ${profile}\` deletes it.`);
  return false;
}
