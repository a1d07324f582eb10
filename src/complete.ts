// `crm __complete SOURCE [WORDS...]`: the shell completions' hidden fast path. It prints the values a
// workspace or the configuration defines, one `value<TAB>description` a line: stored profiles (read
// from the config file), pipeline stages and active sequences (from a cache of a few minutes). bin/crm.js
// loads this module alone: no commander, no HTTP core. Only when the cache has nothing fresh does it
// load the app and ask the workspace, once, with a short timeout; its answer fills the cache.
// WORDS are the words typed so far, for --profile and --base-url. Failures print nothing: a
// completion has nowhere to report them.

import { readCachedValues, type CachedValue } from './config/cache.js';
import { sandboxPath } from './config/paths.js';
import { resolveTarget, type TargetFlags } from './config/resolve.js';
import { SANDBOX_PROFILE, readConfig } from './config/store.js';
import { isShellWord } from './commands/completion/shell.js';
import { safeLine } from './cli/format.js';
import { processStdout, type OutStream } from './cli/io.js';
import type { Transport } from './transport/types.js';

interface CompleteInit {
  env?: NodeJS.ProcessEnv;
  stdout?: OutStream;
  /** Replaces the network and sandbox transports (tests). */
  transport?: Transport;
}

const WORKSPACE_SOURCES = ['stages', 'sequences'] as const;
type WorkspaceSource = (typeof WORKSPACE_SOURCES)[number];

/** --profile and --base-url among the words typed so far (`--flag value` or `--flag=value`). */
function targetFlags(words: readonly string[]): TargetFlags {
  const flags: TargetFlags = {};
  words.forEach((word, index) => {
    for (const [flag, key] of [['--profile', 'profile'], ['--base-url', 'baseUrl']] as const) {
      if (word === flag && words[index + 1] !== undefined) flags[key] = words[index + 1];
      else if (word.startsWith(`${flag}=`)) flags[key] = word.slice(flag.length + 1);
    }
  });
  return flags;
}

/**
 * What the cache calls a workspace's values: the source, the profile and the workspace's URL (or
 * sandbox file). Two workspaces of one service share its URL and differ by key: a profile is one.
 */
function cacheKey(source: WorkspaceSource, flags: TargetFlags, env: NodeJS.ProcessEnv): string {
  const target = resolveTarget(flags, env, readConfig(env));
  return `${source} ${target.profile} ${target.kind === 'remote' ? target.baseUrl : `sandbox:${sandboxPath(env)}`}`;
}

function profiles(env: NodeJS.ProcessEnv): CachedValue[] {
  const stored = Object.entries(readConfig(env).profiles).map(([name, profile]) => ({ value: name, description: typeof profile?.base_url === 'string' ? profile.base_url : '' }));
  return [{ value: SANDBOX_PROFILE, description: 'the local sandbox workspace' }, ...stored.filter((profile) => profile.value !== SANDBOX_PROFILE)];
}

export async function complete(argv: readonly string[], init: CompleteInit = {}): Promise<number> {
  const env = init.env ?? process.env;
  const stdout = init.stdout ?? processStdout();
  const [source, ...words] = argv;
  let values: CachedValue[] = [];
  try {
    if (source === 'profiles') {
      values = profiles(env);
    } else if (WORKSPACE_SOURCES.includes(source as WorkspaceSource)) {
      const flags = targetFlags(words);
      const key = cacheKey(source as WorkspaceSource, flags, env);
      values = readCachedValues(env, key) ?? (await (await import('./app.js')).fetchCompletionValues(source as WorkspaceSource, key, { env, transport: init.transport, flags }));
    } else {
      return 2;
    }
  } catch {
    return 1;
  }
  // Only plain words are offered: a value from the service must never become shell syntax.
  const lines = values.filter((item) => isShellWord(item.value)).map((item) => `${item.value}\t${safeLine(item.description)}\n`);
  stdout.write(lines.join(''));
  return 0;
}
