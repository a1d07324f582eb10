// crm contacts ..., run in-process against the sandbox's handler (test/helpers/inprocess.ts).
import { describe, expect, it } from 'vitest';
import { json, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();

const newest = async () => (ws.api('GET', '/contacts?limit=1')).data.contacts[0];

describe('contacts list', () => {
  it('prints tab-separated rows without a header when piped', async () => {
    const result = await run(['contacts', 'list', '--limit', '3'], { ws });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]!.split('\t')[0]).toMatch(/^con_/);
    expect(lines[0]).toMatch(/\t\d{4}-\d{2}-\d{2}T/); // ISO times in a pipe
    expect(ws.requests()[0]!.url).toBe('/api/v1/contacts?limit=3');
  });

  it('prints a JSON array of records with --json', async () => {
    const result = await run(['contacts', 'list', '--limit', '2', '--json'], { ws });
    expect(result.code).toBe(0);
    const records = json(result);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ id: expect.stringMatching(/^con_/), name: expect.any(String), email: expect.any(String) });
    expect(Date.parse(records[0].created_at)).toBeGreaterThanOrEqual(Date.parse(records[1].created_at));
  });

  it('prints a table with a header row with -o table', async () => {
    const result = await run(['contacts', 'list', '--limit', '2', '-o', 'table'], { ws });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/ID\s+NAME\s+EMAIL\s+STATUS\s+SCORE\s+COMPANY\s+CREATED_AT/);
    expect(lines).toHaveLength(3);
    expect(result.stdout).not.toMatch(/\x1b\[/);
  });

  it('prints ndjson, csv, chosen --fields and ids only with -q', async () => {
    const ndjson = await run(['contacts', 'list', '--limit', '2', '-o', 'ndjson'], { ws });
    expect(ndjson.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toHaveLength(2);
    const csv = await run(['contacts', 'list', '--limit', '2', '-o', 'csv', '--fields', 'id,email'], { ws });
    expect(csv.stdout.split('\r\n')[0]).toBe('id,email');
    expect(csv.stdout.split('\r\n')).toHaveLength(4);
    const fields = await run(['contacts', 'list', '--limit', '1', '--json', '--fields', 'email,id'], { ws });
    expect(Object.keys(json(fields)[0])).toEqual(['email', 'id']);
    const quiet = await run(['contacts', 'list', '--limit', '2', '-q'], { ws });
    expect(quiet.stdout).toMatch(/^con_\w+\ncon_\w+\n$/);
  });

  it('-o csv of an empty list is its header row (the one a list with records has), not nothing', async () => {
    const some = await run(['contacts', 'list', '--limit', '1', '-o', 'csv'], { ws });
    const header = some.stdout.split('\r\n')[0]!;
    expect(header).toMatch(/^id,name,email,/);
    for (const argv of [['contacts', 'list', '--search', 'nobody-at-all', '-o', 'csv'], ['contacts', 'export', '--search', 'nobody-at-all']]) {
      const none = await run(argv, { ws });
      expect(none.code).toBe(0);
      expect(none.stdout).toBe(`${header}\r\n`);
    }
    const deals = await run(['deals', 'list', '--limit', '1', '-o', 'csv'], { ws });
    expect((await run(['deals', 'list', '--search', 'nobody-at-all', '-o', 'csv'], { ws })).stdout).toBe(`${deals.stdout.split('\r\n')[0]}\r\n`);
  });

  it('sends --search, --status, --list-id and --offset as query parameters', async () => {
    const result = await run(['contacts', 'list', '--search', 'globex', '--status', 'lead', '--list-id', 'list_x', '--offset', '5', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(ws.requests()[0]!.url).toBe('/api/v1/contacts?search=globex&status=lead&list_id=list_x&offset=5');
  });

  it('filters for real: --search finds a contact by company', async () => {
    const result = await run(['contacts', 'list', '--search', 'Globex', '--json'], { ws });
    const records = json(result);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(`${record.name} ${record.email} ${record.company}`.toLowerCase()).toContain('globex');
  });

  it('--all walks every page (50 at a time, each after the first starting on the last two records of the one before) and prints each contact once', async () => {
    const total = (ws.api('GET', '/contacts?limit=1')).data.total;
    const result = await run(['contacts', 'list', '--all', '-o', 'ndjson'], { ws });
    expect(result.code).toBe(0);
    const ids = result.stdout.trim().split('\n').map((line) => JSON.parse(line).id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    const pages = total < 50 ? 1 : Math.floor((total - 50) / 48) + 2;
    expect(ws.requests().map((request) => request.url)).toEqual(Array.from({ length: pages }, (_, page) => `/api/v1/contacts?limit=50&offset=${page * 48}`));
  });

  it.each([
    ['0', 'invalid --limit "0" (expected an integer >= 1)'],
    ['abc', 'invalid --limit "abc" (expected an integer >= 1)'],
    ['-5', 'invalid --limit "-5" (expected an integer >= 1)'],
  ])('rejects --limit %s with exit 2 and sends nothing', async (limit, message) => {
    const result = await run(['contacts', 'list', '--limit', limit], { ws });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`crm: ${message}\n`);
    expect(ws.requests()).toHaveLength(0);
  });

  it('--limit is a total, as in gh: -L 120 asks 50, 50, then 25 (from the last two records read, and one past the limit); no request asks for more than 50', async () => {
    for (let n = 0; n < 80; n++) ws.api('POST', '/contacts', { name: `Bulk ${n}`, email: `bulk-limit-${n}@example.com` });
    ws.log.length = 0;
    const result = await run(['contacts', 'list', '-L', '120', '-q'], { ws });
    expect(result.code).toBe(0);
    expect(new Set(result.stdout.trim().split('\n')).size).toBe(120);
    expect(ws.requests().map((request) => request.url)).toEqual([
      '/api/v1/contacts?limit=50&offset=0',
      '/api/v1/contacts?limit=50&offset=48',
      '/api/v1/contacts?limit=25&offset=96',
    ]);
  });

  it('--all and --limit together exit 2', async () => {
    const result = await run(['contacts', 'list', '--all', '--limit', '5'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: --all and --limit cannot be used together');
    expect(ws.requests()).toHaveLength(0);
  });

  it('rejects an unknown flag with exit 2 and sends nothing', async () => {
    const result = await run(['contacts', 'list', '--bogus'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("crm: unknown option '--bogus'");
    expect(ws.requests()).toHaveLength(0);
  });

  it('prints [] for an empty list and exits 0', async () => {
    const result = await run(['contacts', 'list', '--search', 'no-such-contact-anywhere', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[]\n');
  });
});

describe('contacts get, create, update, delete', () => {
  it('get prints one record: json object, tsv row, vertical table', async () => {
    const contact = await newest();
    const asJson = await run(['contacts', 'get', contact.id, '--json'], { ws });
    expect(json(asJson)).toEqual(contact);
    // In a pipe, one record is every field as key<TAB>value lines, as `gh ... view` prints it.
    const asTsv = await run(['contacts', 'get', contact.id], { ws });
    expect(asTsv.stdout.split('\n')[0]).toBe(`id\t${contact.id}`);
    expect(asTsv.stdout).toContain(`email\t${contact.email}\n`);
    expect(asTsv.stdout).toContain(`list_ids\t${JSON.stringify(contact.list_ids)}\n`);
    const asTable = await run(['contacts', 'get', contact.id, '-o', 'table'], { ws });
    expect(asTable.stdout).toMatch(new RegExp(`email\\s+${contact.email.replace(/[.]/g, '\\.')}`));
  });

  it('get of an unknown id exits 4 naming the id', async () => {
    const result = await run(['contacts', 'get', 'con_missing'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('crm: contact con_missing not found\n');
  });

  it('encodes ids into the path, and refuses before sending one that could name another path', async () => {
    const odd = await run(['contacts', 'get', 'con_é:1+2'], { ws });
    expect(odd.code).toBe(4);
    expect(ws.requests()[0]!.url).toBe('/api/v1/contacts/con_%C3%A9%3A1%2B2');
    const traversal = await run(['contacts', 'get', '../deals'], { ws });
    expect(traversal.code).toBe(2);
    expect(traversal.stderr).toBe('crm: invalid ID "../deals" (an id holds no "/")\n');
    expect(ws.requests()).toHaveLength(1);
  });

  it.each([
    [['contacts', 'notes', 'add', '-', '--body', 'B'], 'ID'],
    [['contacts', 'view', '-'], 'ID'],
    [['contacts', 'notes', 'list', '-'], 'ID'],
    [['ai', 'trigger', '-'], 'CONTACT_ID'],
    [['tasks', 'list', '--contact-id', '-'], '--contact-id'],
  ])('%j: - where one id is taken is exit 2, nothing sent (it was sent as the id "-")', async (argv, label) => {
    const result = await run(argv, { ws, stdin: 'con_ua7xr0zeyzwl2vbo\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`crm: invalid ${label} "-" (one id is taken here, not ids from stdin)\n`);
    expect(ws.requests()).toHaveLength(0);
  });

  it('create with flags sends the body and prints the created contact', async () => {
    const result = await run(['contacts', 'create', '--name', 'Grace Hopper', '--email', 'grace@navy.example', '--company', 'US Navy', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ id: expect.stringMatching(/^con_/), name: 'Grace Hopper', email: 'grace@navy.example', company: 'US Navy' });
    const [request] = ws.requests();
    expect(request!.method).toBe('POST');
    expect(JSON.parse(request!.body)).toEqual({ name: 'Grace Hopper', email: 'grace@navy.example', company: 'US Navy' });
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('create -q prints only the new id; tsv prints one row', async () => {
    const quiet = await run(['contacts', 'create', '--name', 'Q Person', '--email', 'q@example.com', '-q'], { ws });
    expect(quiet.stdout).toMatch(/^con_\w+\n$/);
    const tsv = await run(['contacts', 'create', '--name', 'T Person', '--email', 't@example.com'], { ws });
    expect(tsv.stdout).toMatch(/^id\tcon_\w+\nname\tT Person\nemail\tt@example.com\n/);
  });

  it('merges --data, then --set, then named flags (the most specific wins)', async () => {
    const result = await run(
      ['contacts', 'create', '--data', '{"name":"From Data","email":"data@example.com","company":"DataCo"}', '--set', 'company=SetCo', '--set', 'name=From Set', '--name', 'From Flag', '--dry-run', '--json'],
      { ws },
    );
    expect(result.code).toBe(0);
    expect(json(result)[0].body).toEqual({ name: 'From Flag', email: 'data@example.com', company: 'SetCo' });
    expect(ws.requests()).toHaveLength(0);
  });

  it('reads --data from a file and from stdin; required fields may come from it', async () => {
    const result = await run(['contacts', 'create', '--data', '-', '--json'], { ws, stdin: '{"name":"Stdin Person","email":"stdin@example.com"}' });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ name: 'Stdin Person' });
  });

  it.each([
    [['--name', 'No Email'], 'crm: missing required --email'],
    [[], 'crm: missing required --name, --email'],
    [['--name', 'X', '--email', 'not-an-email'], 'crm: --email: invalid email "not-an-email"'],
    [['--data', '{"name": "X",'], /^crm: invalid JSON in --data \(the argument\)/],
    [['--data', '[1,2]'], 'crm: --data must be a JSON object (the argument holds an array)'],
    [['--data', '@/no/such/file.json'], 'crm: cannot read --data file /no/such/file.json: no such file or directory'],
    [['--set', 'novalue', '--name', 'X', '--email', 'x@example.com'], 'crm: invalid --set "novalue" (expected key=value)'],
    [['--set', 'email=bad', '--name', 'X'], 'crm: email: invalid email "bad"'],
  ])('create %j fails with exit 2 and sends nothing', async (flags, message) => {
    const result = await run(['contacts', 'create', ...flags], { ws });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const firstLine = result.stderr.split('\n')[0];
    if (typeof message === 'string') expect(firstLine).toBe(message);
    else expect(firstLine).toMatch(message);
    expect(ws.requests()).toHaveLength(0);
  });

  it('a duplicate email is the service refusing: exit 1 with its message', async () => {
    const contact = await newest();
    const result = await run(['contacts', 'create', '--name', 'Dup', '--email', contact.email], { ws });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`crm: A contact with email ${contact.email} already exists\n`);
  });

  it('update sends only the changed fields with PATCH', async () => {
    const contact = await newest();
    const result = await run(['contacts', 'update', contact.id, '--company', 'Renamed Inc', '--set', 'status="customer"', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ id: contact.id, company: 'Renamed Inc', status: 'customer' });
    expect(ws.requests()[0]).toMatchObject({ method: 'PATCH', url: `/api/v1/contacts/${contact.id}` });
    expect(JSON.parse(ws.requests()[0]!.body)).toEqual({ company: 'Renamed Inc', status: 'customer' });
  });

  it('update with nothing to change exits 2 and sends nothing', async () => {
    const result = await run(['contacts', 'update', 'con_x'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: nothing to update');
    expect(ws.requests()).toHaveLength(0);
  });

  it('delete without --yes in a script exits 2 and deletes nothing', async () => {
    const contact = await newest();
    const result = await run(['contacts', 'delete', contact.id], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`crm: refusing to delete contact ${contact.id} without confirmation\nhint: pass --yes to confirm\n`);
    expect(ws.requests()).toHaveLength(0);
  });

  it('delete --yes soft-deletes: gone from get and list', async () => {
    const created = (ws.api('POST', '/contacts', { name: 'To Delete', email: 'delete-me@example.com' })).data;
    const result = await run(['contacts', 'rm', created.id, '--yes', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ id: created.id, deleted: true });
    expect(ws.requests()[0]).toMatchObject({ method: 'DELETE', url: `/api/v1/contacts/${created.id}` });
    expect((await run(['contacts', 'get', created.id], { ws })).code).toBe(4);
    const quietDelete = await run(['contacts', 'delete', created.id, '--yes'], { ws });
    expect(quietDelete.code).toBe(4);
  });
});

describe('contact notes, tasks and enrolment', () => {
  it('notes add and notes list', async () => {
    const contact = await newest();
    const added = await run(['contacts', 'notes', 'add', contact.id, '--body', 'Called; wants a demo.', '--json'], { ws });
    expect(added.code).toBe(0);
    expect(json(added)).toMatchObject({ contact_id: contact.id, body: 'Called; wants a demo.' });
    const listed = await run(['contacts', 'notes', 'list', contact.id, '--json'], { ws });
    expect(json(listed)[0]).toMatchObject({ body: 'Called; wants a demo.' });
    const table = await run(['contacts', 'notes', 'ls', contact.id, '-o', 'table'], { ws });
    expect(table.stdout).toMatch(/ID\s+BODY\s+CREATED_AT/);
  });

  it('notes add without --body in a script exits 2', async () => {
    const result = await run(['contacts', 'notes', 'add', 'con_x'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: missing required --body (or --body-file)');
    expect(ws.requests()).toHaveLength(0);
  });

  it('tasks add with a relative due date', async () => {
    const contact = await newest();
    const result = await run(['contacts', 'tasks', 'add', contact.id, '--title', 'Send proposal', '--due', '2099-01-31', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ contact_id: contact.id, title: 'Send proposal', due_date: '2099-01-31', status: 'open' });
    const bad = await run(['contacts', 'tasks', 'add', contact.id, '--title', 'X', '--due', 'someday'], { ws });
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('crm: invalid --due "someday" (expected YYYY-MM-DD, today, tomorrow, +Nd or +Nw)');
  });

  it('enroll --sequence', async () => {
    const contact = (ws.api('POST', '/contacts', { name: 'Enrol Me', email: 'enrol-me@example.com' })).data;
    const sequence = (ws.api('GET', '/sequences?status=active&limit=1')).data.sequences[0];
    const result = await run(['contacts', 'enroll', contact.id, '--sequence', sequence.id, '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ contact_id: contact.id, sequence_id: sequence.id, status: 'active' });
    expect(JSON.parse(ws.requests()[0]!.body)).toEqual({ sequence_id: sequence.id });
    // Enrolled already: nothing changes, said on stderr, exit 0.
    const again = await run(['contacts', 'enroll', contact.id, '--sequence', sequence.id], { ws });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`Contact ${contact.id} is already enrolled in sequence ${sequence.id}: nothing changed.\n`);
    const missing = await run(['contacts', 'enroll', contact.id], { ws });
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('crm: missing required --sequence');
  });

  it('enroll --sequence of a sequence that does not exist says the sequence was not found, not the contact', async () => {
    const contact = (ws.api('POST', '/contacts', { name: 'No Such Sequence', email: 'no-such-sequence@example.com' })).data;
    const result = await run(['contacts', 'enroll', contact.email, '--sequence', 'seq_doesnotexist'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`crm: Sequence not found (contact ${contact.id})\n`);
    const other = (ws.api('POST', '/contacts', { name: 'No Such Sequence Too', email: 'no-such-sequence-too@example.com' })).data;
    const several = await run(['contacts', 'enroll', contact.id, other.email, '--sequence', 'seq_doesnotexist', '--json'], { ws });
    expect(several.code).toBe(7);
    expect(json(several).map((row: any) => row.error)).toEqual([`Sequence not found (contact ${contact.id})`, `Sequence not found (contact ${other.id})`]);
  });
});
