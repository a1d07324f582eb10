import type { Store } from './store.js';

/** The schema the sandbox's code reads and writes: the number of migrations in ./schema.ts. */
export const SCHEMA_VERSION = 2;

export function userVersion(store: Store): number {
  return store.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
}
