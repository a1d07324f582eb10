// crm auth, profiles and config, in-process: the key stored with conf (mode 0600), verified before
// it is saved. The workspace's transport answers whatever base URL a profile names.
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE_URL, homeEnv, json, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const server = { url: BASE_URL, get apiKey() { return ws.apiKey; }, requests: (filter?: RegExp) => ws.requests(filter) };
const freshHome = () => homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-')));
const crm = (args: string[], options: { env: NodeJS.ProcessEnv; input?: string; tty?: { stderr?: boolean } }) =>
  run(args, { ws, env: options.env, stdin: options.input, tty: options.tty });

const configFile = (home: NodeJS.ProcessEnv) => join(home.XDG_CONFIG_HOME!, 'crm', 'config.json');
const readConfig = (home: NodeJS.ProcessEnv) => JSON.parse(readFileSync(configFile(home), 'utf8'));

async function loggedIn(profile?: string): Promise<NodeJS.ProcessEnv> {
  const home = freshHome();
  const args = ['auth', 'login', '--base-url', server.url, '--with-key', ...(profile ? ['--profile', profile] : [])];
  const result = await crm(args, { env: home, input: `${server.apiKey}\n` });
  expect(result.code).toBe(0);
  return home;
}

describe('auth login', () => {
  it('verifies the key with one request, then stores it in a 0600 file and makes the profile active', async () => {
    const home = freshHome();
    const result = await crm(['auth', 'login', '--base-url', server.url.replace('/api/v1', ''), '--with-key'], { env: home, input: `${server.apiKey}\n`, tty: { stderr: true } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`✓ Logged in to ${server.url} (profile "default", key ****${server.apiKey.slice(-4)})\n`);
    expect(server.requests().map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/v1/contacts?limit=1']);
    expect(readConfig(home)).toEqual({ active_profile: 'default', profiles: { default: { base_url: server.url, api_key: server.apiKey } } });
    expect(statSync(configFile(home)).mode & 0o777).toBe(0o600);
    const list = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: home });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^con_/);
  });

  // sysfs: a folder that exists, in which no one (root included) can create a file.
  it.skipIf(process.platform !== 'linux' || !existsSync('/sys/kernel'))('a configuration folder crm cannot write in: one line naming the file and why, nothing claimed, exit 1 (not Node\'s "EACCES: ... open config.json.lock")', async () => {
    const home = { ...freshHome(), CRM_CONFIG_DIR: '/sys/kernel' };
    const result = await crm(['auth', 'login', '--base-url', server.url, '--with-key'], { env: home, input: `${server.apiKey}\n`, tty: { stderr: true } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^crm: cannot write the configuration \/sys\/kernel\/config\.json: (permission denied|read-only file system|operation not permitted)\nhint: nothing was saved; set CRM_CONFIG_DIR to a directory crm can write\n$/);
  });

  it('does not save a rejected key and exits 3', async () => {
    const home = freshHome();
    const result = await crm(['auth', 'login', '--base-url', server.url, '--with-key'], { env: home, input: 'sbx_test_not_the_key' });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('crm: the service rejected the key: Invalid or revoked API key\nhint: nothing was saved\n');
    expect(() => readFileSync(configFile(home))).toThrow(/ENOENT/);
  });

  it('a base URL where no API answers (404, or a page that is not JSON): its exit code, nothing saved, and a hint to check --base-url', async () => {
    const home = freshHome();
    const hint = 'hint: nothing was saved; check --base-url: the origin (https://crm.example.com), or the API base ending in /api/v1\n';
    const wrongPath = await crm(['auth', 'login', '--base-url', 'http://127.0.0.1:9/app', '--with-key'], { env: home, input: `${server.apiKey}\n` });
    expect(wrongPath.code).toBe(4);
    expect(wrongPath.stderr.endsWith(hint), wrongPath.stderr).toBe(true);
    ws.fault({ match: /contacts/, status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Sign in</p>' });
    const page = await crm(['auth', 'login', '--base-url', server.url, '--with-key'], { env: home, input: `${server.apiKey}\n` });
    expect(page.code).toBe(6);
    expect(page.stderr).toBe(`crm: malformed response from the service (HTTP 200, not JSON)\n${hint}`);
    expect(() => readConfig(home)).toThrow(/ENOENT/);
  });

  it('a host that is not there (nothing listening, no such name): exit 6, nothing saved, and a hint to check --base-url', async () => {
    const home = freshHome();
    for (const code of ['ECONNREFUSED', 'ENOTFOUND']) {
      ws.fault({ match: /contacts/, network: { code, delivered: false }, times: 4 });
      const result = await run(['auth', 'login', '--base-url', server.url, '--with-key'], { ws, env: home, stdin: `${server.apiKey}\n`, sleep: async () => {} });
      expect(result.code, code).toBe(6);
      expect(result.stderr, code).toBe(`crm: injected ${code}; tried 4 times\nhint: nothing was saved; check --base-url\n`);
    }
    expect(() => readConfig(home)).toThrow(/ENOENT/);
  });

  it('without a key on stdin or a terminal: exit 2, nothing sent', async () => {
    const noKey = await crm(['auth', 'login', '--base-url', server.url], { env: freshHome() });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr.split('\n')[0]).toBe('crm: no key given: crm asks for it at a terminal only, and reads it from stdin only with --with-key');
    // A key piped in without --with-key is not read, and the message says why (it said only "no key given").
    const piped = await crm(['auth', 'login', '--base-url', server.url], { env: freshHome(), input: `${server.apiKey}\n` });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toBe('crm: no key given: crm asks for it at a terminal only, and reads it from stdin only with --with-key\nhint: pipe it in: `crm auth login --with-key < keyfile`\n');
    const empty = await crm(['auth', 'login', '--base-url', server.url, '--with-key'], { env: freshHome(), input: '\n' });
    expect(empty.code).toBe(2);
    const noUrl = await crm(['auth', 'login', '--with-key'], { env: freshHome(), input: 'key' });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr.split('\n')[0]).toBe('crm: missing --base-url');
    expect(server.requests()).toHaveLength(0);
  });

  it('cannot overwrite the built-in sandbox profile', async () => {
    const result = await crm(['auth', 'login', '--profile', 'sandbox', '--base-url', server.url, '--with-key'], { env: freshHome(), input: 'k' });
    expect(result.code).toBe(2);
  });
});

