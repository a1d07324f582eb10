// What a person sees at a terminal: every list of the registry fits 60, 80 and 120 columns (no row
// wraps), and JSON is coloured on a terminal but never in a pipe or under NO_COLOR / --no-color.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { BASE_URL, homeEnv, run, useWorkspace } from '../helpers/inprocess.js';
import { LOCAL_COMMANDS, ENDPOINT_COMMANDS } from '../helpers/tree.js';

const ws = useWorkspace();
const ANSI = /\x1b\[[0-9;]*m/g;
const NOW = Date.parse('2026-11-23T12:00:00Z');

/** Arguments that make a list command list something in the seeded sandbox. */
const ARGUMENTS: Record<string, string[]> = {
  'contacts notes list': [DEMO.contact],
  'sequences contacts': [DEMO.sequence],
  search: ['globex'],
};

const lists = [...ENDPOINT_COMMANDS.filter((op) => op.kind === 'list').map((op) => op.command.join(' ')), ...LOCAL_COMMANDS.filter((local) => ['profiles list', 'config list'].includes(local.command.join(' '))).map((local) => local.command.join(' '))];

describe('tables at a terminal', () => {
  it('cover every list command of the registry', () => {
    expect(lists).toHaveLength(ENDPOINT_COMMANDS.filter((op) => op.kind === 'list').length + 2);
  });

  it.each(lists.flatMap((command) => [60, 80, 120].map((columns) => [command, columns] as const)))('%s fits %i columns', async (command, columns) => {
    const result = await run([...command.split(' '), ...(ARGUMENTS[command] ?? [])], { ws, tty: { stdout: true, stderr: true, columns }, now: NOW });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.replace(ANSI, '').trimEnd().split('\n');
    expect(lines.length, 'a header and rows').toBeGreaterThan(1);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
  });

  it('keeps ids whole and shows the most useful columns first at 80', async () => {
    const contacts = await run(['contacts', 'list', '-L', '3'], { ws, tty: { stdout: true, columns: 80 }, now: NOW });
    const [header, row] = contacts.stdout.replace(ANSI, '').split('\n');
    expect(header).toMatch(/^ID {2,}NAME {2,}EMAIL {2,}STATUS/);
    expect(row).toMatch(/^con_\w{16} /);
    // An email keeps enough of itself to be recognised (the issue saw `bruce@ex…`).
    const email = row!.slice(header!.indexOf('EMAIL'), header!.indexOf('STATUS')).trim();
    expect(email.length).toBeGreaterThanOrEqual(20);
    const suggestions = await run(['ai', 'suggestions', '-L', '3'], { ws, tty: { stdout: true, columns: 80 }, now: NOW });
    // The suggestion's text gets the room, not a second id.
    expect(suggestions.stdout.replace(ANSI, '').split('\n')[0]).toMatch(/^ID {2,}TITLE {2,}TYPE/);
  });
});

describe('JSON on a terminal', () => {
  const argv = ['contacts', 'get', DEMO.contact, '--json'];

  it('is coloured, and the same JSON once the colour is taken away', async () => {
    const piped = await run(argv, { ws });
    const terminal = await run(argv, { ws, tty: { stdout: true } });
    expect(terminal.stdout).toContain('\x1b[1;34m"id"\x1b[0m: \x1b[32m"con_');
    expect(terminal.stdout.replace(ANSI, '')).toBe(piped.stdout);
    expect(JSON.parse(piped.stdout).id).toBe(DEMO.contact);
    const list = await run(['contacts', 'list', '-L', '2', '--json'], { ws, tty: { stdout: true } });
    expect(JSON.parse(list.stdout.replace(ANSI, ''))).toHaveLength(2);
    expect(list.stdout).toContain('\x1b[1;34m"email"\x1b[0m');
  });

  it('is never coloured in a pipe (even with FORCE_COLOR), under NO_COLOR or with --no-color', async () => {
    for (const options of [{ env: { FORCE_COLOR: '1' } }, { tty: true, env: { NO_COLOR: '1' } }, { tty: true, argv: ['--no-color'] }] as Array<{ tty?: boolean; env?: NodeJS.ProcessEnv; argv?: string[] }>) {
      const result = await run([...argv, ...(options.argv ?? [])], { ws, tty: { stdout: Boolean(options.tty) }, env: { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, ...options.env } });
      expect(result.stdout, JSON.stringify(options)).not.toMatch(ANSI);
      expect(JSON.parse(result.stdout).id).toBe(DEMO.contact);
    }
  });

  it('escapes control characters from the service, C1 ones included', async () => {
    const created = ws.api('POST', '/contacts', { name: 'Evil\u009b31mName\u001b[2J', email: 'evil@example.com' });
    const result = await run(['contacts', 'get', created.data.id, '--json'], { ws, tty: { stdout: true } });
    const plain = result.stdout.replace(ANSI, '');
    expect(plain).toContain('"name": "Evil\\u009b31mName\\u001b[2J"');
    expect(JSON.parse(plain).name).toBe('Evil\u009b31mName\u001b[2J');
  });
});

describe('paging footers and one record in a pipe', () => {
  it('says honestly where a page sits, past the end and on the last page', async () => {
    const tty = { stdout: true, stderr: true, columns: 120 };
    const first = await run(['contacts', 'list', '-L', '20'], { ws, tty, now: NOW });
    expect(first.stderr).toMatch(/^Showing 1-20 of (\d+) contacts; more with --offset 20, or --all\.$/m);
    const total = Number(/of (\d+) contacts/.exec(first.stderr)![1]);
    const last = await run(['contacts', 'list', '--offset', String(total - 2)], { ws, tty, now: NOW });
    expect(last.stderr).toContain(`Showing ${total - 1}-${total} of ${total} contacts.\n`);
    const beyond = await run(['contacts', 'list', '--offset', '1000'], { ws, tty, now: NOW });
    expect(beyond.stdout).toBe('');
    expect(beyond.stderr).toContain(`No contacts at offset 1000 (${total} in all).`);
  });

  it('prints every field of one record as key<TAB>value lines: a record, auth status, sandbox status', async () => {
    const contact = await run(['contacts', 'get', DEMO.contact], { ws });
    const fields = Object.fromEntries(contact.stdout.trimEnd().split('\n').map((line) => line.split('\t')));
    expect(fields).toMatchObject({ id: DEMO.contact, phone: expect.any(String), title: expect.any(String), account_id: expect.stringMatching(/^acc_/) });
    expect((await run(['auth', 'status'], { ws })).stdout).toMatch(/^profile\t.*\nprofile_source\tdefault\nbase_url\t.*\nbase_url_source\tenv\nkey\t.*\nkey_source\tenv\nworks\ttrue\n$/);
    const home = { ...homeEnv(ws.home) };
    const sandbox = await run(['sandbox', 'status'], { env: home });
    await run(['contacts', 'list', '-L', '1'], { env: home });
    const counts = Object.fromEntries((await run(['sandbox', 'status'], { env: home })).stdout.trimEnd().split('\n').map((line) => line.split('\t')));
    expect(sandbox.code).toBe(0);
    expect(Object.keys(counts)).toEqual(['path', 'exists', 'sqlite', 'api_key', 'contacts', 'accounts', 'deals', 'sequences', 'tasks', 'notes', 'suggestions']);
  });
});
