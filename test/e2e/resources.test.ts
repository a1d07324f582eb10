// Accounts, deals, sequences, tasks, pipeline, search, analytics, AI and `crm api`, each spawned
// against the sandbox over loopback HTTP, in table and json modes, with their validation errors.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crm, json } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';

const live = useTestServer();

const tmpFile = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'crm-file-')), name);
  writeFileSync(path, text);
  return path;
};
const first = async (plural: string, query = '') => (await api(live.server, 'GET', `/${plural}?limit=1${query}`)).data[plural][0];

describe.each([
  ['accounts', ['--name', 'Initrode', '--domain', 'initrode.example', '--employees', '120'], { name: 'Initrode', domain: 'initrode.example', employees: 120 }, ['--industry', 'Logistics'], /ID\s+NAME\s+DOMAIN\s+INDUSTRY\s+EMPLOYEES/],
  ['deals', ['--name', 'Big Deal', '--amount', '25000.5', '--stage', 'proposal'], { name: 'Big Deal', amount: 25000.5, stage: 'proposal' }, ['--amount', '30000'], /ID\s+NAME\s+STAGE\s+AMOUNT\s+CURRENCY\s+STATUS/],
  ['sequences', ['--name', 'Onboarding', '--status', 'paused'], { name: 'Onboarding', status: 'paused' }, ['--description', 'Week one'], /ID\s+NAME\s+STATUS\s+ENROLLED_COUNT/],
  ['tasks', ['--title', 'Call back', '--due', '2099-03-01', '--priority', 'high'], { title: 'Call back', due_date: '2099-03-01', priority: 'high' }, ['--status', 'completed'], /ID\s+TITLE\s+STATUS\s+PRIORITY\s+DUE_DATE/],
] as const)('%s', (plural, createFlags, expected, updateFlags, header) => {
  it('list in json, table and tsv', async () => {
    const asJson = await crm([plural, 'list', '--limit', '3', '--json'], { env: live.env });
    expect(asJson.code).toBe(0);
    expect(json(asJson)).toHaveLength(3);
    const table = await crm([plural, 'ls', '--limit', '3', '-o', 'table'], { env: live.env });
    expect(table.stdout.split('\n')[0]).toMatch(header);
    const tsv = await crm([plural, 'list', '--limit', '3'], { env: live.env });
    expect(tsv.stdout.trim().split('\n')).toHaveLength(3);
    expect(live.server.requests().map((request) => request.url)).toEqual(Array(3).fill(`/api/v1/${plural}?limit=3`));
  });

  it('--all lists every record once', async () => {
    const total = (await api(live.server, 'GET', `/${plural}?limit=1`)).data.total;
    const result = await crm([plural, 'list', '--all', '-q'], { env: live.env });
    const ids = result.stdout.trim().split('\n');
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  it('create, get, update, delete', async () => {
    const created = await crm([plural, 'create', ...createFlags, '--json'], { env: live.env });
    expect(created.code).toBe(0);
    const record = json(created);
    expect(record).toMatchObject(expected);
    const got = await crm([plural, 'get', record.id, '-o', 'table'], { env: live.env });
    expect(got.stdout).toContain(record.id);
    const updated = await crm([plural, 'update', record.id, ...updateFlags, '--json'], { env: live.env });
    expect(updated.code).toBe(0);
    expect(live.server.requests(/PATCH/)).toHaveLength(1);
    const deleted = await crm([plural, 'delete', record.id, '--yes'], { env: live.env });
    expect(deleted.code).toBe(0);
    expect((await crm([plural, 'get', record.id], { env: live.env })).code).toBe(4);
  });

  it('create without its required field exits 2 and sends nothing', async () => {
    const result = await crm([plural, 'create'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: missing required --${plural === 'tasks' ? 'title' : 'name'}`);
    expect(live.server.requests()).toHaveLength(0);
  });

  it('delete in a script needs --yes', async () => {
    const result = await crm([plural, 'delete', 'x_1'], { env: live.env });
    expect(result.code).toBe(2);
    expect(live.server.requests()).toHaveLength(0);
  });
});

describe('typed fields are checked before sending', () => {
  it.each([
    [['accounts', 'create', '--name', 'A', '--employees', 'many'], 'crm: invalid --employees "many" (expected an integer >= 0)'],
    [['deals', 'create', '--name', 'D', '--amount', 'lots'], 'crm: invalid --amount "lots" (expected a number)'],
    [['deals', 'create', '--name', 'D', '--close-date', '31/12/2026'], 'crm: invalid --close-date "31/12/2026" (expected YYYY-MM-DD, today, tomorrow or +Nd)'],
    [['tasks', 'list', '--limit', '99'], 'crm: invalid --limit "99" (expected an integer between 1 and 50)'],
    [['tasks', 'list', '--all', '--limit', '5'], 'crm: --all and --limit cannot be used together'],
  ])('%j', async (args, message) => {
    const result = await crm(args, { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(message);
    expect(live.server.requests()).toHaveLength(0);
  });

  it('filters become query parameters', async () => {
    await crm(['tasks', 'list', '--overdue', '--status', 'open', '--contact-id', 'con_1'], { env: live.env });
    await crm(['deals', 'list', '--stage', 'proposal', '--account-id', 'acc_1'], { env: live.env });
    expect(live.server.requests().map((request) => request.url)).toEqual([
      '/api/v1/tasks?status=open&contact_id=con_1&overdue=true',
      '/api/v1/deals?stage=proposal&account_id=acc_1',
    ]);
  });
});

describe('deals stage', () => {
  it('moves the deal by stage name, sending the stage id, and prints the deal and the activity', async () => {
    const deal = await first('deals', '&stage=prospecting');
    const result = await crm(['deals', 'stage', deal.id, 'Qualification', '-o', 'table'], { env: live.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/stage\s+qualification/);
    expect(result.stdout).toMatch(/Activity logged: stage_change prospecting → qualification \(act_\w+\)/);
    expect(live.server.requests().map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/v1/pipeline/stages', `POST /api/v1/deals/${deal.id}/stage`]);
    expect(JSON.parse(live.server.requests()[1]!.body)).toEqual({ stage: 'qualification' });
    const after = (await api(live.server, 'GET', `/deals/${deal.id}`)).data;
    expect(after.activities[0]).toMatchObject({ type: 'stage_change', from_stage: 'prospecting', to_stage: 'qualification' });
  });

  it('--json prints the service data with the activity', async () => {
    const deal = await first('deals', '&stage=qualification');
    const result = await crm(['deals', 'stage', deal.id, 'proposal', '--json'], { env: live.env });
    expect(json(result)).toMatchObject({ id: deal.id, stage: 'proposal', activity: { from_stage: 'qualification', to_stage: 'proposal' } });
  });

  it('an unknown stage exits 2 listing the valid ones, and nothing moves', async () => {
    const deal = await first('deals');
    const result = await crm(['deals', 'stage', deal.id, 'won-ish'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('crm: unknown stage "won-ish" (valid stages: prospecting, qualification, proposal, negotiation, closed_won, closed_lost)\n');
    expect(live.server.requests().map((request) => request.method)).toEqual(['GET']);
  });

  it('no stage in a script exits 2', async () => {
    const result = await crm(['deals', 'stage', 'deal_1'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: missing STAGE');
    expect(live.server.requests(/POST/)).toHaveLength(0);
  });
});

describe('sequences enroll and contacts', () => {
  const someContacts = async (count: number) => (await api(live.server, 'GET', `/contacts?limit=${count}`)).data.contacts.map((c: { id: string }) => c.id);
  const newSequence = async () => (await api(live.server, 'POST', '/sequences', { name: `Seq ${Math.random()}` })).data.id;

  it('ids from arguments: one request, each contact reported', async () => {
    const [a, b] = await someContacts(2);
    const sequence = await newSequence();
    const result = await crm(['sequences', 'enroll', sequence, a, b, '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ sequence_id: sequence, enrolled: [a, b], already_enrolled: [], not_found: [], failed: [] });
    expect(JSON.parse(live.server.requests()[0]!.body)).toEqual({ contact_ids: [a, b] });
    const again = await crm(['sequences', 'enroll', sequence, a], { env: live.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${a}\talready_enrolled\t\n`);
  });

  it('ids from a file (one a line) and from stdin (a JSON array, or with -)', async () => {
    const ids = await someContacts(4);
    const sequence = await newSequence();
    const file = tmpFile('ids.txt', `${ids[0]}\n# a comment\n\n${ids[1]}\n`);
    const fromFile = await crm(['sequences', 'enroll', sequence, '--file', file, '-q'], { env: live.env });
    expect(fromFile.stdout).toBe(`${ids[0]}\n${ids[1]}\n`);
    const fromStdin = await crm(['sequences', 'enroll', sequence, '-q'], { env: live.env, input: JSON.stringify([ids[2]]) });
    expect(fromStdin.stdout).toBe(`${ids[2]}\n`);
    const dash = await crm(['sequences', 'enroll', sequence, '-', '-q'], { env: live.env, input: `${ids[3]}\n` });
    expect(dash.stdout).toBe(`${ids[3]}\n`);
  });

  it('a long list is split into requests of 50', async () => {
    const ids = (await api(live.server, 'GET', '/contacts?limit=50')).data.contacts.map((c: { id: string }) => c.id);
    const more = (await api(live.server, 'GET', '/contacts?limit=50&offset=50')).data.contacts.map((c: { id: string }) => c.id);
    const all = [...ids, ...more, 'con_missing_1'];
    const sequence = await newSequence();
    const result = await crm(['sequences', 'enroll', sequence, '--json'], { env: live.env, input: all.join('\n') });
    const bodies = live.server.requests(/POST/).map((request) => JSON.parse(request.body).contact_ids.length);
    expect(bodies).toEqual([50, Math.min(50, all.length - 50), ...(all.length > 100 ? [all.length - 100] : [])]);
    expect(result.code).toBe(7);
    expect(json(result).not_found).toEqual(['con_missing_1']);
    expect(json(result).enrolled).toHaveLength(all.length - 1);
    expect(result.stderr).toContain('1 of');
  });

  it('no ids at all exits 2; an unknown sequence exits 4', async () => {
    const none = await crm(['sequences', 'enroll', 'seq_1'], { env: live.env, input: '' });
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toBe('crm: no contact ids given');
    const [a] = await someContacts(1);
    const unknown = await crm(['sequences', 'enroll', 'seq_missing', a], { env: live.env });
    expect(unknown.code).toBe(4);
  });

  it('contacts ID lists the enrolled contacts', async () => {
    const [a] = await someContacts(1);
    const sequence = await newSequence();
    await api(live.server, 'POST', `/sequences/${sequence}/enroll`, { contact_ids: [a] });
    const result = await crm(['sequences', 'contacts', sequence, '--json'], { env: live.env });
    expect(json(result)).toEqual([expect.objectContaining({ id: a, enrollment_status: 'active' })]);
    const table = await crm(['sequences', 'contacts', sequence, '-o', 'table'], { env: live.env });
    expect(table.stdout.split('\n')[0]).toMatch(/ID\s+NAME\s+EMAIL\s+ENROLLMENT_STATUS\s+ENROLLED_AT/);
  });
});

describe('tasks complete', () => {
  it('completes several tasks, each reported', async () => {
    const one = (await api(live.server, 'POST', '/tasks', { title: 'One' })).data.id;
    const two = (await api(live.server, 'POST', '/tasks', { title: 'Two' })).data.id;
    const result = await crm(['tasks', 'complete', one, two, '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toEqual([
      { id: one, ok: true, record: expect.objectContaining({ id: one, status: 'completed' }) },
      { id: two, ok: true, record: expect.objectContaining({ id: two, status: 'completed' }) },
    ]);
    const table = await crm(['tasks', 'done', one, '-o', 'table'], { env: live.env });
    expect(table.stdout).toMatch(new RegExp(`${one}\\s+One\\s+completed`));
  });

  it('one unknown task alone exits 4; no ids exits 2', async () => {
    expect((await crm(['tasks', 'complete', 'task_missing'], { env: live.env })).code).toBe(4);
    expect((await crm(['tasks', 'complete'], { env: live.env })).code).toBe(2);
  });
});

describe('pipeline', () => {
  it('stages in json and table', async () => {
    const result = await crm(['pipeline', 'stages', '--json'], { env: live.env });
    expect(json(result).map((stage: { id: string }) => stage.id)).toEqual(['prospecting', 'qualification', 'proposal', 'negotiation', 'closed_won', 'closed_lost']);
    const table = await crm(['pipeline', 'stages', '-o', 'table'], { env: live.env });
    expect(table.stdout.split('\n')[0]).toMatch(/ID\s+NAME\s+POSITION\s+PROBABILITY/);
  });

  it('deals: count and total value per stage', async () => {
    const result = await crm(['pipeline', 'deals', '--json'], { env: live.env });
    const stages = json(result);
    expect(stages).toHaveLength(6);
    const deals = (await api(live.server, 'GET', '/deals?stage=proposal&limit=50')).data.deals;
    const proposal = stages.find((stage: { id: string }) => stage.id === 'proposal');
    expect(proposal.count).toBe(deals.length);
    expect(proposal.total_value).toBeCloseTo(deals.reduce((sum: number, deal: { amount: number }) => sum + deal.amount, 0));
    const table = await crm(['pipeline', 'deals', '-o', 'table'], { env: live.env });
    expect(table.stdout.split('\n')[0]).toMatch(/STAGE\s+DEALS\s+TOTAL_VALUE/);
    expect(table.stdout).not.toContain('█'); // no chart into a pipe
    expect(table.stdout).toMatch(/\d+ deals, total value [\d,.]+\n$/);
  });
});

describe('search', () => {
  it('flat records with a type field in json, honouring --types', async () => {
    const result = await crm(['search', 'globex', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    const types = new Set<string>(json(result).map((record: { type: string }) => record.type));
    expect([...types].every((type) => ['contact', 'deal', 'account', 'task'].includes(type))).toBe(true);
    expect(types.size).toBeGreaterThan(1);
    const deals = await crm(['search', 'globex', '--types', 'deals,accounts', '--json'], { env: live.env });
    expect(live.server.requests().at(-1)!.url).toBe('/api/v1/search?q=globex&types=deals%2Caccounts');
    expect(json(deals).every((record: { type: string }) => record.type === 'deal' || record.type === 'account')).toBe(true);
    const tsv = await crm(['search', 'globex', '--types', 'contacts'], { env: live.env });
    expect(tsv.stdout.split('\n')[0]!.split('\t')[0]).toBe('contact');
  });

  it('grouped by type in a table', async () => {
    const result = await crm(['search', 'globex', '-o', 'table'], { env: live.env });
    expect(result.stdout).toMatch(/CONTACTS \(\d+\)\n\s*ID\s+TITLE\s+SUBTITLE/);
  });

  it('bad --types or an empty query exit 2 and send nothing', async () => {
    const types = await crm(['search', 'x', '--types', 'contacts,people'], { env: live.env });
    expect(types.code).toBe(2);
    expect(types.stderr.split('\n')[0]).toBe('crm: invalid --types "contacts,people" (valid types: contacts, deals, accounts, tasks)');
    const empty = await crm(['search', '  '], { env: live.env });
    expect(empty.code).toBe(2);
    expect(live.server.requests()).toHaveLength(0);
  });
});

describe('analytics', () => {
  it('the service data as it is with --json; 30d by default', async () => {
    const result = await crm(['analytics', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(live.server.requests()[0]!.url).toBe('/api/v1/analytics?period=30d');
    const { from: _from, to: _to, ...rollups } = (await api(live.server, 'GET', '/analytics?period=30d')).data;
    expect(json(result)).toMatchObject({ ...rollups, from: expect.any(String), to: expect.any(String) });
  });

  it('a readable summary in a table; metric rows in tsv', async () => {
    const table = await crm(['analytics', '--period', '7d', '-o', 'table'], { env: live.env });
    expect(table.stdout).toMatch(/^Analytics for the last 7 days/);
    for (const section of ['Contacts', 'Deals', 'Emails', 'Tasks']) expect(table.stdout).toContain(`\n${section}\n`);
    expect(table.stdout).toMatch(/open rate\s+\d+(\.\d)?%/);
    const tsv = await crm(['analytics', '--period', '90d'], { env: live.env });
    expect(tsv.stdout).toMatch(/^period\t90d$/m);
    expect(tsv.stdout).toMatch(/^deals\.won_value\t[\d.]+$/m);
  });

  it('an unknown period exits 2 and sends nothing', async () => {
    const result = await crm(['analytics', '--period', '1y'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: invalid --period "1y" (expected one of: 7d, 30d, 90d)');
    expect(live.server.requests()).toHaveLength(0);
  });
});

describe('ai', () => {
  it('suggestions lists the pending ones', async () => {
    const result = await crm(['ai', 'suggestions', '--json'], { env: live.env });
    expect(json(result).length).toBeGreaterThan(0);
    expect(json(result).every((suggestion: { status: string }) => suggestion.status === 'pending')).toBe(true);
  });

  it('accept ID accepts; no ID in a script exits 2', async () => {
    const pending = (await api(live.server, 'GET', '/ai/suggestions?limit=1')).data.suggestions[0];
    const result = await crm(['ai', 'accept', pending.id, '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)[0]).toMatchObject({ id: pending.id, ok: true, record: { status: 'accepted' } });
    const again = await crm(['ai', 'accept', pending.id], { env: live.env });
    expect(again.code).toBe(1);
    const none = await crm(['ai', 'accept'], { env: live.env });
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toBe('crm: missing suggestion ids');
  });

  it('trigger prints the score, its reasons and the next best action', async () => {
    const contact = await first('contacts');
    const table = await crm(['ai', 'trigger', contact.id, '-o', 'table'], { env: live.env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^Contact ${contact.id} scored \\d+/100`));
    expect(table.stdout).toMatch(/Next best action: .+/);
    expect(JSON.parse(live.server.requests()[0]!.body)).toEqual({ contact_id: contact.id });
    const asJson = await crm(['ai', 'trigger', contact.id, '--json'], { env: live.env });
    expect(json(asJson)).toMatchObject({ contact_id: contact.id, score: expect.any(Number), next_best_action: expect.any(String) });
    expect((await crm(['ai', 'trigger', 'con_missing'], { env: live.env })).code).toBe(4);
  });

  it('contacts create --score scores the new contact at once', async () => {
    const result = await crm(['contacts', 'create', '--name', 'Scored', '--email', 'scored@example.com', '--score', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ name: 'Scored', score: expect.any(Number) });
    expect(live.server.requests().map((request) => `${request.method} ${request.url}`)).toEqual(['POST /api/v1/contacts', 'POST /api/v1/ai/trigger']);
  });
});

describe('crm api', () => {
  it('GET with -f fields as the query; prints the data', async () => {
    const result = await crm(['api', 'get', '/contacts', '-f', 'limit=2'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result).contacts).toHaveLength(2);
    expect(live.server.requests()[0]!.url).toBe('/api/v1/contacts?limit=2');
  });

  it('--raw prints the whole envelope', async () => {
    const result = await crm(['api', 'GET', 'contacts?limit=1', '--raw'], { env: live.env });
    expect(json(result)).toMatchObject({ data: { contacts: [expect.any(Object)], total: expect.any(Number) }, error: null });
  });

  it('POST with -F typed fields and -f strings; --input from a file', async () => {
    const result = await crm(['api', 'POST', '/deals', '-f', 'name=Api Deal', '-F', 'amount=1500', '-f', 'currency=EUR'], { env: live.env });
    expect(result.code).toBe(0);
    expect(JSON.parse(live.server.requests()[0]!.body)).toEqual({ name: 'Api Deal', amount: 1500, currency: 'EUR' });
    const file = tmpFile('body.json', JSON.stringify({ name: 'From File', email: 'from-file@example.com' }));
    const fromFile = await crm(['api', 'POST', '/contacts', '--input', file], { env: live.env });
    expect(json(fromFile)).toMatchObject({ name: 'From File' });
  });

  it('--paginate walks every page into one array', async () => {
    const total = (await api(live.server, 'GET', '/accounts?limit=1')).data.total;
    const result = await crm(['api', 'GET', '/accounts', '--paginate'], { env: live.env });
    expect(json(result)).toHaveLength(total);
  });

  it('maps errors to exit codes and validates before sending', async () => {
    expect((await crm(['api', 'GET', '/contacts/con_missing'], { env: live.env })).code).toBe(4);
    const method = await crm(['api', 'FETCH', '/contacts'], { env: live.env });
    expect(method.code).toBe(2);
    expect(method.stderr.split('\n')[0]).toBe('crm: invalid method "FETCH" (expected one of: GET, POST, PUT, PATCH, DELETE)');
    expect((await crm(['api', 'GET', 'https://elsewhere.example/x'], { env: live.env })).code).toBe(2);
    expect((await crm(['api', 'POST', '/contacts', '--input', '/no/file'], { env: live.env })).code).toBe(2);
    expect(live.server.requests().filter((request) => !request.url.includes('con_missing'))).toHaveLength(0);
  });
});
