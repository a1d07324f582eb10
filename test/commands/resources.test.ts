// Accounts, deals, sequences, tasks, pipeline, search, analytics, AI and `crm api`, each spawned
// against the sandbox over loopback HTTP, in table and json modes, with their validation errors.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { openDatabase } from '../../src/sqlite/database.js';
import { json, openWorkspace, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();

const tmpFile = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'crm-file-')), name);
  writeFileSync(path, text);
  return path;
};
const first = async (plural: string, query = '') => (ws.api('GET', `/${plural}?limit=1${query}`)).data[plural][0];

describe.each([
  ['accounts', ['--name', 'Initrode', '--domain', 'initrode.example', '--employees', '120'], { name: 'Initrode', domain: 'initrode.example', employees: 120 }, ['--industry', 'Logistics'], /ID\s+NAME\s+DOMAIN\s+INDUSTRY\s+EMPLOYEES/],
  ['deals', ['--name', 'Big Deal', '--amount', '25000.5', '--stage', 'proposal'], { name: 'Big Deal', amount: 25000.5, stage: 'proposal' }, ['--amount', '30000'], /ID\s+NAME\s+AMOUNT\s+STAGE\s+STATUS\s+CLOSE_DATE\s+CURRENCY/],
  ['sequences', ['--name', 'Onboarding', '--status', 'paused'], { name: 'Onboarding', status: 'paused' }, ['--description', 'Week one'], /ID\s+NAME\s+STATUS\s+ENROLLED_COUNT/],
  ['tasks', ['--title', 'Call back', '--due', '2099-03-01', '--priority', 'high'], { title: 'Call back', due_date: '2099-03-01', priority: 'high' }, ['--status', 'completed'], /ID\s+TITLE\s+DUE_DATE\s+STATUS\s+PRIORITY/],
] as const)('%s', (plural, createFlags, expected, updateFlags, header) => {
  it('list in json, table and tsv', async () => {
    const asJson = await run([plural, 'list', '--limit', '3', '--json'], { ws });
    expect(asJson.code).toBe(0);
    expect(json(asJson)).toHaveLength(3);
    const table = await run([plural, 'ls', '--limit', '3', '-o', 'table'], { ws });
    expect(table.stdout.split('\n')[0]).toMatch(header);
    const tsv = await run([plural, 'list', '--limit', '3'], { ws });
    expect(tsv.stdout.trim().split('\n')).toHaveLength(3);
    expect(ws.requests().map((request) => request.url)).toEqual(Array(3).fill(`/api/v1/${plural}?limit=3`));
  });

  it('--all lists every record once', async () => {
    const total = (ws.api('GET', `/${plural}?limit=1`)).data.total;
    const result = await run([plural, 'list', '--all', '-q'], { ws });
    const ids = result.stdout.trim().split('\n');
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  it('create, get, update, delete', async () => {
    const created = await run([plural, 'create', ...createFlags, '--json'], { ws });
    expect(created.code).toBe(0);
    const record = json(created);
    expect(record).toMatchObject(expected);
    const got = await run([plural, 'get', record.id, '-o', 'table'], { ws });
    expect(got.stdout).toContain(record.id);
    const updated = await run([plural, 'update', record.id, ...updateFlags, '--json'], { ws });
    expect(updated.code).toBe(0);
    expect(ws.requests(/PATCH/)).toHaveLength(1);
    const deleted = await run([plural, 'delete', record.id, '--yes'], { ws });
    expect(deleted.code).toBe(0);
    expect((await run([plural, 'get', record.id], { ws })).code).toBe(4);
  });

  it('create without its required field exits 2 and sends nothing', async () => {
    const result = await run([plural, 'create'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: missing required --${plural === 'tasks' ? 'title' : 'name'}`);
    expect(ws.requests()).toHaveLength(0);
  });

  it('delete in a script needs --yes', async () => {
    const result = await run([plural, 'delete', 'x_1'], { ws });
    expect(result.code).toBe(2);
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('typed fields are checked before sending', () => {
  it.each([
    [['accounts', 'create', '--name', 'A', '--employees', 'many'], 'crm: invalid --employees "many" (expected an integer >= 0)'],
    [['deals', 'create', '--name', 'D', '--amount', 'lots'], 'crm: invalid --amount "lots" (expected a number >= 0)'],
    [['deals', 'create', '--name', 'D', '--close-date', '31/12/2026'], 'crm: invalid --close-date "31/12/2026" (expected YYYY-MM-DD, today, tomorrow, +Nd or +Nw)'],
    [['tasks', 'list', '--limit', '1.5'], 'crm: invalid --limit "1.5" (expected an integer >= 1)'],
    [['tasks', 'list', '--overdue', 'yes'], 'crm: too many arguments for \'list\'. Expected 0 arguments but got 1.'],
    [['deals', 'create', '--name', 'D', '--amount', '-5'], 'crm: invalid --amount "-5" (expected a number >= 0)'],
    [['deals', 'list', '--offset', '-1'], 'crm: invalid --offset "-1" (expected an integer >= 0)'],
    [['contacts', 'get', 'a\u0007b'], 'crm: invalid ID (it holds a control character)'],
    [['tasks', 'list', '--all', '--limit', '5'], 'crm: --all and --limit cannot be used together'],
  ])('%j', async (args, message) => {
    const result = await run(args, { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(message);
    expect(ws.requests()).toHaveLength(0);
  });

  it('filters become query parameters', async () => {
    await run(['tasks', 'list', '--overdue', '--status', 'open', '--contact-id', 'con_1'], { ws });
    await run(['deals', 'list', '--stage', 'proposal', '--account-id', 'acc_1'], { ws });
    expect(ws.requests().map((request) => request.url)).toEqual([
      '/api/v1/tasks?status=open&contact_id=con_1&overdue=true',
      '/api/v1/deals?stage=proposal&account_id=acc_1',
    ]);
  });
});

describe('deals stage', () => {
  it('moves the deal by stage name, sending the stage id, and prints the deal and the activity', async () => {
    const deal = await first('deals', '&stage=prospecting');
    const result = await run(['deals', 'stage', deal.id, 'Qualification', '-o', 'table'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/stage\s+qualification/);
    expect(result.stdout).toMatch(/Activity logged: stage_change prospecting → qualification \(act_\w+\)/);
    expect(ws.requests().map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/v1/pipeline/stages?limit=50&offset=0', `POST /api/v1/deals/${deal.id}/stage`]);
    expect(JSON.parse(ws.requests()[1]!.body)).toEqual({ stage: 'qualification' });
    const after = (ws.api('GET', `/deals/${deal.id}`)).data;
    expect(after.activities[0]).toMatchObject({ type: 'stage_change', from_stage: 'prospecting', to_stage: 'qualification' });
  });

  it('finds a stage past the first page of the pipeline (a workspace of 30 stages): the first page alone (20) made it unknown, exit 2', async () => {
    const wide = await openWorkspace();
    try {
      const db = openDatabase(join(wide.home, 'sandbox.db'));
      try {
        for (let n = 1; n <= 24; n++) db.prepare('INSERT INTO stages (id, name, position, probability, is_closed, is_won) VALUES (?, ?, ?, 50, 0, 0)').run(`extra_${n}`, `Extra ${n}`, 100 + n);
      } finally {
        db.close();
      }
      const deal = wide.api('GET', '/deals?limit=1').data.deals[0];
      const result = await run(['deals', 'stage', deal.id, 'Extra 24', '--json'], { ws: wide });
      expect(result.code, result.stderr).toBe(0);
      expect(wide.api('GET', `/deals/${deal.id}`).data.stage).toBe('extra_24');
    } finally {
      wide.close();
    }
  });

  it('--json prints the service data with the activity', async () => {
    const deal = await first('deals', '&stage=qualification');
    const result = await run(['deals', 'stage', deal.id, 'proposal', '--json'], { ws });
    expect(json(result)).toMatchObject({ id: deal.id, stage: 'proposal', activity: { from_stage: 'qualification', to_stage: 'proposal' } });
  });

  it('an unknown stage exits 2 listing the valid ones, and nothing moves', async () => {
    const deal = await first('deals');
    const result = await run(['deals', 'stage', deal.id, 'won-ish'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('crm: unknown stage "won-ish" (valid stages: prospecting, qualification, proposal, negotiation, closed_won, closed_lost)\n');
    expect(ws.requests().map((request) => request.method)).toEqual(['GET']);
  });

  it('no stage in a script exits 2', async () => {
    const result = await run(['deals', 'stage', 'deal_1'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: missing STAGE');
    expect(ws.requests(/POST/)).toHaveLength(0);
  });
});

describe('sequences enroll and contacts', () => {
  const someContacts = async (count: number) => (ws.api('GET', `/contacts?limit=${count}`)).data.contacts.map((c: { id: string }) => c.id);
  const newSequence = async () => (ws.api('POST', '/sequences', { name: `Seq ${Math.random()}` })).data.id;

  it('ids from arguments: one request, each contact reported', async () => {
    const [a, b] = await someContacts(2);
    const sequence = await newSequence();
    const result = await run(['sequences', 'enroll', sequence, a, b, '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toEqual([
      { id: a, ok: true, result: 'enrolled', error: null, record: null },
      { id: b, ok: true, result: 'enrolled', error: null, record: null },
    ]);
    expect(JSON.parse(ws.requests()[0]!.body)).toEqual({ contact_ids: [a, b] });
    const again = await run(['sequences', 'enroll', sequence, a], { ws, tty: { stderr: true } });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${a}\talready_enrolled\t\n`);
    expect(again.stderr).toBe('1 already enrolled\n');
  });

  it('ids from a file (one a line) and from stdin (a JSON array, or with -)', async () => {
    const ids = await someContacts(4);
    const sequence = await newSequence();
    const file = tmpFile('ids.txt', `${ids[0]}\n# a comment\n\n${ids[1]}\n`);
    const fromFile = await run(['sequences', 'enroll', sequence, '--file', file, '-q'], { ws });
    expect(fromFile.stdout).toBe(`${ids[0]}\n${ids[1]}\n`);
    const fromStdin = await run(['sequences', 'enroll', sequence, '-q'], { ws, stdin: JSON.stringify([ids[2]]) });
    expect(fromStdin.stdout).toBe(`${ids[2]}\n`);
    const dash = await run(['sequences', 'enroll', sequence, '-', '-q'], { ws, stdin: `${ids[3]}\n` });
    expect(dash.stdout).toBe(`${ids[3]}\n`);
  });

  it('a long list is split into requests of 50', async () => {
    const ids = (ws.api('GET', '/contacts?limit=50')).data.contacts.map((c: { id: string }) => c.id);
    const more = (ws.api('GET', '/contacts?limit=50&offset=50')).data.contacts.map((c: { id: string }) => c.id);
    const all = [...ids, ...more, 'con_missing_1'];
    const sequence = await newSequence();
    const result = await run(['sequences', 'enroll', sequence, '--json'], { ws, stdin: all.join('\n') });
    const bodies = ws.requests(/POST/).map((request) => JSON.parse(request.body).contact_ids.length);
    expect(bodies).toEqual([50, Math.min(50, all.length - 50), ...(all.length > 100 ? [all.length - 100] : [])]);
    expect(result.code).toBe(7);
    const rows = json(result);
    expect(rows.filter((row: { result: string }) => row.result === 'not_found').map((row: { id: string }) => row.id)).toEqual(['con_missing_1']);
    expect(rows.filter((row: { result: string }) => row.result === 'enrolled')).toHaveLength(all.length - 1);
    expect(result.stderr.split('\n')[0]).toBe(`crm: 1 of ${all.length} failed: con_missing_1`);
  });

  it('no ids at all exits 2; an unknown sequence exits 4', async () => {
    const none = await run(['sequences', 'enroll', 'seq_1'], { ws, stdin: '' });
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toBe('crm: no contact ids or emails given');
    const [a] = await someContacts(1);
    const unknown = await run(['sequences', 'enroll', 'seq_missing', a], { ws });
    expect(unknown.code).toBe(4);
  });

  it('the report\'s failure names the one reason every contact failed for, never one of several (an email not found stood for an archived sequence)', async () => {
    const [a, b] = await someContacts(2);
    const archived = ws.api('POST', '/sequences', { name: `Archived ${Math.random()}`, status: 'archived' }).data.id;
    const mixed = await run(['sequences', 'enroll', archived, 'nobody.at.all@example.com', a, b], { ws });
    expect(mixed.code).toBe(7);
    expect(mixed.stderr.split('\n')[0]).toBe(`crm: 3 of 3 failed: nobody.at.all@example.com, ${a}, ${b}`);
    const twoMissing = await run(['sequences', 'enroll', (await newSequence()), 'nobody.one@example.com', 'nobody.two@example.com'], { ws });
    expect(twoMissing.code).toBe(7);
    expect(twoMissing.stderr.split('\n')[0]).toBe('crm: 2 of 2 failed: nobody.one@example.com, nobody.two@example.com');
    // One reason for all (an unknown sequence, one batch): that reason, with its own code.
    const unknown = await run(['sequences', 'enroll', 'seq_missing', a, b], { ws });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr.split('\n')[0]).toMatch(/^crm: .*seq_missing/);
  });

  it('contacts ID lists the enrolled contacts', async () => {
    const [a] = await someContacts(1);
    const sequence = await newSequence();
    ws.api('POST', `/sequences/${sequence}/enroll`, { contact_ids: [a] });
    const result = await run(['sequences', 'contacts', sequence, '--json'], { ws });
    expect(json(result)).toEqual([expect.objectContaining({ id: a, enrollment_status: 'active' })]);
    const table = await run(['sequences', 'contacts', sequence, '-o', 'table'], { ws });
    expect(table.stdout.split('\n')[0]).toMatch(/ID\s+NAME\s+EMAIL\s+ENROLLMENT_STATUS\s+ENROLLED_AT/);
  });
});

describe('tasks complete', () => {
  it('completes several tasks, each reported', async () => {
    const one = (ws.api('POST', '/tasks', { title: 'One' })).data.id;
    const two = (ws.api('POST', '/tasks', { title: 'Two' })).data.id;
    const result = await run(['tasks', 'complete', one, two, '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toEqual([
      { id: one, ok: true, result: 'completed', error: null, record: expect.objectContaining({ id: one, status: 'completed' }) },
      { id: two, ok: true, result: 'completed', error: null, record: expect.objectContaining({ id: two, status: 'completed' }) },
    ]);
    const table = await run(['tasks', 'done', one, '-o', 'table'], { ws });
    expect(table.stdout).toMatch(new RegExp(`${one}\\s+completed\\s+One`));
    const some = await run(['tasks', 'complete', one, 'task_missing', '--json'], { ws });
    expect(some.code).toBe(7);
    expect(json(some)[1]).toEqual({ id: 'task_missing', ok: false, result: 'not_found', error: 'task task_missing not found', record: null });
  });

  it('one unknown task alone exits 4 naming it, as every command of one id does (the service said only "Task not found"); no ids exits 2', async () => {
    const missing = await run(['tasks', 'complete', 'task_missing'], { ws });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe('crm: task task_missing not found\n');
    const suggestion = await run(['ai', 'accept', 'sug_missing'], { ws });
    expect(suggestion.code).toBe(4);
    expect(suggestion.stderr).toBe('crm: suggestion sug_missing not found\n');
    expect((await run(['tasks', 'complete'], { ws })).code).toBe(2);
  });
});

describe('an id of another kind (a deal id given to contacts view)', () => {
  it('is not found, exit 4, naming the record asked for, with a hint naming the kind its prefix says; a list of a record\'s (notes, a sequence\'s contacts) names it too', async () => {
    for (const [argv, noun, kind] of [
      [['contacts', 'view', DEMO.deal], 'contact', "a deal's"],
      [['contacts', 'get', DEMO.deal], 'contact', "a deal's"],
      [['accounts', 'view', DEMO.contact], 'account', "a contact's"],
      [['deals', 'stage', DEMO.contact, 'negotiation'], 'deal', "a contact's"],
      [['tasks', 'complete', DEMO.contact], 'task', "a contact's"],
      [['contacts', 'notes', 'list', DEMO.deal], 'contact', "a deal's"],
      [['contacts', 'notes', 'list', DEMO.deal, '--all'], 'contact', "a deal's"],
      [['sequences', 'contacts', DEMO.task], 'sequence', "a task's"],
    ] as const) {
      const id = argv.find((arg) => arg.includes('_'))!;
      const result = await run([...argv], { ws });
      expect(result.code, argv.join(' ')).toBe(4);
      const article = /^[aeiou]/.test(noun) ? 'an' : 'a';
      expect(result.stderr, argv.join(' ')).toBe(`crm: ${noun} ${id} not found\nhint: ${id} looks like ${kind} id, not ${article} ${noun}'s\n`);
    }
  });

  it('an unknown id whose prefix names no other kind, or its own, gets no hint', async () => {
    for (const id of ['con_missing', 'zzz_missing', 'c_1', '12345']) {
      const result = await run(['contacts', 'get', id], { ws });
      expect(result.code, id).toBe(4);
      expect(result.stderr, id).toBe(`crm: contact ${id} not found\n`);
    }
  });
});

describe('pipeline', () => {
  it('stages in json and table', async () => {
    const result = await run(['pipeline', 'stages', '--json'], { ws });
    expect(json(result).map((stage: { id: string }) => stage.id)).toEqual(['prospecting', 'qualification', 'proposal', 'negotiation', 'closed_won', 'closed_lost']);
    const table = await run(['pipeline', 'stages', '-o', 'table'], { ws });
    expect(table.stdout.split('\n')[0]).toMatch(/ID\s+NAME\s+POSITION\s+PROBABILITY/);
  });

  it('deals: count and total value per stage', async () => {
    const result = await run(['pipeline', 'deals', '--json'], { ws });
    const stages = json(result);
    expect(stages).toHaveLength(6);
    const deals = (ws.api('GET', '/deals?stage=proposal&limit=50')).data.deals;
    const proposal = stages.find((stage: { id: string }) => stage.id === 'proposal');
    expect(proposal.count).toBe(deals.length);
    expect(proposal.total_value).toBeCloseTo(deals.reduce((sum: number, deal: { amount: number }) => sum + deal.amount, 0));
    const table = await run(['pipeline', 'deals', '-o', 'table'], { ws });
    expect(table.stdout.split('\n')[0]).toMatch(/NAME\s+COUNT\s+TOTAL_VALUE/);
    expect(table.stdout).not.toContain('█'); // no chart into a pipe
    expect(table.stdout).toMatch(/\d+ deals, total value [\d,.]+\n$/);
  });
});

describe('search', () => {
  it('flat records with a type field in json, honouring --types', async () => {
    const result = await run(['search', 'globex', '--json'], { ws });
    expect(result.code).toBe(0);
    const types = new Set<string>(json(result).map((record: { type: string }) => record.type));
    expect([...types].every((type) => ['contact', 'deal', 'account', 'task'].includes(type))).toBe(true);
    expect(types.size).toBeGreaterThan(1);
    const deals = await run(['search', 'globex', '--types', 'deals,accounts', '--json'], { ws });
    expect(ws.requests().at(-1)!.url).toBe('/api/v1/search?q=globex&types=deals%2Caccounts');
    expect(json(deals).every((record: { type: string }) => record.type === 'deal' || record.type === 'account')).toBe(true);
    const tsv = await run(['search', 'globex', '--types', 'contacts'], { ws });
    expect(tsv.stdout.split('\n')[0]!.split('\t')[0]).toBe('contact');
  });

  it('grouped by type in a table', async () => {
    const result = await run(['search', 'globex', '-o', 'table'], { ws });
    expect(result.stdout).toMatch(/CONTACTS \(\d+\)\n\s*ID\s+TITLE\s+SUBTITLE/);
  });

  it('bad --types or an empty query exit 2 and send nothing', async () => {
    const types = await run(['search', 'x', '--types', 'contacts,people'], { ws });
    expect(types.code).toBe(2);
    expect(types.stderr.split('\n')[0]).toBe('crm: invalid --types "people" (expected one of: contacts, deals, accounts, tasks)');
    const empty = await run(['search', '  '], { ws });
    expect(empty.code).toBe(2);
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('analytics', () => {
  it('the service data as it is with --json; 30d by default', async () => {
    const result = await run(['analytics', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(ws.requests()[0]!.url).toBe('/api/v1/analytics?period=30d');
    const { from: _from, to: _to, ...rollups } = (ws.api('GET', '/analytics?period=30d')).data;
    expect(json(result)).toMatchObject({ ...rollups, from: expect.any(String), to: expect.any(String) });
  });

  it('a readable summary in a table; metric rows in tsv', async () => {
    const table = await run(['analytics', '--period', '7d'], { ws, tty: { stdout: true } });
    expect(table.stdout).toMatch(/^Analytics for the last 7 days/);
    for (const section of ['Contacts', 'Deals', 'Emails', 'Tasks']) expect(table.stdout).toContain(`\n${section}\n`);
    expect(table.stdout).toMatch(/ {2}open_rate\s+\d+(\.\d)?%/);
    expect(table.stdout).toMatch(/ {2}open_value\s+\d{1,3}(,\d{3})+/);
    const tsv = await run(['analytics', '--period', '90d'], { ws });
    expect(tsv.stdout).toMatch(/^period\t90d$/m);
    expect(tsv.stdout).toMatch(/^deals\.won_value\t[\d.]+$/m);
  });

  it('an unknown period exits 2 and sends nothing', async () => {
    const result = await run(['analytics', '--period', '1y'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: invalid --period "1y" (expected one of: 7d, 30d, 90d)');
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('ai', () => {
  it('suggestions lists the pending ones', async () => {
    const result = await run(['ai', 'suggestions', '--json'], { ws });
    expect(json(result).length).toBeGreaterThan(0);
    expect(json(result).every((suggestion: { status: string }) => suggestion.status === 'pending')).toBe(true);
  });

  it('accept ID accepts; no ID in a script exits 2', async () => {
    const pending = (ws.api('GET', '/ai/suggestions?limit=1')).data.suggestions[0];
    const result = await run(['ai', 'accept', pending.id, '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)[0]).toMatchObject({ id: pending.id, ok: true, record: { status: 'accepted' } });
    // A repeat is done already (the suggestion is no longer pending): a success, as gh says "already closed".
    const again = await run(['ai', 'accept', pending.id, '--json'], { ws });
    expect(again.code).toBe(0);
    expect(json(again)[0]).toMatchObject({ id: pending.id, ok: true, result: 'already_accepted' });
    const none = await run(['ai', 'accept'], { ws });
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toBe('crm: missing suggestion ids');
  });

  it('trigger prints the score, its reasons and the next best action', async () => {
    const contact = await first('contacts');
    const table = await run(['ai', 'trigger', contact.id, '-o', 'table'], { ws });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^Contact ${contact.id} scored \\d+/100`));
    expect(table.stdout).toMatch(/Next best action: .+/);
    expect(JSON.parse(ws.requests()[0]!.body)).toEqual({ contact_id: contact.id });
    const asJson = await run(['ai', 'trigger', contact.id, '--json'], { ws });
    expect(json(asJson)).toMatchObject({ contact_id: contact.id, score: expect.any(Number), next_best_action: expect.any(String) });
    expect((await run(['ai', 'trigger', 'con_missing'], { ws })).code).toBe(4);
  });

  it('contacts create --score scores the new contact at once', async () => {
    const result = await run(['contacts', 'create', '--name', 'Scored', '--email', 'scored@example.com', '--score', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ name: 'Scored', score: expect.any(Number) });
    expect(ws.requests().map((request) => `${request.method} ${request.url}`)).toEqual(['POST /api/v1/contacts', 'POST /api/v1/ai/trigger']);
  });
});

describe('crm api', () => {
  it('GET with -f fields as the query; prints the data', async () => {
    const result = await run(['api', 'get', '/contacts', '-f', 'limit=2'], { ws });
    expect(result.code).toBe(0);
    expect(json(result).contacts).toHaveLength(2);
    expect(ws.requests()[0]!.url).toBe('/api/v1/contacts?limit=2');
  });

  it('--raw prints the whole envelope', async () => {
    const result = await run(['api', 'GET', 'contacts?limit=1', '--raw'], { ws });
    expect(json(result)).toMatchObject({ data: { contacts: [expect.any(Object)], total: expect.any(Number) }, error: null });
  });

  it('POST with -F typed fields and -f strings; --input from a file', async () => {
    const result = await run(['api', 'POST', '/deals', '-f', 'name=Api Deal', '-F', 'amount=1500', '-f', 'currency=EUR'], { ws });
    expect(result.code).toBe(0);
    expect(JSON.parse(ws.requests()[0]!.body)).toEqual({ name: 'Api Deal', amount: 1500, currency: 'EUR' });
    const file = tmpFile('body.json', JSON.stringify({ name: 'From File', email: 'from-file@example.com' }));
    const fromFile = await run(['api', 'POST', '/contacts', '--input', file], { ws });
    expect(json(fromFile)).toMatchObject({ name: 'From File' });
  });

  it('--paginate walks every page into one array', async () => {
    const total = (ws.api('GET', '/accounts?limit=1')).data.total;
    const result = await run(['api', 'GET', '/accounts', '--paginate'], { ws });
    expect(json(result)).toHaveLength(total);
  });

  it('maps errors to exit codes and validates before sending', async () => {
    expect((await run(['api', 'GET', '/contacts/con_missing'], { ws })).code).toBe(4);
    const method = await run(['api', 'FETCH', '/contacts'], { ws });
    expect(method.code).toBe(2);
    expect(method.stderr.split('\n')[0]).toBe('crm: invalid METHOD "FETCH" (expected one of: GET, POST, PATCH, PUT, DELETE)');
    expect((await run(['api', 'GET', 'https://elsewhere.example/x'], { ws })).code).toBe(2);
    expect((await run(['api', 'POST', '/contacts', '--input', '/no/file'], { ws })).code).toBe(2);
    expect(ws.requests().filter((request) => !request.url.includes('con_missing'))).toHaveLength(0);
  });
});
