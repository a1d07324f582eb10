// A short-lived cache of values a workspace defines (its pipeline stages, its active sequences), for
// shell completion: a TAB must not wait for the network every time. One small JSON file, keyed by
// what was asked and of which workspace; entries older than COMPLETION_TTL_MS are not used.

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { cacheDir } from './paths.js';

export const COMPLETION_TTL_MS = 5 * 60_000;

export interface CachedValue {
  value: string;
  description: string;
}

interface Entry {
  at: number;
  values: CachedValue[];
}

function cachePath(env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'completion.json');
}

function readAll(env: NodeJS.ProcessEnv): Record<string, Entry> {
  try {
    const data: unknown = JSON.parse(readFileSync(cachePath(env), 'utf8'));
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, Entry>) : {};
  } catch {
    // Missing or damaged: as good as empty.
    return {};
  }
}

/** The cached values, if they are fresh. */
export function readCachedValues(env: NodeJS.ProcessEnv, key: string): CachedValue[] | undefined {
  const now = Date.now();
  const entries = readAll(env);
  if (!Object.hasOwn(entries, key)) return undefined;
  const entry = entries[key]!;
  if (typeof entry?.at !== 'number' || !Array.isArray(entry.values) || now - entry.at > COMPLETION_TTL_MS || entry.at > now) return undefined;
  return entry.values.filter((item) => typeof item?.value === 'string' && typeof item.description === 'string');
}

/** Stores values (written whole to a temporary file, then renamed: a reader never sees half). */
export function writeCachedValues(env: NodeJS.ProcessEnv, key: string, values: CachedValue[]): void {
  const now = Date.now();
  const entries = readAll(env);
  // Stale entries of other workspaces are dropped on the way.
  const fresh = Object.fromEntries(Object.entries(entries).filter(([, entry]) => typeof entry?.at === 'number' && now - entry.at <= COMPLETION_TTL_MS));
  fresh[key] = { at: now, values };
  const dir = cacheDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(cachePath(env), JSON.stringify(fresh));
}
