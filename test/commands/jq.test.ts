// gh habits (issue 22, point 6): --jq with jq's own semantics on every command that prints data and
// on crm api, checked before anything is sent; --json id,email as --json --fields id,email.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { BASE_URL, homeEnv, json, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, ...extra });
const terminal = { stdout: true, stderr: true, columns: 80 };
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('--jq', () => {
  it('filters what --json prints: a list is one array; a string result prints as its text, anything else as one line of JSON', async () => {
    const emails = await run(['contacts', 'list', '-L', '3', '--jq', '.[].email'], { ws });
    expect(emails.code, emails.stderr).toBe(0);
    const records = json(await run(['contacts', 'list', '-L', '3', '--json'], { ws }));
    expect(emails.stdout).toBe(records.map((record: { email: string }) => `${record.email}\n`).join(''));

    const shaped = await run(['contacts', 'list', '-L', '3', '--jq', '(.[] | {id, n: (.name | length)}), length'], { ws });
    expect(lines(shaped.stdout)).toEqual([...records.map((record: { id: string; name: string }) => JSON.stringify({ id: record.id, n: record.name.length })), '3']);
  });

  it('has jq semantics, not a lookalike: paths, reduce, @tsv, group_by, string interpolation, try/catch', async () => {
    const result = await run(
      ['contacts', 'list', '-L', '5', '--jq', '(group_by(.status) | map({(.[0].status): length}) | add | keys[]), (.[0] | [.id, .email] | @tsv), "n=\\(length)", ([paths(type == "number")] | length >= 0), (try error("x") catch "caught"), (reduce .[] as $c (0; . + 1))'],
      { ws },
    );
    expect(result.code, result.stderr).toBe(0);
    const records = json(await run(['contacts', 'list', '-L', '5', '--json'], { ws }));
    const statuses = [...new Set(records.map((record: { status: string }) => record.status))].sort();
    expect(lines(result.stdout)).toEqual([...(statuses as string[]), `${records[0].id}\t${records[0].email}`, 'n=5', 'true', 'caught', '5']);
  });

  it('with --fields (or --json a,b), filters the records as those flags print them', async () => {
    for (const argv of [['--fields', 'id,email'], ['--json', 'id,email']]) {
      const result = await run(['contacts', 'list', '-L', '2', ...argv, '--jq', '.[0] | keys'], { ws });
      expect(result.stdout, argv.join(' ')).toBe('["email","id"]\n');
    }
  });

  it('filters one record, a done command\'s data, and crm api\'s answer', async () => {
    expect((await run(['contacts', 'get', DEMO.contact, '--jq', '.id'], { ws })).stdout).toBe(`${DEMO.contact}\n`);
    const created = ws.api('POST', '/tasks', { title: 'jq me' }).data;
    expect((await run(['tasks', 'delete', created.id, '--yes', '--jq', '.deleted'], { ws })).stdout).toBe('true\n');
    const api = await run(['api', 'GET', `/contacts/${DEMO.contact}`, '--jq', '.email'], { ws });
    expect(api.stdout).toBe(`${ws.api('GET', `/contacts/${DEMO.contact}`).data.email}\n`);
  });

  it('an invalid expression is exit 2 naming jq\'s complaint, before anything is sent, --dry-run included', async () => {
    for (const [expression, complaint] of [
      ['.[', 'syntax error, unexpected end of file (line 1, column 2)'],
      ['.[] | nosuchfunction(1)', 'nosuchfunction/1 is not defined (line 1, column 7)'],
      ['.id |\n  $undefined', '$undefined is not defined (line 2, column 3)'],
    ]) {
      for (const extra of [[], ['--dry-run']]) {
        const result = await run(['contacts', 'create', '--name', 'Jq', '--email', 'jq@example.com', '--jq', expression!, ...extra], { ws });
        expect(result.code, expression).toBe(2);
        expect(result.stderr).toContain(`crm: invalid --jq expression: ${complaint}\n`);
        expect(result.stdout).toBe('');
      }
    }
    expect(ws.requests()).toEqual([]);
  });

  it('an expression that is never run is still compiled whole: no part of it runs at the check', async () => {
    // jq would loop for ever on this input; the check compiles it, the run never reaches it.
    const result = await run(['contacts', 'list', '-L', '1', '--jq', 'if length > 0 then .[0].id else last(range(infinite)) end'], { ws });
    expect(result.stdout).toMatch(/^con_\w+\n$/);
  });

  it('a failure while filtering prints what came before it, then jq\'s message: exit 1', async () => {
    const result = await run(['contacts', 'list', '-L', '3', '--jq', '.[] | if .id == null then . else .email end, (.name | error)'], { ws });
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toHaveLength(1);
    expect(result.stderr).toMatch(/^crm: --jq: [A-Z]\w+ \w+\n$/);
  });

  it('with -o ndjson, a record the filter fails on ends the output there: exit 1 with jq\'s message alone, and the records after it in its batch are not printed', async () => {
    const records = json(await run(['contacts', 'list', '-L', '6', '--json'], { ws }));
    const failing = records[2].id;
    const result = await run(['contacts', 'list', '-L', '6', '-o', 'ndjson', '--jq', `if .id == "${failing}" then error("stop at \\(.id)") else .id end`], { ws });
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual(records.slice(0, 2).map((record: { id: string }) => record.id));
    expect(result.stderr).toBe(`crm: --jq: stop at ${failing}\n`);
  });

  it('with -o ndjson, an expression that reads the inputs after its own (input, inputs) or halts is given every record, not those of a batch', async () => {
    for (let at = 0; at < 230; at++) ws.api('POST', '/contacts', { name: `Counted ${at}`, email: `counted${at}@example.com` });
    const total = json(await run(['contacts', 'list', '--all', '--jq', 'length'], { ws }));
    expect(total).toBeGreaterThan(200);
    const counted = await run(['contacts', 'list', '--all', '-o', 'ndjson', '--jq', 'reduce inputs as $record (1; . + 1)'], { ws });
    expect(counted.code, counted.stderr).toBe(0);
    expect(counted.stdout).toBe(`${total}\n`);
    // Pairs across the 200th record; an odd count ends on jq's own failure, after every pair.
    const paired = await run(['contacts', 'list', '--all', '-o', 'ndjson', '--jq', '[., input] | length'], { ws });
    expect(lines(paired.stdout)).toHaveLength(Math.floor(total / 2));
    expect(paired.code).toBe(total % 2 === 0 ? 0 : 1);
    // halt stops every record after it, not only those of its batch.
    const third = json(await run(['contacts', 'list', '-L', '3', '--json'], { ws }))[2].id;
    const halted = await run(['contacts', 'list', '--all', '-o', 'ndjson', '--jq', `if .id == "${third}" then halt else .id end`], { ws });
    expect(halted.code, halted.stderr).toBe(0);
    expect(lines(halted.stdout)).toHaveLength(2);
  });

  it('cannot be used with another format or with -q (exit 2, nothing sent)', async () => {
    for (const [argv, message] of [
      [['-o', 'table'], '--jq filters JSON: it cannot be used with --output table'],
      [['-o', 'csv'], '--jq filters JSON: it cannot be used with --output csv'],
      [['-q'], '--jq and -q cannot be used together'],
      [['--json', '-o', 'ndjson'], '--json and --output ndjson ask for different formats'],
    ] as const) {
      const result = await run(['contacts', 'list', ...argv, '--jq', '.[].id'], { ws });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain(`crm: ${message}\n`);
    }
    expect((await run(['contacts', 'list', '--jq', ' '], { ws })).stderr).toContain('crm: --jq needs an expression\n');
    expect((await run(['contacts', 'export', '--format', 'csv', '--jq', '.id'], { ws })).stderr).toContain('crm: --format csv and --jq ask for different formats\n');
    expect(ws.requests()).toEqual([]);
  });

  it('the output setting of the profile and CRM_OUTPUT do not change what it filters', async () => {
    const result = await run(['contacts', 'list', '-L', '2', '--jq', 'length'], { ws, env: env({ CRM_OUTPUT: 'csv' }) });
    expect(result.stdout).toBe('2\n');
  });

  it('with -o ndjson each record is an input of its own, filtered while the walk goes on (not after it)', async () => {
    expect(lines((await run(['contacts', 'list', '-L', '3', '-o', 'ndjson', '--jq', 'keys | length'], { ws })).stdout)).toHaveLength(3);
    for (let at = 0; at < 260; at++) ws.api('POST', '/contacts', { name: `Walker ${at}`, email: `walker${at}@example.com` });
    // The walk fails on its sixth page: the records before it were filtered and printed already.
    ws.fault({ match: /offset=2[4-9]\d\b/, status: 400 });
    const streamed = await run(['contacts', 'list', '--all', '-o', 'ndjson', '--jq', '.id'], { ws });
    expect(streamed.code).toBe(1);
    expect(lines(streamed.stdout).length).toBeGreaterThanOrEqual(200);
    // With one array, nothing is printed before the whole list is read.
    ws.fault({ match: /offset=2[4-9]\d\b/, status: 400 });
    const whole = await run(['contacts', 'list', '--all', '--jq', '.[].id'], { ws });
    expect(whole.code).toBe(1);
    expect(whole.stdout).toBe('');
  });

  it('on a terminal: JSON results indented and coloured, strings from the service made safe', async () => {
    ws.fault({ match: /^GET/, status: 200, body: JSON.stringify({ data: { contacts: [{ id: 'con_x', name: 'Eve\u001b]0;owned\u0007 \u202eevil', email: 'eve@example.com' }], total: 1 }, error: null }) });
    const result = await run(['contacts', 'list', '--jq', '.[0].name, .[0]'], { ws, tty: terminal, env: env({ FORCE_COLOR: '1' }) });
    expect(result.stdout).not.toMatch(/\u0007|\u202e|\u001b\]/);
    expect(result.stdout.split('\n')[0]).toBe('Eve\ufffd]0;owned\ufffd \ufffdevil');
    expect(result.stdout).toContain('\u001b[1;34m"id"\u001b[0m: \u001b[32m"con_x"\u001b[0m');
    expect(result.stdout).toContain('{\n  ');
  });
});

