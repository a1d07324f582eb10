// Lock files: created with O_EXCL, so that one process wins, and naming their holder (pid and host),
// so that a lock left by a crm that was killed is recognised and taken over rather than blocking
// every later run. The configuration, an import's checkpoint and a watch's state file use them.
// Never flushed to the disk (no fsync), unlike the files they guard: a lock speaks for a live process,
// and the processes that read it share the kernel's page cache with its writer, where it is whole
// the moment it is linked (over NFS, the client sends a file to the server when it is closed). A power loss ends every holder, so a lock it loses was held by no one;
// one it leaves empty names no holder and is taken over (UNNAMED_STALE_MS) long before the machine
// is back. Flushing would cost each lock its milliseconds for nothing a crash could use.

import { linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface LockHolder {
  pid?: number;
  host?: string;
}

type LockAttempt = { acquired: true; release(): void } | { acquired: false; holder: LockHolder };

/**
 * A lock file that names no holder is stale after this long. crm links its lock into place whole
 * (tryLock), so only an older crm killed between creating its lock and writing its pid leaves one:
 * a writer names itself within microseconds of creating the file.
 */
const UNNAMED_STALE_MS = 2_000;
/**
 * The locks this process holds. A lock naming this process's pid that is not among them was left by
 * an earlier process given the same pid: in a container, a crm killed (out of memory, say) and
 * started again is pid 1 both times, and the lock looked held by a live process forever.
 */
const held = new Set<string>();

/** Takes the lock at PATH unless a live process holds it; a lock of a process that is gone is taken over. */
export function tryLock(path: string): LockAttempt {
  const mine = `${process.pid} ${hostname()}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      createWhole(path, mine);
      held.add(resolve(path));
      return {
        acquired: true,
        release: () => {
          held.delete(resolve(path));
          releaseIfMine(path, mine);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(path);
    if (holder && !isGone(holder, path)) return { acquired: false, holder };
    if (holder) takeAside(path);
  }
  return { acquired: false, holder: readHolder(path) ?? {} };
}

/**
 * Creates PATH holding TEXT, or fails with EEXIST when it exists. The text is written to a file of
 * this process's first and linked into place, so that the lock never exists empty: one created
 * with O_EXCL and then written is empty for a moment, and a crm killed in it (SIGKILL, out of
 * memory) left a lock naming no one, which every crm after it waited on and failed. A file system
 * without hard links gets the O_EXCL write.
 */
function createWhole(path: string, text: string): void {
  const whole = `${path}.${process.pid}.new`;
  writeFileSync(whole, text, { mode: 0o600 });
  try {
    linkSync(whole, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS')) throw error;
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
  } finally {
    rmSync(whole, { force: true });
  }
}

/** Who holds the lock at PATH, if a live process does (a dry run looks without taking it). */
export function lockHolder(path: string): LockHolder | undefined {
  const holder = readHolder(path);
  return holder && !isGone(holder, path) ? holder : undefined;
}

/** "process 4242", or "process 4242 on host-b, which crm cannot check from here": for messages. */
export function describeHolder(holder: LockHolder): string {
  if (holder.pid === undefined) return 'another process';
  return `process ${holder.pid}${holder.host && holder.host !== hostname() ? ` on ${holder.host}, which crm cannot check from here` : ''}`;
}

/** undefined: no lock file (any more). */
function readHolder(path: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, host] = text.trim().split(/\s+/);
  const number = Number(pid);
  return { ...(Number.isInteger(number) && number > 0 ? { pid: number } : {}), ...(host ? { host } : {}) };
}

function isGone(holder: LockHolder, path: string): boolean {
  if (holder.pid === undefined) {
    try {
      return Date.now() - statSync(path).mtimeMs > UNNAMED_STALE_MS;
    } catch {
      return true;
    }
  }
  // Another machine's process cannot be asked (a home shared over NFS, a container given a new
  // hostname): its pid says nothing here, so the lock holds until a user removes it. A lock of an
  // older crm names no host: it was written here.
  if (holder.host !== undefined && holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !held.has(resolve(path));
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Moves a stale lock out of the way by renaming it (atomic: of two processes taking it over, one
 * moves it). Should the file moved be a live lock after all (taken over between the look and the
 * move), it is put back unless another lock took its place.
 */
function takeAside(path: string): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  const moved = readHolder(aside);
  if (moved && !isGone(moved, aside)) {
    try {
      linkSync(aside, path);
    } catch {
      // Another lock is in place already: the next attempt meets it.
    }
  }
  rmSync(aside, { force: true });
}

/** Removes the lock only while it is still this process's (a lock taken over is the new holder's). */
function releaseIfMine(path: string, mine: string): void {
  try {
    if (readFileSync(path, 'utf8') === mine) rmSync(path, { force: true });
  } catch {
    // Gone already.
  }
}

/** This machine's name, which a lock file holds: node:os is loaded only where a lock is (0.2 ms of every start otherwise). */
function hostname(): string {
  return process.getBuiltinModule('node:os').hostname();
}
