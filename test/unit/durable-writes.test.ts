// Writes a power loss must not undo. writeFileAtomic (src/config/atomic.ts): the watch state and the
// completion cache are written whole or not at all, flushed to the disk before and after the rename.
// The import's checkpoint: a mark is flushed before the rows it covers are sent. The import's --errors
// file is replaced whole, flushed, as those are. node:fs is the real one here, recorded (and, for some
// tests, made to fail an fsync as a disk would, EIO, or a write half-way, ENOSPC): the order of the
// calls is what a power loss depends on, and no test can pull the plug.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, type PathOrFileDescriptor } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const fsCalls = vi.hoisted(() => ({
  log: [] as string[],
  failFsync: undefined as string | undefined,
  failDirectoryOpen: undefined as string | undefined,
  /** A file whose next write stops half-way with ENOSPC (a full disk), and how many such writes failed. */
  failWriteOf: undefined as RegExp | undefined,
  failedWrites: 0,
  /** A path accessSync says may not be written (EACCES): a directory of another user, to a test run as root. */
  readOnly: undefined as string | undefined,
}));

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
    accessSync: (path: string, mode?: number) => {
      if (path === fsCalls.readOnly && mode === fs.constants.W_OK) throw fail('EACCES');
      fs.accessSync(path, mode);
    },
    fsyncSync: (fd: number) => {
      fsCalls.log.push(`fsync ${paths.get(fd)}`);
      if (fsCalls.failFsync) throw fail(fsCalls.failFsync);
      fs.fsyncSync(fd);
    },
    writeFileSync: (target: PathOrFileDescriptor, data: string | Uint8Array, options?: unknown) => {
      const path = typeof target === 'number' ? paths.get(target) : String(target);
      if (fsCalls.failWriteOf && path && fsCalls.failWriteOf.test(path)) {
        fsCalls.failWriteOf = undefined;
        fsCalls.failedWrites++;
        const bytes = Buffer.from(data);
        fs.writeFileSync(target, bytes.subarray(0, bytes.length >> 1));
        throw fail('ENOSPC');
      }
      return fs.writeFileSync(target, data, options as Parameters<typeof fs.writeFileSync>[2]);
    },
    renameSync: (from: string, to: string) => {
      fsCalls.log.push(`rename ${from} -> ${to}`);
      fs.renameSync(from, to);
    },
  };
});

const { writeFileAtomic } = await import('../../src/config/atomic.js');
const { Checkpoint } = await import('../../src/commands/contacts/import/checkpoint.js');
const { run, useWorkspace } = await import('../helpers/inprocess.js');

const ws = useWorkspace();

const dir = mkdtempSync(join(tmpdir(), 'crm-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  fsCalls.log.length = 0;
  fsCalls.failFsync = undefined;
  fsCalls.failDirectoryOpen = undefined;
  fsCalls.failWriteOf = undefined;
  fsCalls.failedWrites = 0;
  fsCalls.readOnly = undefined;
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

describe('contacts import --errors FILE', () => {
  /** An import of one valid row and one invalid one in a directory of its own, --errors beside it holding OLD (if given). */
  function importWithErrors(old?: string) {
    const folder = mkdtempSync(join(tmpdir(), 'crm-errors-'));
    const input = join(folder, 'people.csv');
    writeFileSync(input, `name,email\nAda,ada-${Date.now().toString(36)}@example.com\nBad,not-an-email\n`);
    const errors = join(folder, 'errors.csv');
    if (old !== undefined) writeFileSync(errors, old);
    return { folder, errors, done: run(['contacts', 'import', input, '--errors', errors, '-o', 'ndjson'], { ws }) };
  }

  it('is written to a temporary file, flushed, renamed over the old one, and its directory flushed', async () => {
    const { folder, errors, done } = importWithErrors("an earlier run's errors\n");
    const result = await done;
    expect(result.code, result.stderr).toBe(7);
    expect(readFileSync(errors, 'utf8')).toBe('name,email,line,reason\r\nBad,not-an-email,3,"email: invalid email ""not-an-email"""\r\n');
    const temporary = `${errors}.${process.pid}.tmp`;
    expect(fsCalls.log.filter((call) => call.includes('errors.csv'))).toEqual([`fsync ${temporary}`, `rename ${temporary} -> ${errors}`]);
    expect(fsCalls.log.lastIndexOf(`fsync ${folder}`)).toBeGreaterThan(fsCalls.log.indexOf(`rename ${temporary} -> ${errors}`));
    // A file for the user, as any file they create: what the umask leaves of 0o666.
    expect(statSync(errors).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it('a write that fails half-way (a full disk) leaves the old file whole and no part of the new one: exit 1, naming it', async () => {
    const old = 'name,email,line,reason\r\nOld,old,2,from the run before\r\n';
    const { folder, errors, done } = importWithErrors(old);
    fsCalls.failWriteOf = /errors\.csv/;
    const result = await done;
    expect(fsCalls.failedWrites).toBe(1);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toContain(`crm: cannot write --errors ${errors}: `);
    expect(readFileSync(errors, 'utf8')).toBe(old);
    expect(readdirSync(folder).filter((name) => name.startsWith('errors.csv'))).toEqual(['errors.csv']);
  });

  it('a write that fails half-way with no earlier file leaves none', async () => {
    const { folder, done } = importWithErrors();
    fsCalls.failWriteOf = /errors\.csv/;
    expect((await done).code).toBe(1);
    expect(fsCalls.failedWrites).toBe(1);
    expect(readdirSync(folder).filter((name) => name.startsWith('errors.csv'))).toEqual([]);
  });

  it('an old file in a directory crm may not write is refused before anything is sent (exit 2): it could not be replaced', async () => {
    const { folder, errors, done } = importWithErrors('old\n');
    fsCalls.readOnly = folder;
    const result = await done;
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`^crm: cannot write --errors ${errors}: the directory ${folder}: `));
    expect(ws.requests()).toEqual([]);
    expect(readFileSync(errors, 'utf8')).toBe('old\n');
  });
});
