// V8 flags crm changes while it runs: a small heap for long walks (src/commands/stream.ts). V8 folds its flags into
// every code cache it writes and refuses a cache made under other flags: the code cache
// (src/code-cache.ts) compiles and writes under the flags a process starts with, which these put
// back for it. Otherwise a cache written after a change would be refused by every fresh start, and a
// module loaded after one would refuse its cache: both written again at every run.
// The code cache and the app are two bundles, each with its own copy of this module: what was
// changed is kept on process.

const CHANGED = Symbol.for('crm.v8-flags-changed');
const state = process as unknown as Record<symbol, Array<{ set: string; defaults: string }> | undefined>;

// Not import(): on Node 20 that builds a module facade of node:v8's exports too.
const setFlags = (flags: string): void => process.getBuiltinModule('node:v8').setFlagsFromString(flags);

/** Sets V8 flags for the rest of the process; `defaults` are the same flags as a process starts with them. */
export function changeV8Flags(set: string, defaults: string): void {
  setFlags(set);
  (state[CHANGED] ??= []).push({ set, defaults });
}

/** Puts back the flags the process started with (before a code cache is written). */
export function restoreStartupFlags(): void {
  for (const { defaults } of state[CHANGED] ?? []) setFlags(defaults);
}

/** What `compile` makes, compiled under the flags the process started with. */
export function underStartupFlags<T>(compile: () => T): T {
  const changed = state[CHANGED];
  if (!changed?.length) return compile();
  restoreStartupFlags();
  try {
    return compile();
  } finally {
    for (const { set } of changed) setFlags(set);
  }
}