describe('crm query --jq (the replica, issue 24)', () => {
  it('filters the rows: one array, or each row with -o ndjson; an invalid expression is exit 2 before --fresh syncs', async () => {
    const home = mkdtempSync(join(tmpdir(), 'crm-jq-query-'));
    const user = { ...homeEnv(home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey };
    expect((await run(['sync', 'contacts'], { ws, env: user })).code).toBe(0);
    const sql = 'SELECT id, status FROM contacts ORDER BY id LIMIT 4';
    const rows = json(await run(['query', sql, '--json'], { ws, env: user }));
    expect(rows).toHaveLength(4);

    const counted = await run(['query', sql, '--jq', 'group_by(.status) | map({(.[0].status): length}) | add'], { ws, env: user });
    expect(counted.code, counted.stderr).toBe(0);
    const expected: Record<string, number> = {};
    for (const row of rows as Array<{ status: string }>) expected[row.status] = (expected[row.status] ?? 0) + 1;
    expect(JSON.parse(counted.stdout)).toEqual(expected);
    const each = await run(['query', sql, '-o', 'ndjson', '--jq', '.id'], { ws, env: user });
    expect(lines(each.stdout)).toEqual(rows.map((row: { id: string }) => row.id));

    ws.log.length = 0;
    const invalid = await run(['query', sql, '--fresh', '--jq', '.[] | .id |'], { ws, env: user });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/^crm: invalid --jq expression: syntax error/);
    expect(ws.requests()).toEqual([]);
  });
});

