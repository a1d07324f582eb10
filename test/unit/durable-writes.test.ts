// Writes a power loss must not undo. writeFileAtomic (src/config/atomic.ts): the watch state and the
// completion cache are written whole or not at all, flushed to the disk before and after the rename.
// The import's checkpoint: a mark is flushed before the rows it covers are sent. node:fs is the real one here,
// recorded (and, for one test, made to fail an fsync as a disk would, EIO): the order of the calls
// is what a power loss depends on, and no test can pull the plug.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const fsCalls = vi.hoisted(() => ({ log: [] as string[], failFsync: undefined as string | undefined, failDirectoryOpen: undefined as string | undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const fail = (code: string) => Object.assign(new Error(`${code}: injected`), { code });
  const paths = new Map<number, string>();
  return {
    ...fs,
    openSync: (path: string, flags: string, mode?: number) => {
      if (flags === 'r' && fsCalls.failDirectoryOpen) throw fail(fsCalls.failDirectoryOpen);
      const fd = fs.openSync(path, flags, mode);
      paths.set(fd, path);
      return fd;
    },
    fsyncSync: (fd: number) => {
      fsCalls.log.push(`fsync ${paths.get(fd)}`);
      if (fsCalls.failFsync) throw fail(fsCalls.failFsync);
      fs.fsyncSync(fd);
    },
    renameSync: (from: string, to: string) => {
      fsCalls.log.push(`rename ${from} -> ${to}`);
      fs.renameSync(from, to);
    },
  };
});

const { writeFileAtomic } = await import('../../src/config/atomic.js');
const { Checkpoint } = await import('../../src/commands/contacts/import/checkpoint.js');

const dir = mkdtempSync(join(tmpdir(), 'crm-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  fsCalls.log.length = 0;
  fsCalls.failFsync = undefined;
  fsCalls.failDirectoryOpen = undefined;
});

describe('writeFileAtomic', () => {
  it('writes the whole text, owner-only, flushing the file before the rename and the directory after it', () => {
    const path = join(dir, 'state.json');
    const text = `${JSON.stringify({ handled: Array.from({ length: 300 }, (_, index) => ({ id: `con_${index}` })) }, null, 2)}\n`;
    writeFileAtomic(path, text);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const temporary = `${path}.${process.pid}.tmp`;
    expect(fsCalls.log).toEqual([`fsync ${temporary}`, `rename ${temporary} -> ${path}`, `fsync ${dir}`]);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a failed fsync (EIO) leaves the old file as it was, and no temporary file', () => {
    const path = join(dir, 'kept.json');
    writeFileSync(path, '{"old":true}\n', { mode: 0o600 });
    fsCalls.failFsync = 'EIO';
    expect(() => writeFileAtomic(path, '{"new":true}\n')).toThrow(/EIO/);
    expect(readFileSync(path, 'utf8')).toBe('{"old":true}\n');
    expect(fsCalls.log.some((call) => call.startsWith('rename'))).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('kept.json'))).toEqual(['kept.json']);
  });

  it.each(['EISDIR', 'EPERM', 'EINVAL'])('a directory the platform cannot open or flush (%s) is no failure: the file is in place', (code) => {
    const path = join(dir, `windows-${code}.json`);
    fsCalls.failDirectoryOpen = code;
    writeFileAtomic(path, 'whole\n');
    expect(readFileSync(path, 'utf8')).toBe('whole\n');
  });
});

describe('the import checkpoint', () => {
  it('flushes a mark (and, once, the directory entry of a journal it created) before the rows it covers are sent; outcomes go with the next batch', () => {
    const path = join(dir, 'import.crm-checkpoint');
    const identity = { workspace: 'https://crm.example.com/api/v1', profile: 'default', input: '/tmp/contacts.csv', digest: 'abc' };
    const checkpoint = Checkpoint.open(path, 'contacts.csv', { resume: false, replace: false, identity, dryRun: false });
    try {
      checkpoint.sending(1, () => 50);
      expect(fsCalls.log).toEqual([`fsync ${path}`, `fsync ${dir}`]);
      expect(readFileSync(path, 'utf8')).toContain('{"sent_through":50}');
      checkpoint.outcome(1, { digest: 'd1', state: 'created', id: 'con_1' });
      for (let line = 2; line <= 50; line++) checkpoint.sending(line, () => line + 49);
      // The next mark, for rows 51 to 100: the journal alone, its directory entry already on disk.
      checkpoint.sending(51, () => 100);
      expect(fsCalls.log).toEqual([`fsync ${path}`, `fsync ${dir}`, `fsync ${path}`]);
    } finally {
      checkpoint.close(false);
    }
  });
});
