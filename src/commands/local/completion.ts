// crm completion bash|zsh|fish: the shell's completion script, generated from the registry; and the
// workspace's values the scripts complete (stages, sequences), fetched and cached.

import { Context } from '../../cli/context.js';
import { writeCachedValues, type CachedValue } from '../../config/cache.js';
import type { TargetFlags } from '../../config/resolve.js';
import type { Transport } from '../../transport/types.js';
import { fetchValues } from '../body.js';
import type { Shell } from '../completion/scripts.js';
import { isShellWord } from '../completion/shell.js';
import type { LocalHandler } from './types.js';

export const script: LocalHandler = async (_ctx, { args }) => {
  const { completionScript } = await import('../completion/scripts.js');
  return { kind: 'value', value: completionScript(args.string('shell') as Shell) };
};

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