describe('auth status and logout', () => {
  it('status shows profile, base URL, the last 4 characters of the key and that it works', async () => {
    const home = await loggedIn();
    const result = await crm(['auth', 'status', '--json'], { env: home });
    expect(result.code).toBe(0);
    const key = `****${server.apiKey.slice(-4)}`;
    expect(json(result)).toEqual({ profile: 'default', profile_source: 'config', base_url: server.url, base_url_source: 'profile', key, key_source: 'profile', works: true });
    expect(result.stdout).not.toContain(server.apiKey);
    // In a pipe: every field as key<TAB>value lines.
    const piped = await crm(['auth', 'status'], { env: home });
    expect(piped.stdout).toBe(`profile\tdefault\nprofile_source\tconfig\nbase_url\t${server.url}\nbase_url_source\tprofile\nkey\t${key}\nkey_source\tprofile\nworks\ttrue\n`);
  });

  it('status says where the profile, the base URL and the key came from: flag, environment, config', async () => {
    const home = await loggedIn('staging');
    const sources = async (args: string[], env: NodeJS.ProcessEnv) => {
      const { profile, profile_source, base_url_source, key_source } = json(await crm([...args, 'auth', 'status', '--json'], { env: { ...home, ...env } })) as Record<string, string>;
      return [profile, profile_source, base_url_source, key_source];
    };
    expect(await sources([], {})).toEqual(['staging', 'config', 'profile', 'profile']);
    expect(await sources([], { CRM_PROFILE: 'staging', CRM_BASE_URL: server.url })).toEqual(['staging', 'env', 'env', 'profile']);
    // --profile wins over CRM_PROFILE, --base-url over CRM_BASE_URL, as README's precedence says.
    const both = { CRM_PROFILE: 'sandbox', CRM_BASE_URL: 'http://127.0.0.1:9/api/v1', CRM_API_KEY: server.apiKey };
    expect(await sources(['--profile', 'staging', '--base-url', server.url], both)).toEqual(['staging', 'flag', 'flag', 'env']);
    expect(await sources(['--profile', 'sandbox'], {})).toEqual(['sandbox', 'flag', 'sandbox', 'sandbox']);
    expect(await sources([], { CRM_PROFILE: 'sandbox' })).toEqual(['sandbox', 'env', 'sandbox', 'sandbox']);
  });

  it('an empty --profile or --base-url (crm --profile "$UNSET") is exit 2, nothing sent, nothing saved: it went to the active profile', async () => {
    const home = await loggedIn('work');
    const before = server.requests().length;
    for (const args of [['--profile', '', 'contacts', 'list'], ['--base-url', ' ', 'contacts', 'list'], ['auth', 'login', '--profile', '', '--with-key'], ['--profile=', 'profiles', 'list']]) {
      const result = await crm(args, { env: home, input: 'sbx_test_other_key_0000000\n' });
      expect([result.code, result.stderr.split('\n')[0]]).toEqual([2, `crm: ${args.find((arg) => arg.startsWith('--'))!.replace('=', '')} is empty`]);
    }
    expect(server.requests()).toHaveLength(before);
    expect(readConfig(home).profiles.work.api_key).toBe(server.apiKey);
  });

  it('status of a key that stopped working exits 3', async () => {
    const home = await loggedIn();
    const result = await crm(['auth', 'status', '--json'], { env: { ...home, CRM_API_KEY: 'sbx_test_revoked_key_000' } });
    expect(result.code).toBe(3);
    expect(json(result)).toMatchObject({ key_source: 'env', works: false, error: 'Invalid or revoked API key' });
  });

  it('logout removes the key; the next command exits 3 with a hint', async () => {
    const home = await loggedIn();
    const result = await crm(['auth', 'logout'], { env: home, tty: { stderr: true } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('✓ Removed the key of profile "default"\n');
    expect(readConfig(home).profiles.default).toEqual({ base_url: server.url });
    const after = await crm(['contacts', 'list'], { env: home });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('run `crm auth login`');
  });
});

describe('profiles', () => {
  it('list, use and remove', async () => {
    const home = await loggedIn('work');
    await crm(['auth', 'login', '--profile', 'home', '--base-url', server.url, '--with-key'], { env: home, input: server.apiKey });
    const listed = await crm(['profiles', 'list', '--json'], { env: home });
    expect(json(listed)).toEqual([
      { name: 'sandbox', active: false, base_url: 'sandbox (local)', key: 'local' },
      { name: 'work', active: false, base_url: server.url, key: `****${server.apiKey.slice(-4)}` },
      { name: 'home', active: true, base_url: server.url, key: `****${server.apiKey.slice(-4)}` },
    ]);
    expect((await crm(['profiles', 'use', 'work'], { env: home })).code).toBe(0);
    expect(readConfig(home).active_profile).toBe('work');
    const unknown = await crm(['profiles', 'use', 'nope'], { env: home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('crm: unknown profile "nope"');
    // The active profile removed: it says which one commands use now.
    const removed = await crm(['profiles', 'remove', 'work'], { env: home, tty: { stderr: true } });
    expect([removed.code, removed.stderr]).toEqual([0, '✓ Removed profile work; the active profile is now sandbox (`crm profiles use NAME` picks another)\n']);
    expect(readConfig(home)).toEqual({ profiles: { home: { base_url: server.url, api_key: server.apiKey } } });
    expect((await crm(['profiles', 'remove', 'home'], { env: home, tty: { stderr: true } })).stderr).toBe('✓ Removed profile home\n');
    expect((await crm(['profiles', 'rm', 'sandbox'], { env: home })).code).toBe(2);
  });
});

describe('config', () => {
  it('set, get and list settings of the active profile', async () => {
    const home = await loggedIn();
    expect((await crm(['config', 'set', 'output', 'json'], { env: home })).code).toBe(0);
    expect((await crm(['config', 'set', 'timeout', '12'], { env: home })).code).toBe(0);
    const got = await crm(['config', 'get', 'output'], { env: home });
    expect(got.stdout).toBe('json\n');
    const key = await crm(['config', 'get', 'api_key'], { env: home });
    expect(key.stdout).toBe(`****${server.apiKey.slice(-4)}\n`);
    const listed = await crm(['config', 'list', '--json'], { env: home });
    const rows = (result: Awaited<ReturnType<typeof crm>>) => json(result).map((row: { key: string; value: unknown; source: string }) => [row.key, row.value, row.source]);
    expect(rows(listed)).toEqual([
      ['base_url', server.url, 'profile'],
      ['output', 'json', 'profile'],
      ['timeout', 12, 'profile'],
      ['api_key', `****${server.apiKey.slice(-4)}`, 'profile'],
    ]);
    // What overrides the profile is shown with where it came from; the key masked whatever its source.
    const otherKey = 'sbx_test_from_the_environment_0042';
    const overridden = await crm(['config', 'list', '--json', '--base-url', 'https://crm.example.com', '--timeout', '5'], { env: { ...home, CRM_OUTPUT: 'csv', CRM_API_KEY: otherKey } });
    expect(rows(overridden)).toEqual([
      ['base_url', 'https://crm.example.com', 'flag'],
      ['output', 'csv', 'env'],
      ['timeout', '5', 'flag'],
      ['api_key', '****0042', 'env'],
    ]);
    expect(overridden.stdout + overridden.stderr).not.toContain(otherKey);
    expect(rows(await crm(['config', 'list', '--json'], { env: freshHome() }))).toEqual([
      ['base_url', null, 'default'],
      ['output', null, 'default'],
      ['timeout', null, 'default'],
      ['api_key', null, 'default'],
    ]);
    // The output setting now applies: a list prints JSON into the pipe.
    const list = await crm(['contacts', 'list', '--limit', '1'], { env: home });
    expect(json(list)).toHaveLength(1);
  });

  it('rejects unknown keys, bad values and the api_key (use auth login)', async () => {
    const home = await loggedIn();
    expect((await crm(['config', 'set', 'colour', 'x'], { env: home })).stderr.split('\n')[0]).toBe(
      'crm: unknown setting "colour" (expected one of: base_url, output, timeout, api_key)',
    );
    expect((await crm(['config', 'set', 'output', 'xml'], { env: home })).code).toBe(2);
    expect((await crm(['config', 'set', 'timeout', '-1'], { env: home })).code).toBe(2);
    const apiKey = await crm(['config', 'set', 'api_key', 'k'], { env: home });
    expect(apiKey.code).toBe(2);
    expect(apiKey.stderr).toBe('crm: api_key cannot be set here\nhint: run `crm auth login`\n');
    expect((await crm(['config', 'set', 'timeout', '3000000'], { env: home })).code).toBe(2);
  });

  it('unset removes a setting; a broken output setting never locks config out', async () => {
    const home = await loggedIn();
    expect((await crm(['config', 'set', 'output', 'json'], { env: home })).code).toBe(0);
    expect((await crm(['config', 'unset', 'output'], { env: home })).code).toBe(0);
    expect((await crm(['config', 'get', 'output'], { env: home })).stdout).toBe('');
    // Hand-edited to nonsense: every command refuses with exit 2 naming it, config still works.
    const config = JSON.parse(readFileSync(configFile(home), 'utf8'));
    config.profiles.default.output = 'xml';
    (await import('node:fs')).writeFileSync(configFile(home), JSON.stringify(config));
    const list = await crm(['contacts', 'list'], { env: home });
    expect(list.code).toBe(2);
    expect(list.stderr.split('\n')[0]).toBe('crm: invalid output setting of the profile (`crm config unset output`) "xml" (expected one of: table, json, ndjson, csv, tsv)');
    expect((await crm(['config', 'unset', 'output'], { env: home })).code).toBe(0);
    expect((await crm(['contacts', 'list', '--limit', '1'], { env: home })).code).toBe(0);
  });

  it('a configuration file of the wrong shape is exit 1 naming what is wrong, nothing sent; a BOM or an empty file is read', async () => {
    const home = await loggedIn();
    const good = readConfig(home);
    const write = (text: string) => writeFileSync(configFile(home), text);
    const profile = (fields: object) => JSON.stringify({ active_profile: 'default', profiles: { default: { ...good.profiles.default, ...fields } } });
    const path = configFile(home);
    const cases: Array<[string, string]> = [
      ['[]', `${path}: not a JSON object`],
      ['null', `${path}: not a JSON object`],
      [JSON.stringify({ profiles: [] }), `${path}: profiles is not an object`],
      [JSON.stringify({ active_profile: 'default', profiles: { default: 'https://crm.example.com' } }), `${path}: profile "default" is not an object`],
      [profile({ api_key: 12345 }), `${path}: profile "default": api_key is not a string`],
      [profile({ base_url: 5 }), `${path}: profile "default": base_url is not a string`],
      [JSON.stringify({ active_profile: 5, profiles: {} }), `${path}: active_profile is not a string`],
    ];
    for (const [text, message] of cases) {
      write(text);
      const before = server.requests().length;
      const result = await crm(['contacts', 'list', '--limit', '1'], { env: home });
      expect([result.code, result.stderr]).toEqual([1, `crm: ${message}\nhint: fix or delete the file, then run \`crm auth login\`\n`]);
      expect(server.requests()).toHaveLength(before);
    }
    write(`\uFEFF${JSON.stringify(good)}`);
    expect((await crm(['config', 'get', 'base_url'], { env: home })).stdout).toBe(`${server.url}\n`);
    write(profile({ timeout: 'abc' }));
    expect((await crm(['contacts', 'list'], { env: home })).stderr.split('\n')[0]).toBe('crm: invalid timeout setting of the profile (`crm config unset timeout`) "abc" (expected seconds, at least 0.001 and at most 86400)');
    write('');
    const empty = await crm(['profiles', 'list', '--json'], { env: home });
    expect([empty.code, json(empty)]).toEqual([0, [{ name: 'sandbox', active: true, base_url: 'sandbox (local)', key: 'local' }]]);
  });

  it('warns, once, when the stored key it sends is in a file other users can read or change (as ssh does), and not for CRM_API_KEY', async () => {
    const home = await loggedIn();
    const path = configFile(home);
    const dir = join(home.XDG_CONFIG_HOME!, 'crm');
    const warnings = async (env: NodeJS.ProcessEnv = home) => {
      const result = await crm(['contacts', 'list', '--limit', '1', '-q'], { env });
      expect(result.code).toBe(0);
      return result.stderr.split('\n').filter((line) => line.startsWith('crm: warning:'));
    };
    expect(await warnings()).toEqual([]);
    chmodSync(path, 0o644);
    expect(await warnings()).toEqual([`crm: warning: ${path} holds the API key and other users can read it (mode 0644); run \`chmod 600 ${path}\``]);
    expect(await warnings({ ...home, CRM_API_KEY: server.apiKey })).toEqual([]);
    chmodSync(path, 0o666);
    expect(await warnings()).toEqual([`crm: warning: ${path} holds the API key and other users can change it (mode 0666); run \`chmod 600 ${path}\``]);
    chmodSync(path, 0o600);
    chmodSync(dir, 0o777);
    expect(await warnings()).toEqual([`crm: warning: other users can replace ${path}, the file of the API key: its folder is writable by them (mode 0777); run \`chmod 700 ${dir}\``]);
    chmodSync(dir, 0o1777);
    expect(await warnings()).toEqual([]);
    // crm's own writes make both owner-only again.
    chmodSync(path, 0o644);
    chmodSync(dir, 0o777);
    expect((await crm(['config', 'set', 'output', 'json'], { env: home })).code).toBe(0);
    expect(await warnings()).toEqual([]);
  });

  it('refuses prototype names as profile names, and the config directory is owner-only', async () => {
    const home = await loggedIn();
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const result = await crm(['profiles', 'use', name], { env: home });
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`crm: invalid profile name "${name}"`);
      expect((await crm(['contacts', 'list', '--profile', name], { env: home })).code).toBe(2);
    }
    expect(statSync(join(home.XDG_CONFIG_HOME!, 'crm')).mode & 0o777).toBe(0o700);
  });

  it('CRM_OUTPUT and -o override the stored output setting', async () => {
    const home = await loggedIn();
    await crm(['config', 'set', 'output', 'json'], { env: home });
    const env = await crm(['contacts', 'list', '--limit', '1'], { env: { ...home, CRM_OUTPUT: 'ndjson' } });
    expect(env.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(env.stdout).id).toMatch(/^con_/);
    const flag = await crm(['contacts', 'list', '--limit', '1', '-o', 'tsv'], { env: { ...home, CRM_OUTPUT: 'ndjson' } });
    expect(flag.stdout.split('\t')[0]).toMatch(/^con_/);
  });
});
