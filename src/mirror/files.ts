// The replica's files, apart from the engine: `auth logout` and `profiles remove` look for a
// replica and offer to delete it without loading SQLite or the sync.

import { existsSync, statSync, unlinkSync } from 'node:fs';
import { cannotUseFile } from '../registry/values.js';
import { MirrorError } from './errors.js';

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
  for (const file of replicaFiles(path)) {
    try {
      // unlink, not rm: rm says a file it may not delete is "not a directory" (ENOTDIR), after trying it as one.
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new MirrorError(cannotUseFile('delete', `the replica ${file}`, error), { hint: 'delete it by hand, or let your user write its folder' });
    }
  }
  return existed;
}
