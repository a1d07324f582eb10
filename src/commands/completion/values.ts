// The workspace's values the completion scripts complete (stages, sequences), fetched and cached:
// the slow half of `crm __complete` (src/complete.ts).

import { Context } from '../../cli/context.js';
import { writeCachedValues, type CachedValue } from '../../config/cache.js';
import type { TargetFlags } from '../../config/resolve.js';
import type { Transport } from '../../transport/types.js';
import { fetchValues } from '../body.js';
import { isShellWord } from './shell.js';

/** How long a TAB may wait for the workspace when the cache has nothing fresh. */
const COMPLETION_TIMEOUT_SECONDS = 3;

/**
 * The slow half of `crm __complete` (src/complete.ts): asks the workspace once for its stages or
 * active sequences, with a short timeout and no retries, and caches the answer for the next TABs.
 */
export async function fetchCompletionValues(source: 'stages' | 'sequences', key: string, init: { env: NodeJS.ProcessEnv; flags: TargetFlags; transport?: Transport }): Promise<CachedValue[]> {
  const quiet = { write: () => true };
  const ctx = new Context({
    options: { ...init.flags, timeout: String(COMPLETION_TIMEOUT_SECONDS) },
    env: init.env,
    stdout: quiet,
    stderr: quiet,
    transport: init.transport,
    maxRetries: 0,
  });
  try {
    const values = (await fetchValues(ctx, source)).filter(({ value }) => isShellWord(value)).map(({ value, label }) => ({ value, description: label === value ? '' : label }));
    writeCachedValues(init.env, key, values);
    return values;
  } finally {
    ctx.close();
  }
}
