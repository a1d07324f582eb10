// The replica's files, apart from the engine: `auth logout` and `profiles remove` look for a
// replica and offer to delete it without loading SQLite or the sync.

import { existsSync, rmSync, statSync } from 'node:fs';

/** The files SQLite keeps for a database in WAL mode. */
export const replicaFiles = (path: string): string[] => [path, `${path}-wal`, `${path}-shm`];

export function replicaExists(path: string): boolean {
  return existsSync(path);
}

/** The replica's size in bytes, with its write-ahead log. */
export function replicaSize(path: string): number {
  return replicaFiles(path).reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
}

/** Deletes the replica's files; false when there were none. */
export function forgetReplica(path: string): boolean {
  const existed = replicaFiles(path).some((file) => existsSync(file));
  for (const file of replicaFiles(path)) rmSync(file, { force: true });
  return existed;
}