describe('--json a,b (gh\'s field list)', () => {
  it('is --json --fields a,b', async () => {
    for (const argv of [['--json', 'id,email'], ['--json=id,email'], ['--json', 'email']]) {
      const result = await run(['contacts', 'list', '-L', '2', ...argv], { ws });
      expect(result.code, argv.join(' ')).toBe(0);
      const expected = argv.join(' ').includes('id') ? ['id', 'email'] : ['email'];
      expect(json(result).map((record: object) => Object.keys(record))).toEqual([expected, expected]);
    }
  });

  it('a word after --json that is an argument stays one: contacts get --json ID', async () => {
    const result = await run(['contacts', 'get', '--json', DEMO.contact], { ws });
    expect(json(result)).toMatchObject({ id: DEMO.contact });
    const named = await run(['contacts', 'get', DEMO.contact, '--json', 'name'], { ws });
    expect(Object.keys(json(named))).toEqual(['name']);
  });

  it('a command that takes many ids does not take the field list for one', async () => {
    const task = ws.api('POST', '/tasks', { title: 'fields' }).data;
    const result = await run(['tasks', 'complete', '--json', 'id,result', task.id], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toEqual([{ id: task.id, result: 'completed' }]);
    expect(ws.requests().map((request) => request.url)).toEqual([`/api/v1/tasks/${task.id}/complete`]);
  });

  it('with --fields too is exit 2, nothing sent; an unknown field is exit 2 naming the known ones', async () => {
    const both = await run(['contacts', 'list', '--json', 'id', '--fields', 'email'], { ws });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('crm: --json id and --fields both choose the fields\nhint: use one: --json --fields id\n');
    const unknown = await run(['contacts', 'list', '--json', 'id,nope'], { ws });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('crm: unknown field "nope" for contacts (fields: id, name, email');
    expect(ws.requests()).toEqual([]);
  });
});
