// crm contacts ... spawned as a process against the sandbox served over loopback HTTP.
import { describe, expect, it } from 'vitest';
import { crm, json } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';

const live = useTestServer();

const newest = async () => (await api(live.server, 'GET', '/contacts?limit=1')).data.contacts[0];

describe('contacts list', () => {
  it('prints tab-separated rows without a header when piped', async () => {
    const result = await crm(['contacts', 'list', '--limit', '3'], { env: live.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]!.split('\t')[0]).toMatch(/^con_/);
    expect(lines[0]).toMatch(/\t\d{4}-\d{2}-\d{2}T/); // ISO times in a pipe
    expect(live.server.requests()[0]!.url).toBe('/api/v1/contacts?limit=3');
  });

  it('prints a JSON array of records with --json', async () => {
    const result = await crm(['contacts', 'list', '--limit', '2', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    const records = json(result);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ id: expect.stringMatching(/^con_/), name: expect.any(String), email: expect.any(String) });
    expect(Date.parse(records[0].created_at)).toBeGreaterThanOrEqual(Date.parse(records[1].created_at));
  });

  it('prints a table with a header row with -o table', async () => {
    const result = await crm(['contacts', 'list', '--limit', '2', '-o', 'table'], { env: live.env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/ID\s+NAME\s+EMAIL\s+COMPANY\s+STATUS\s+SCORE\s+CREATED_AT/);
    expect(lines).toHaveLength(3);
    expect(result.stdout).not.toMatch(/\x1b\[/);
  });

  it('prints ndjson, csv, chosen --fields and ids only with -q', async () => {
    const ndjson = await crm(['contacts', 'list', '--limit', '2', '-o', 'ndjson'], { env: live.env });
    expect(ndjson.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toHaveLength(2);
    const csv = await crm(['contacts', 'list', '--limit', '2', '-o', 'csv', '--fields', 'id,email'], { env: live.env });
    expect(csv.stdout.split('\r\n')[0]).toBe('id,email');
    expect(csv.stdout.split('\r\n')).toHaveLength(4);
    const fields = await crm(['contacts', 'list', '--limit', '1', '--json', '--fields', 'email,id'], { env: live.env });
    expect(Object.keys(json(fields)[0])).toEqual(['email', 'id']);
    const quiet = await crm(['contacts', 'list', '--limit', '2', '-q'], { env: live.env });
    expect(quiet.stdout).toMatch(/^con_\w+\ncon_\w+\n$/);
  });

  it('sends --search, --status, --list-id and --offset as query parameters', async () => {
    const result = await crm(['contacts', 'list', '--search', 'globex', '--status', 'lead', '--list-id', 'list_x', '--offset', '5', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(live.server.requests()[0]!.url).toBe('/api/v1/contacts?offset=5&search=globex&status=lead&list_id=list_x');
  });

  it('filters for real: --search finds a contact by company', async () => {
    const result = await crm(['contacts', 'list', '--search', 'Globex', '--json'], { env: live.env });
    const records = json(result);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(`${record.name} ${record.email} ${record.company}`.toLowerCase()).toContain('globex');
  });

  it('--all walks every page (50 at a time) and prints each contact once', async () => {
    const total = (await api(live.server, 'GET', '/contacts?limit=1')).data.total;
    const result = await crm(['contacts', 'list', '--all', '-o', 'ndjson'], { env: live.env });
    expect(result.code).toBe(0);
    const ids = result.stdout.trim().split('\n').map((line) => JSON.parse(line).id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(live.server.requests().map((request) => request.url)).toEqual(
      Array.from({ length: Math.max(1, Math.ceil(total / 50)) }, (_, page) => `/api/v1/contacts?limit=50&offset=${page * 50}`),
    );
  });

  it.each([
    ['0', 'invalid --limit "0" (expected an integer between 1 and 50)'],
    ['51', 'invalid --limit "51" (expected an integer between 1 and 50)'],
    ['abc', 'invalid --limit "abc" (expected an integer between 1 and 50)'],
  ])('rejects --limit %s with exit 2 and sends nothing', async (limit, message) => {
    const result = await crm(['contacts', 'list', '--limit', limit], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`crm: ${message}\n`);
    expect(live.server.requests()).toHaveLength(0);
  });

  it('rejects an unknown flag with exit 2 and sends nothing', async () => {
    const result = await crm(['contacts', 'list', '--bogus'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("crm: unknown option '--bogus'");
    expect(live.server.requests()).toHaveLength(0);
  });

  it('prints [] for an empty list and exits 0', async () => {
    const result = await crm(['contacts', 'list', '--search', 'no-such-contact-anywhere', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[]\n');
  });
});

describe('contacts get, create, update, delete', () => {
  it('get prints one record: json object, tsv row, vertical table', async () => {
    const contact = await newest();
    const asJson = await crm(['contacts', 'get', contact.id, '--json'], { env: live.env });
    expect(json(asJson)).toEqual(contact);
    const asTsv = await crm(['contacts', 'view', contact.id], { env: live.env });
    expect(asTsv.stdout.split('\t')[0]).toBe(contact.id);
    const asTable = await crm(['contacts', 'get', contact.id, '-o', 'table'], { env: live.env });
    expect(asTable.stdout).toMatch(new RegExp(`email\\s+${contact.email.replace(/[.]/g, '\\.')}`));
  });

  it('get of an unknown id exits 4 with the service message', async () => {
    const result = await crm(['contacts', 'get', 'con_missing'], { env: live.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('crm: Contact not found\n');
  });

  it('encodes ids into the path: an id cannot change which path is called', async () => {
    const result = await crm(['contacts', 'get', '../deals'], { env: live.env });
    expect(result.code).toBe(4);
    expect(live.server.requests()[0]!.url).toBe('/api/v1/contacts/..%2Fdeals');
  });

  it('create with flags sends the body and prints the created contact', async () => {
    const result = await crm(['contacts', 'create', '--name', 'Grace Hopper', '--email', 'grace@navy.example', '--company', 'US Navy', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ id: expect.stringMatching(/^con_/), name: 'Grace Hopper', email: 'grace@navy.example', company: 'US Navy' });
    const [request] = live.server.requests();
    expect(request!.method).toBe('POST');
    expect(JSON.parse(request!.body)).toEqual({ name: 'Grace Hopper', email: 'grace@navy.example', company: 'US Navy' });
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('create -q prints only the new id; tsv prints one row', async () => {
    const quiet = await crm(['contacts', 'create', '--name', 'Q Person', '--email', 'q@example.com', '-q'], { env: live.env });
    expect(quiet.stdout).toMatch(/^con_\w+\n$/);
    const tsv = await crm(['contacts', 'create', '--name', 'T Person', '--email', 't@example.com'], { env: live.env });
    expect(tsv.stdout.split('\t').slice(1, 3)).toEqual(['T Person', 't@example.com']);
  });

  it('merges --data, then --set, then named flags (the most specific wins)', async () => {
    const result = await crm(
      ['contacts', 'create', '--data', '{"name":"From Data","email":"data@example.com","company":"DataCo"}', '--set', 'company=SetCo', '--set', 'name=From Set', '--name', 'From Flag', '--dry-run', '--json'],
      { env: live.env },
    );
    expect(result.code).toBe(0);
    expect(json(result).body).toEqual({ name: 'From Flag', email: 'data@example.com', company: 'SetCo' });
    expect(live.server.requests()).toHaveLength(0);
  });

  it('reads --data from a file and from stdin; required fields may come from it', async () => {
    const result = await crm(['contacts', 'create', '--data', '-', '--json'], { env: live.env, input: '{"name":"Stdin Person","email":"stdin@example.com"}' });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ name: 'Stdin Person' });
  });

  it.each([
    [['--name', 'No Email'], 'crm: missing required --email'],
    [[], 'crm: missing required --name, --email'],
    [['--name', 'X', '--email', 'not-an-email'], 'crm: --email: invalid email "not-an-email"'],
    [['--data', '{"name": "X",'], /^crm: invalid JSON in --data \(the argument\)/],
    [['--data', '[1,2]'], 'crm: --data must be a JSON object (the argument holds an array)'],
    [['--data', '@/no/such/file.json'], 'crm: cannot read --data file /no/such/file.json: ENOENT'],
    [['--set', 'novalue', '--name', 'X', '--email', 'x@example.com'], 'crm: invalid --set "novalue" (expected key=value)'],
    [['--set', 'email=bad', '--name', 'X'], 'crm: email: invalid email "bad"'],
  ])('create %j fails with exit 2 and sends nothing', async (flags, message) => {
    const result = await crm(['contacts', 'create', ...flags], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const firstLine = result.stderr.split('\n')[0];
    if (typeof message === 'string') expect(firstLine).toBe(message);
    else expect(firstLine).toMatch(message);
    expect(live.server.requests()).toHaveLength(0);
  });

  it('a duplicate email is the service refusing: exit 1 with its message', async () => {
    const contact = await newest();
    const result = await crm(['contacts', 'create', '--name', 'Dup', '--email', contact.email], { env: live.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`crm: A contact with email ${contact.email} already exists\n`);
  });

  it('update sends only the changed fields with PATCH', async () => {
    const contact = await newest();
    const result = await crm(['contacts', 'update', contact.id, '--company', 'Renamed Inc', '--set', 'status="customer"', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ id: contact.id, company: 'Renamed Inc', status: 'customer' });
    expect(live.server.requests()[0]).toMatchObject({ method: 'PATCH', url: `/api/v1/contacts/${contact.id}` });
    expect(JSON.parse(live.server.requests()[0]!.body)).toEqual({ company: 'Renamed Inc', status: 'customer' });
  });

  it('update with nothing to change exits 2 and sends nothing', async () => {
    const result = await crm(['contacts', 'update', 'con_x'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: nothing to update');
    expect(live.server.requests()).toHaveLength(0);
  });

  it('delete without --yes in a script exits 2 and deletes nothing', async () => {
    const contact = await newest();
    const result = await crm(['contacts', 'delete', contact.id], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to delete without confirmation');
    expect(live.server.requests()).toHaveLength(0);
  });

  it('delete --yes soft-deletes: gone from get and list', async () => {
    const created = (await api(live.server, 'POST', '/contacts', { name: 'To Delete', email: 'delete-me@example.com' })).data;
    const result = await crm(['contacts', 'rm', created.id, '--yes', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ id: created.id, deleted: true });
    expect(live.server.requests()[0]).toMatchObject({ method: 'DELETE', url: `/api/v1/contacts/${created.id}` });
    expect((await crm(['contacts', 'get', created.id], { env: live.env })).code).toBe(4);
    const quietDelete = await crm(['contacts', 'delete', created.id, '--yes'], { env: live.env });
    expect(quietDelete.code).toBe(4);
  });
});

describe('contact notes, tasks and enrolment', () => {
  it('notes add and notes list', async () => {
    const contact = await newest();
    const added = await crm(['contacts', 'notes', 'add', contact.id, '--body', 'Called; wants a demo.', '--json'], { env: live.env });
    expect(added.code).toBe(0);
    expect(json(added)).toMatchObject({ contact_id: contact.id, body: 'Called; wants a demo.' });
    const listed = await crm(['contacts', 'notes', 'list', contact.id, '--json'], { env: live.env });
    expect(json(listed)[0]).toMatchObject({ body: 'Called; wants a demo.' });
    const table = await crm(['contacts', 'notes', 'ls', contact.id, '-o', 'table'], { env: live.env });
    expect(table.stdout).toMatch(/ID\s+BODY\s+CREATED_AT/);
  });

  it('notes add without --body in a script exits 2', async () => {
    const result = await crm(['contacts', 'notes', 'add', 'con_x'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: missing required --body');
    expect(live.server.requests()).toHaveLength(0);
  });

  it('tasks add with a relative due date', async () => {
    const contact = await newest();
    const result = await crm(['contacts', 'tasks', 'add', contact.id, '--title', 'Send proposal', '--due', '2099-01-31', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ contact_id: contact.id, title: 'Send proposal', due_date: '2099-01-31', status: 'open' });
    const bad = await crm(['contacts', 'tasks', 'add', contact.id, '--title', 'X', '--due', 'someday'], { env: live.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('crm: invalid --due "someday" (expected YYYY-MM-DD, today, tomorrow or +Nd)');
  });

  it('enroll --sequence', async () => {
    const contact = (await api(live.server, 'POST', '/contacts', { name: 'Enrol Me', email: 'enrol-me@example.com' })).data;
    const sequence = (await api(live.server, 'GET', '/sequences?status=active&limit=1')).data.sequences[0];
    const result = await crm(['contacts', 'enroll', contact.id, '--sequence', sequence.id, '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ contact_id: contact.id, sequence_id: sequence.id, status: 'active' });
    expect(JSON.parse(live.server.requests()[0]!.body)).toEqual({ sequence_id: sequence.id });
    const again = await crm(['contacts', 'enroll', contact.id, '--sequence', sequence.id], { env: live.env });
    expect(again.code).toBe(1);
    const missing = await crm(['contacts', 'enroll', contact.id], { env: live.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('crm: missing required --sequence');
  });
});
