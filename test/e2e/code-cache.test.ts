// The code cache (src/code-cache.ts): the first run of a command writes V8's compiled code of each
// file of dist/ it loaded, and later runs start from it; a run of another command writes it again
// with what both compiled, three writes a file at most. V8 refuses a cache silently (made under
// other flags, by another V8, for a source of another length) and crm then writes it again, so
// "read, not written again" is what proves a cache was taken.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST } from '../helpers/bundle.js';
import { CRM_BIN, crm, freshHome } from '../helpers/crm.js';
import { useTestServer } from '../helpers/server.js';

/** A home whose code cache is in its default place, crm's cache folder ($XDG_CACHE_HOME/crm/v8). */
function homeWithDefaultCache(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_COMPILE_CACHE: _shared, ...home } = freshHome();
  return { ...home, ...extra };
}

/** The build's id as scripts/build.mjs computes it: a hash of every JavaScript file of dist/ but the code cache's. */
function buildId(): string {
  const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js') && file !== 'code-cache.js')
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${readFileSync(join(DIST, file), 'utf8')}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** Each cache file of a folder, with what tells a file written again from the same file (its inode: crm writes a new file and renames it). */
function caches(folder: string): Map<string, number> {
  return new Map(readdirSync(folder).map((name) => [name, statSync(join(folder, name)).ino]));
}

const folderOf = (env: NodeJS.ProcessEnv, root = join(env.XDG_CACHE_HOME!, 'crm', 'v8')) => join(root, `${buildId()}-node${process.version}-${process.arch}`);

describe('the code cache', () => {
  const live = useTestServer();

  it('a list over HTTP writes the cache of each file it loaded, and the next list reads them all: none is written again', async () => {
    const env = homeWithDefaultCache({ CRM_BASE_URL: live.server.url, CRM_API_KEY: live.server.apiKey });
    const first = await crm(['contacts', 'list', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const written = caches(folderOf(env));
    expect([...written.keys()]).toEqual(expect.arrayContaining(['crm.js.v8', 'app.js.v8', expect.stringMatching(/^chunk-.*\.js\.v8$/)]));
    const second = await crm(['contacts', 'list', '--json'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(caches(folderOf(env))).toEqual(written);
  });

  it("a run of another command writes a file's cache again, with what both compiled: three writes a file at most", async () => {
    const env = homeWithDefaultCache({ CRM_BASE_URL: live.server.url, CRM_API_KEY: live.server.apiKey });
    const folder = folderOf(env);
    /** How many times a file's cache was written, and the command that wrote it last (its header). */
    const header = (name: string) => {
      const file = readFileSync(join(folder, name));
      return { writes: file[0], command: file.subarray(2, 2 + file[1]!).toString('utf8') };
    };
    expect((await crm(['--help'], { env })).code).toBe(0);
    expect(header('crm.js.v8')).toEqual({ writes: 1, command: '' });
    const afterHelp = caches(folder);

    expect((await crm(['contacts', 'list', '--json'], { env })).code).toBe(0);
    const afterList = caches(folder);
    expect(afterList.get('crm.js.v8')).not.toBe(afterHelp.get('crm.js.v8'));
    expect(header('crm.js.v8')).toEqual({ writes: 2, command: 'contacts list' });
    expect(header('app.js.v8')).toEqual({ writes: 1, command: 'contacts list' });
    // The same command again: every cache is read, none written.
    expect((await crm(['contacts', 'list', '--json'], { env })).code).toBe(0);
    expect(caches(folder)).toEqual(afterList);

    expect((await crm(['status'], { env })).code).toBe(0);
    expect(header('crm.js.v8')).toEqual({ writes: 3, command: 'status' });
    expect(header('app.js.v8')).toEqual({ writes: 2, command: 'status' });
    const afterStatus = caches(folder);
    // A fourth command writes only the caches written fewer than three times.
    expect((await crm(['auth', 'status', '--json'], { env })).code).toBe(0);
    expect(caches(folder).get('crm.js.v8')).toBe(afterStatus.get('crm.js.v8'));
    expect(header('app.js.v8')).toEqual({ writes: 3, command: 'auth status' });
  });

  it('a network command that loads a module once its answer is in (-o csv: its library) reads its cache too: none is written again', async () => {
    const env = homeWithDefaultCache({ CRM_BASE_URL: live.server.url, CRM_API_KEY: live.server.apiKey });
    const first = await crm(['contacts', 'list', '--limit', '2', '-o', 'csv'], { env });
    expect(first.code, first.stderr).toBe(0);
    const written = caches(folderOf(env));
    for (let run = 0; run < 2; run++) {
      const again = await crm(['contacts', 'list', '--limit', '2', '-o', 'csv'], { env });
      expect(again.stdout).toBe(first.stdout);
      expect(caches(folderOf(env))).toEqual(written);
    }
  });

  it('so does crm query --fresh, whose sync set V8\'s heap flags (src/commands/stream.ts) before it loaded the query\'s modules', async () => {
    const env = homeWithDefaultCache();
    expect((await crm(['sandbox', 'init'], { env })).code).toBe(0);
    const query = ['query', '--fresh', 'select count(*) as n from contacts', '--json'];
    const first = await crm(query, { env });
    expect(first.code, first.stderr).toBe(0);
    const written = caches(folderOf(env));
    for (let run = 0; run < 2; run++) {
      const again = await crm(query, { env });
      expect(again.stdout).toBe(first.stdout);
      expect(caches(folderOf(env))).toEqual(written);
    }
  });

  it('so does a list of the embedded sandbox', async () => {
    const env = homeWithDefaultCache();
    expect((await crm(['sandbox', 'init'], { env })).code).toBe(0);
    const first = await crm(['contacts', 'list', '--limit', '3', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const written = caches(folderOf(env));
    expect(written.size).toBeGreaterThanOrEqual(4);
    const second = await crm(['contacts', 'list', '--limit', '3', '--json'], { env });
    expect(second.stdout).toBe(first.stdout);
    expect(caches(folderOf(env))).toEqual(written);
  });

  it('a cache V8 refuses (not one of its own) costs nothing but its compile: the command works, and the cache is written again', async () => {
    const env = homeWithDefaultCache();
    const folder = folderOf(env);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'crm.js.v8'), 'not a cache');
    const result = await crm(['contacts', 'list', '--limit', '1', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
    expect(readFileSync(join(folder, 'crm.js.v8')).length).toBeGreaterThan(1000);
  });

  it('a cache damaged on disk (its length kept) is not given to V8, which would abort: the command works, and the cache is written again', async () => {
    const env = homeWithDefaultCache();
    const first = await crm(['contacts', 'list', '--limit', '1', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const file = join(folderOf(env), 'crm.js.v8');
    const written = readFileSync(file);
    // A quarter of the bytecode overwritten, as a bad sector or a torn write would.
    writeFileSync(file, Buffer.concat([written.subarray(0, written.length >> 2), Buffer.alloc(written.length >> 2, 0xff), written.subarray(written.length >> 1)]));
    const before = statSync(file).ino;
    const second = await crm(['contacts', 'list', '--limit', '1', '--json'], { env });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const rewritten = statSync(file).ino;
    expect(rewritten).not.toBe(before);
    // The cache written again is taken: the next run does not write it.
    expect((await crm(['contacts', 'list', '--limit', '1', '--json'], { env })).code).toBe(0);
    expect(statSync(file).ino).toBe(rewritten);
  });

  it('a cache folder another user could write (or owns) is neither read nor written: a cache is code crm runs', async () => {
    // A cache as crm writes it (its two copies alike), whose bytecode would make V8 abort if it were read.
    const good = mkdtempSync(join(tmpdir(), 'crm-compile-cache-'));
    expect((await crm(['--help'], { env: homeWithDefaultCache({ NODE_COMPILE_CACHE: good }) })).code).toBe(0);
    const sealed = readFileSync(join(folderOf({}, join(good, 'crm')), 'crm.js.v8'));
    const header = sealed.subarray(0, 2 + sealed[1]!);
    const cache = sealed.subarray(header.length, header.length + (sealed.length - header.length) / 2);
    const bytecode = Buffer.concat([cache.subarray(0, cache.length >> 2), Buffer.alloc(cache.length >> 2, 0xff), cache.subarray(cache.length >> 1)]);
    const planted = Buffer.concat([header, bytecode, bytecode]);

    const unsafe: Array<[string, (base: string) => void]> = [
      ['its crm folder writable by others', (base) => chmodSync(join(base, 'crm'), 0o777)],
      ['NODE_COMPILE_CACHE writable by others, not sticky', (base) => chmodSync(base, 0o777)],
    ];
    // Only root can give a folder to another user.
    if (process.getuid?.() === 0) unsafe.push(['the build folder owned by another user', (base) => chownSync(folderOf({}, join(base, 'crm')), 54321, 54321)]);
    for (const [what, spoil] of unsafe) {
      const base = mkdtempSync(join(tmpdir(), 'crm-compile-cache-'));
      const folder = folderOf({}, join(base, 'crm'));
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      writeFileSync(join(folder, 'crm.js.v8'), planted);
      spoil(base);
      const result = await crm(['--help'], { env: homeWithDefaultCache({ NODE_COMPILE_CACHE: base }) });
      expect(result.stderr, what).toBe('');
      expect(result.code, what).toBe(0);
      expect(readdirSync(folder), what).toEqual(['crm.js.v8']);
      expect(readFileSync(join(folder, 'crm.js.v8')), what).toEqual(planted);
    }

    // A folder all can write but none can replace another's entries in (/tmp: sticky) holds crm's folder.
    const sticky = mkdtempSync(join(tmpdir(), 'crm-compile-cache-'));
    chmodSync(sticky, 0o1777);
    const env = homeWithDefaultCache({ NODE_COMPILE_CACHE: sticky });
    expect((await crm(['--help'], { env })).code).toBe(0);
    const written = caches(folderOf(env, join(sticky, 'crm')));
    expect(written.has('crm.js.v8')).toBe(true);
    expect((await crm(['--help'], { env })).code).toBe(0);
    expect(caches(folderOf(env, join(sticky, 'crm')))).toEqual(written);
  });

  it("a stack trace gives a file's positions, its first line's too (a minified file is a line or a few), as Node's own loader does", () => {
    // The code cache compiles the files beside it: a copy of it beside a file that throws on its first line.
    const dir = mkdtempSync(join(tmpdir(), 'crm-stack-'));
    copyFileSync(join(DIST, 'code-cache.js'), join(dir, 'code-cache.js'));
    const thrower = join(dir, 'thrower.js');
    writeFileSync(thrower, '"use strict";var unused=1;module.exports=function thrower(){throw new Error("here")};\n');
    const where = (cache: boolean) => {
      const script = `${cache ? `require(${JSON.stringify(join(dir, 'code-cache.js'))});` : ''}try{require(${JSON.stringify(thrower)})()}catch(e){console.log(e.stack.split('\\n')[1])}`;
      const result = spawnSync(process.execPath, ['-e', script], { env: homeWithDefaultCache(), encoding: 'utf8' });
      expect(result.stderr).toBe('');
      return result.stdout.trim();
    };
    const position = (frame: string) => frame.slice(frame.lastIndexOf('('));
    const native = where(false);
    expect(native).toMatch(/thrower\.js:1:\d+\)$/);
    expect(position(where(true))).toBe(position(native));
  });

  it('a TAB (crm __complete) keeps no compiled code: its module is small, and reading its cache cost a TAB more than compiling it', async () => {
    const env = homeWithDefaultCache();
    expect((await crm(['sandbox', 'init'], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } })).code).toBe(0);
    for (let run = 0; run < 2; run++) {
      const result = await crm(['__complete', 'profiles'], { env });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    expect(existsSync(join(env.XDG_CACHE_HOME!, 'crm', 'v8'))).toBe(false);
  });

  it("the caches of the 3 builds that wrote last are kept (two crms used in turn both keep theirs); older ones are removed", async () => {
    const env = homeWithDefaultCache();
    const root = join(env.XDG_CACHE_HOME!, 'crm', 'v8');
    const others = ['0000000000000000', '1111111111111111', '2222222222222222', '3333333333333333'].map((id) => `${id}-node${process.version}-${process.arch}`);
    others.forEach((name, age) => {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, 'crm.js.v8'), 'old');
      // The first is the oldest.
      const at = new Date(Date.now() - (others.length - age) * 60_000);
      utimesSync(join(root, name), at, at);
    });
    expect((await crm(['--help'], { env })).code).toBe(0);
    expect(readdirSync(root).sort()).toEqual([others[2], others[3], `${buildId()}-node${process.version}-${process.arch}`].sort());
  });

  it("NODE_COMPILE_CACHE names the folder and NODE_DISABLE_COMPILE_CACHE turns it off, as they do Node's own", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'crm-compile-cache-'));
    const named = homeWithDefaultCache({ NODE_COMPILE_CACHE: elsewhere });
    expect((await crm(['--help'], { env: named })).code).toBe(0);
    expect(caches(folderOf(named, join(elsewhere, 'crm'))).has('crm.js.v8')).toBe(true);
    expect(existsSync(named.XDG_CACHE_HOME!)).toBe(false);

    const off = homeWithDefaultCache({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect((await crm(['--help'], { env: off })).code).toBe(0);
    expect(existsSync(off.XDG_CACHE_HOME!)).toBe(false);
  });

  it("crm's files find one another by path: Node's resolution looks up none of dist/ but the code cache's (bin/crm.js requires it first), cache on or off", async () => {
    for (const extra of [{}, { NODE_DISABLE_COMPILE_CACHE: '1' }]) {
      const env = homeWithDefaultCache({ CRM_BASE_URL: live.server.url, CRM_API_KEY: live.server.apiKey, NODE_DEBUG: 'module', ...extra });
      const run = await crm(['contacts', 'list', '--json'], { env });
      expect(run.code, run.stderr).toBe(0);
      // What Node's loader logs as it loads each file, and as it resolves a relative request itself.
      const loaded = run.stderr.match(/load "[^"]*\/dist\/[^"]+"/g) ?? [];
      expect(loaded.length).toBeGreaterThanOrEqual(4);
      const resolvedByNode = run.stderr.match(/RELATIVE: requested: \S+/g) ?? [];
      expect(resolvedByNode).toEqual(['RELATIVE: requested: ../dist/code-cache.js']);
    }
  });

  // A user with neither HOME nor an entry in the password database (a container run with --user
  // 12345) has no cache folder: Node's homedir() throws. Only root can start a process as such a user.
  it.skipIf(process.platform !== 'linux' || process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0)(
    'a user without HOME nor an entry in the password database: --help and completions run, without a cache (no stack trace)',
    () => {
      const asNobody = (args: string[]) =>
        spawnSync('setpriv', ['--reuid', '54321', '--regid', '54321', '--clear-groups', process.execPath, CRM_BIN, ...args], { env: { PATH: process.env.PATH, LANG: 'C.UTF-8' }, encoding: 'utf8' });
      const help = asNobody(['--help']);
      expect(help.stderr).toBe('');
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('Usage: crm');
      // A completion prints nothing when it fails (here: no configuration folder), never a stack trace.
      expect(asNobody(['__complete', 'profiles']).stderr).toBe('');
    },
  );
});
