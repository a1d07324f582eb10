// How the bundle is cut, for start-up (bench/run.mjs measures it): each module a command loads is a
// file for Node to resolve, read and compile, so the entry and the app share the definitions and the
// app is one more chunk. The bundle is CommonJS: a command never starts Node's ES module loader, and
// its compiled code can be kept between runs (src/code-cache.ts; test/e2e/code-cache.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, chunksWith, loadedUpFront } from '../helpers/bundle.js';
import { CRM_BIN, crm, freshHome } from '../helpers/crm.js';


describe('the bundle', () => {
  it('loads the entry and the app as four files: the definitions are one chunk they share, the core another that handlers and lazy libraries share', () => {
    const entry = [...loadedUpFront(['crm.js'])].filter((file) => file !== join(DIST, 'crm.js'));
    expect(entry).toHaveLength(1);
    const definitions = entry[0]!;
    const app = [...loadedUpFront(['app.js'])].filter((file) => file !== join(DIST, 'app.js'));
    expect(app).toHaveLength(2);
    expect(app).toContain(definitions);
    const core = app.find((file) => file !== definitions)!;
    // What is loaded later (a handler, the sandbox, the proxy agent, ora...: the chunks esbuild names
    // after their module, not chunk-*) loads the core with what is its own: nothing is split off the core.
    const lazy = chunksWith('').filter((file) => !/\/chunk-[^/]*$/.test(file));
    expect(lazy.length).toBeGreaterThan(20);
    for (const chunk of lazy) expect([...loadedUpFront([chunk.slice(DIST.length)])], chunk).toContain(core);
    // The definitions are in one file only.
    expect([join(DIST, 'crm.js'), ...chunksWith('')].filter((file) => readFileSync(file, 'utf8').includes('Move a deal to another pipeline stage'))).toEqual([definitions]);
  });

  it('runs every file in strict mode, as the ES modules it is built from', () => {
    const files = [join(DIST, 'crm.js'), join(DIST, 'app.js'), join(DIST, 'complete.js'), join(DIST, 'code-cache.js'), ...chunksWith('')];
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(readFileSync(file, 'utf8').startsWith('"use strict";'), file).toBe(true);
  });

  it("loads the sandbox's schema (its creation, migrations) and demo data only when a database needs them, not with the sandbox", () => {
    const sandbox = chunksWith('openSandbox:()=>');
    expect(sandbox).toHaveLength(1);
    const loaded = loadedUpFront(['crm.js', 'app.js', sandbox[0]!.slice(DIST.length)]);
    for (const text of ['CREATE TABLE deal_activities', 'acmerobotics.io']) {
      const holders = chunksWith(text);
      expect(holders, text).toHaveLength(1);
      expect([...loaded], text).not.toContain(holders[0]);
    }
  });

  it('crm --version and a list start none of the ES module loader that node -e 0 does not (bin/crm.js and dist/ are CommonJS): not its file reads, nor the threads they start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-version-'));
    try {
      // Node's list of the internal modules a process loaded, written as it exits.
      const hook = join(dir, 'modules.cjs');
      writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_FILE, process.moduleLoadList.join('\\n')));\n`);
      const home = freshHome();
      const loaded = (argv: string[]): string[] => {
        const file = join(dir, 'modules.txt');
        const result = spawnSync(process.execPath, argv, { env: { ...home, NODE_OPTIONS: `--require ${hook}`, MODULES_FILE: file }, encoding: 'utf8' });
        expect(result.status, result.stderr).toBe(0);
        return readFileSync(file, 'utf8').split('\n').filter((name) => /internal\/modules\/esm\/|internal\/fs\/promises/.test(name));
      };
      // The list is complete: it holds what node itself loads for any script.
      const bare = loaded(['-e', '0']);
      expect(bare.length).toBeGreaterThan(0);
      expect(loaded([CRM_BIN, '--version']).filter((name) => !bare.includes(name))).toEqual([]);
      // The first list creates the sandbox (and writes the code cache); the second reads both.
      for (let run = 0; run < 2; run++) expect(loaded([CRM_BIN, 'contacts', 'list', '--limit', '1', '--json']).filter((name) => !bare.includes(name)), `run ${run}`).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // better-sqlite3 12 aborts at exit on Node 24 (its destructors run after Node's environment is
  // gone: upstream WiseLibs/better-sqlite3#1515; its 13 needs Node 22), so on Node 24
  // crm's sandbox runs on node:sqlite, its default there (README, CRM_SQLITE), and this is not tried.
  it.skipIf(Number(process.versions.node.split('.')[0]) >= 24 || process.platform !== 'linux')('runs the sandbox on better-sqlite3 with its JavaScript from the bundle: of the installed package, only the addon is loaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-loaded-'));
    try {
      // What the process loaded through require(), and the shared objects it mapped, written as it exits.
      const hook = join(dir, 'loaded.cjs');
      writeFileSync(
        hook,
        `process.on('exit', () => { const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(join(dir, 'loaded.json'))}, JSON.stringify({ required: Object.keys(require.cache), mapped: fs.readFileSync('/proc/self/maps', 'utf8') })); });\n`,
      );
      const result = await crm(['contacts', 'list', '--limit', '1', '--json'], { env: { ...freshHome(), CRM_SQLITE: 'better-sqlite3', NODE_OPTIONS: `--require ${hook}` } });
      expect(result.code, result.stderr).toBe(0);
      const { required, mapped } = JSON.parse(readFileSync(join(dir, 'loaded.json'), 'utf8')) as { required: string[]; mapped: string };
      expect(required.filter((file) => file.includes('/node_modules/'))).toEqual([]);
      const addons = new Set(mapped.split('\n').map((line) => line.split(/\s+/)[5] ?? '').filter((file) => file.includes('/node_modules/')));
      expect([...addons]).toEqual([expect.stringMatching(/\/node_modules\/better-sqlite3\/build\/Release\/better_sqlite3\.node$/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what a list of the embedded sandbox loads', () => {
  it('not node:crypto: the sandbox compares the key of a request from its own process as a string, and makes ids (with the CSPRNG) only when it creates something', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-loaded-'));
    try {
      const home = freshHome();
      // The first command creates the sandbox: its demo data has ids, and its key is random.
      expect((await crm(['sandbox', 'init'], { env: home })).code).toBe(0);
      // Node's list of the internal modules it loaded, written as the process exits.
      const hook = join(dir, 'modules.cjs');
      const list = join(dir, 'modules.txt');
      writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
      const result = await crm(['contacts', 'list', '--limit', '2', '--json'], { env: { ...home, NODE_OPTIONS: `--require ${hook}` } });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(2);
      expect(readFileSync(list, 'utf8').split('\n')).not.toContain('NativeModule crypto');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
