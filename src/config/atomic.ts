// A file written whole or not at all: to a temporary file beside it, flushed to the disk, then
// renamed over it, so that a reader (or a crash) never meets half of it. The flushes are what a
// power loss needs: without the file's, the rename may reach the disk before the data and leave an
// empty file where the old one was (ext4, XFS, btrfs may delay data); without the directory's, the
// rename itself may be lost. As git and npm's write-file-atomic do, at about 3 ms a write (a 30 KB
// watch state, ext4 on a virtual disk; 0.4 ms without).

import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** MODE: owner-only unless said (a file for the user to open, as --errors, gets what the umask leaves of 0o666). */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  const temporary = `${path}.${process.pid}.tmp`;
  // Not opened (a directory is in its way, the disk is read-only): nothing of this write to remove.
  const fd = openSync(temporary, 'w', mode);
  try {
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    // The old file is as it was; the temporary one is not left behind. The write's failure is the one said.
    rmSync(temporary, { force: true, maxRetries: 0 });
    throw error;
  }
  syncDirectory(dirname(path));
}

/**
 * Errors of a directory's fsync that say the platform or file system cannot do it (Windows opens
 * no directory, some network and FUSE file systems refuse), not that the write failed: the file
 * is in place already.
 */
const CANNOT_SYNC_DIRECTORY = new Set(['EINVAL', 'EISDIR', 'EPERM', 'EACCES', 'EBADF', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Flushes a directory's entries (a file created or renamed in it) to the disk, where the platform can. */
export function syncDirectory(directory: string): void {
  let fd: number;
  try {
    fd = openSync(directory, 'r');
  } catch (error) {
    if (CANNOT_SYNC_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    fsyncSync(fd);
  } catch (error) {
    if (!CANNOT_SYNC_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    closeSync(fd);
  }
}
