// What a global install runs: the built bundle with no node_modules beside it (the package has no
// runtime dependencies; better-sqlite3 is optional), in a directory outside the repository. Every
// command works; the sandbox runs on node:sqlite where Node has it, and where it has none (Node 20
// without the binding) a command that needs the sandbox fails in one line saying how to fix it,
// while commands against a real workspace are unaffected. `.ci/run` does the same from the packed
// tarball installed into a prefix.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksWith, loadedUpFront } from '../helpers/bundle.js';
import { crm, freshHome, type Result } from '../helpers/crm.js';
import { useServedSandbox } from '../helpers/fault-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
/** Whether this Node has SQLite built in, asked of Node itself rather than of crm's loader. */
const NODE_HAS_SQLITE = process.getBuiltinModule?.('node:sqlite') !== undefined;

let installed: string;
let bin: string;
beforeAll(() => {
  installed = mkdtempSync(join(tmpdir(), 'crm-installed-'));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(installed, part), { recursive: true });
  bin = join(installed, 'bin', 'crm.js');
});
afterAll(() => rmSync(installed, { recursive: true, force: true }));

/** A user's fresh home, without the binding CI may have chosen for the suite. */
function userHome(): NodeJS.ProcessEnv {
  const { CRM_SQLITE: _chosen, ...home } = freshHome();
  return home;
}
/** A workspace over HTTP (the sandbox of this test process behind a server). */
const served = useServedSandbox();
const run = (args: string[], env: NodeJS.ProcessEnv = userHome()): Promise<Result> => crm(args, { env, bin });

describe('the bundle alone (no node_modules)', () => {
  it('prints its version and completion scripts', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const completion = await run(['completion', 'bash']);
    expect(completion.code).toBe(0);
    expect(completion.stdout).toMatch(/^# bash completion for crm/);
    expect(completion.stderr).toBe('');
  });

  it('serves MCP: initialize and tools/list (on the sandbox where SQLite is at hand, else on a workspace)', async () => {
    const home = NODE_HAS_SQLITE ? userHome() : served.env();
    const env = Object.fromEntries(Object.entries(home).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const client = new Client({ name: 'crm-install', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], env, stderr: 'pipe' }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'crm', version: VERSION });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('contacts_list');
    } finally {
      await client.close();
    }
  });

  it('filters with --jq: jq.wasm travels in dist/, beside app.js', async () => {
    const result = await run(['contacts', 'list', '--limit', '2', '--jq', '.[] | .id'], served.env());
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^con_\w+\ncon_\w+\n$/);
    const invalid = await run(['contacts', 'list', '--jq', '.['], served.env());
    expect(invalid).toMatchObject({ code: 2, stdout: '' });
  });

  it('loads --jq\'s engine only for --jq: a chunk no command loads up front', () => {
    const engine = chunksWith('callMain');
    expect(engine).toHaveLength(1);
    const loaded = loadedUpFront(['crm.js', 'app.js', 'complete.js']);
    expect(loaded.size).toBeGreaterThan(3);
    expect([...loaded]).not.toContain(engine[0]);
  });

  it.runIf(NODE_HAS_SQLITE)('runs the sandbox on the SQLite built into Node, without a warning', async () => {
    const result = await run(['contacts', 'list', '--limit', '1', '-q']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^con_\w+\n$/);
  });

  it.runIf(!NODE_HAS_SQLITE)('says in one line how to get SQLite when a command needs the sandbox (exit 1)', async () => {
    const result = await run(['contacts', 'list']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `crm: no SQLite for the sandbox: Node ${process.versions.node} has none built in and better-sqlite3 is not installed; ` +
        "reinstall crm where npm can build it (python3, make, a C++ compiler, and nodejs.org reachable for Node's headers), or use Node 22.13 or newer\n",
    );
  });
});

describe('a real workspace needs no SQLite', () => {
  it('lists, creates and reports auth without the sandbox, even where no SQLite loads', async () => {
    // better-sqlite3 only: absent here, so nothing may open a local database.
    const env = { ...served.env(), CRM_SQLITE: 'better-sqlite3' };
    const list = await run(['contacts', 'list', '--limit', '1', '-q'], env);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(/^con_\w+\n$/);
    expect((await run(['contacts', 'create', '--name', 'No Sqlite', '--email', 'no-sqlite@example.com', '-q'], env)).code).toBe(0);
    expect(served.server.requests(/^POST \/api\/v1\/contacts$/)).toHaveLength(1);
  });
});

describe('CRM_SQLITE', () => {
  it('names the binding and no other: an unusable one is exit 1 saying how to fix it', async () => {
    // A better-sqlite3 built for another Node, as after switching Node with nvm: its addon refuses to load.
    const binding = join(installed, 'node_modules', 'better-sqlite3');
    mkdirSync(binding, { recursive: true });
    writeFileSync(join(binding, 'package.json'), JSON.stringify({ name: 'better-sqlite3', main: 'index.js' }));
    writeFileSync(
      join(binding, 'index.js'),
      `module.exports = class Database { constructor() { throw new Error("The module '${binding}/build/Release/better_sqlite3.node'\\n` +
        `was compiled against a different Node.js version using\\nNODE_MODULE_VERSION 115. This version of Node.js requires\\nNODE_MODULE_VERSION 137."); } };\n`,
    );
    try {
      const result = await run(['contacts', 'list'], { ...userHome(), CRM_SQLITE: 'better-sqlite3' });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'crm: no SQLite for the sandbox: better-sqlite3 was built for another Node version (CRM_SQLITE=better-sqlite3); ' +
          `run \`npm rebuild better-sqlite3\` in ${installed}, or unset CRM_SQLITE\n`,
      );
    } finally {
      rmSync(join(installed, 'node_modules'), { recursive: true, force: true });
    }
  });

  it('is exit 2 when it names no binding, before anything is opened', async () => {
    const home = userHome();
    const result = await run(['contacts', 'list'], { ...home, CRM_SQLITE: 'sqlite4' });
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'crm: CRM_SQLITE is "sqlite4"; it must be node:sqlite or better-sqlite3, or unset\n' });
    expect((await run(['sandbox', 'status', '-o', 'json'], home)).stdout).toContain('"exists": false');
  });
});
