// Issue 7's promises, command by command: every check runs before the first request; a dry run is
// the plan of every request, in order, and sends none; values a workspace defines are sent as
// given; --fields, -q and the formats behave the same everywhere, crm api included.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { BASE_URL, homeEnv, json, run, useWorkspace } from '../helpers/inprocess.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINT_COMMANDS } from '../helpers/tree.js';

const ws = useWorkspace();
const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-'))), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, ...extra });

describe('every check before the first request', () => {
  it.each([
    [['-o', 'xml', 'contacts', 'create', '--name', 'A', '--email', 'a@x.org'], {}, 'crm: invalid --output "xml" (expected one of: table, json, ndjson, csv, tsv)'],
    [['-o', '', 'contacts', 'list'], {}, 'crm: invalid --output "" (expected one of: table, json, ndjson, csv, tsv)'],
    [['contacts', 'delete', DEMO.contact, '--yes'], { CRM_OUTPUT: 'yaml' }, 'crm: invalid CRM_OUTPUT "yaml" (expected one of: table, json, ndjson, csv, tsv)'],
    [['--fields', ',', 'contacts', 'create', '--name', 'A', '--email', 'b@x.org'], {}, 'crm: --fields needs at least one field name'],
    [['--fields', 'id,,name', 'contacts', 'list'], {}, 'crm: --fields: empty name'],
    [['--fields', 'constructor', 'contacts', 'list'], {}, 'crm: --fields: "constructor" is not allowed as a name'],
    [['--fields', '__proto__', 'contacts', 'get', DEMO.contact], {}, 'crm: --fields: "__proto__" is not allowed as a name'],
    [['--json', '-o', 'csv', 'contacts', 'list'], {}, 'crm: --json and --output csv ask for different formats'],
    [['--timeout', '0', 'contacts', 'list'], {}, 'crm: invalid --timeout "0" (expected seconds, at least 0.001 and at most 86400)'],
    [['--timeout', '3000000', 'contacts', 'list'], {}, 'crm: invalid --timeout "3000000" (expected seconds, at least 0.001 and at most 86400)'],
    [['analytics', '--period', '1y'], {}, 'crm: invalid --period "1y" (expected one of: 7d, 30d, 90d)'],
    [['search', 'x', '--types', 'people'], {}, 'crm: invalid --types "people" (expected one of: contacts, deals, accounts, tasks)'],
    [['sequences', 'enroll', DEMO.sequence, '--file', '/no/such/ids.txt'], {}, 'crm: cannot read --file /no/such/ids.txt: no such file or directory'],
    [['tasks', 'complete', DEMO.task, 'a\u001bb'], {}, 'crm: invalid ID (it holds a control character)'],
    [['contacts', 'get', ''], {}, 'crm: invalid ID "" (empty)'],
    [['deals', 'stage', '  ', 'proposal'], {}, 'crm: invalid ID "  " (only whitespace)'],
    [['contacts', 'notes', 'list', '..'], {}, 'crm: invalid ID ".." (a step in a path, not an id)'],
    // Unseen in the id pasted: the service's "not found" for an id that looks right.
    [['contacts', 'get', 'con_\u200b1'], {}, 'crm: invalid ID (it holds a bidi or invisible character)'],
    [['tasks', 'complete', DEMO.task, 'task\u202e1', '--dry-run'], {}, 'crm: invalid ID (it holds a bidi or invisible character)'],
    [['deals', 'list', '--contact-id', 'ada\u2066@example.com'], {}, 'crm: invalid --contact-id (it holds a bidi or invisible character)'],
  ])('%j exits 2 and sends nothing', async (argv, extra, message) => {
    const result = await run(argv, { ws, env: env(extra) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(message);
    expect(ws.requests()).toHaveLength(0);
  });

  it.each([
    ['localhost:3000', 'http://localhost:3000'],
    ['127.0.0.1:8080/api/v1', 'http://127.0.0.1:8080/api/v1'],
    ['crm.example.com', 'https://crm.example.com'],
    ['crm.example.com:8443', 'https://crm.example.com:8443'],
  ])('a base URL without its scheme (%s; host:port once parsed as the scheme "localhost:") exits 2 saying so, with the URL meant, from the flag or CRM_BASE_URL; nothing sent', async (given, meant) => {
    for (const [argv, extra] of [
      [['--base-url', given, 'contacts', 'list'], {}],
      [['contacts', 'list'], { CRM_BASE_URL: given }],
    ] as const) {
      const result = await run([...argv], { ws, env: env(extra) });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`crm: invalid base URL: ${given} (no scheme)\nhint: give a full URL with its scheme: ${meant}\n`);
    }
    expect(ws.requests()).toHaveLength(0);
  });

  it('a base URL with an endpoint\'s path after /api/v1 (copied with it) exits 2 naming the base to give, from the flag, CRM_BASE_URL or config set; nothing sent', async () => {
    const given = 'https://crm.example.com/api/v1/contacts';
    const said = `crm: invalid base URL: ${given} (the API base ends in /api/v1; /contacts is an endpoint's path)\nhint: give https://crm.example.com/api/v1, or the origin alone\n`;
    for (const [argv, extra] of [
      [['--base-url', given, 'contacts', 'list'], {}],
      [['contacts', 'list'], { CRM_BASE_URL: given }],
      [['config', 'set', 'base_url', given], {}],
    ] as const) {
      const result = await run([...argv], { ws, env: env(extra) });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toBe(said);
    }
    // Under a path of its own, the base is that path's /api/v1.
    const tenant = await run(['contacts', 'list'], { ws, env: env({ CRM_BASE_URL: 'https://crm.example.com/t/acme/api/v1/deals/deal_1/' }) });
    expect(tenant.stderr).toBe("crm: invalid base URL: https://crm.example.com/t/acme/api/v1/deals/deal_1/ (the API base ends in /api/v1; /deals/deal_1 is an endpoint's path)\nhint: give https://crm.example.com/t/acme/api/v1\n");
    expect(ws.requests()).toHaveLength(0);
  });

  it.each([
    [['contacts', 'list', '--limit', '1', '--fields', 'id,nmae'], 'crm: unknown field "nmae" for contacts (fields: id, name, email, company, phone, title, status, account_id, list_ids, score, next_best_action, scored_at, created_at, updated_at)'],
    [['deals', 'get', 'deal_1', '--fields', 'name,activites.0.to_stage'], 'crm: unknown field "activites.0.to_stage" for deals (fields: id, name, amount, currency, stage, status, account_id, contact_id, close_date, created_at, updated_at, activities, activity)'],
    [['tasks', 'complete', 'task_1', '--fields', 'id,record.title,eror'], 'crm: unknown field "eror" for tasks (fields: id, ok, result, error, record)'],
    [['contacts', 'export', '--fields', 'emial'], 'crm: unknown field "emial" for crm contacts export (fields: id, name, email, company, phone, title, status, account_id, list_ids, score, next_best_action, scored_at, created_at, updated_at)'],
  ])('a misspelt --fields name %j exits 2 naming the fields of what the command prints, and sends nothing', async (argv, message) => {
    const result = await run(argv, { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${message}\nhint: --json prints every field a record has\n`);
    expect(ws.requests()).toHaveLength(0);
  });

  it('--fields takes nested paths of known fields', async () => {
    const result = await run(['deals', 'get', 'deal_m279ns143s296hm4', '--fields', 'name,activities', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(Object.keys(json(result))).toEqual(['name', 'activities']);
  });
});

describe('JSON input a number of which JSON.parse cannot keep: exit 2 naming the field, nothing sent', () => {
  const huge = 'crm: --data: "amount" is a number too large to send (it reads as Infinity, which JSON sends as null)';
  const unsafe = (label: string, field: string) => `crm: ${label}: "${field}" is an integer beyond 9007199254740991: it would be sent changed\nhint: if it is an id, give it as a string, in double quotes\n`;
  it.each([
    [['deals', 'create', '--data', '{"name":"Big","amount":1e400}'], undefined, `${huge}\n`],
    [['deals', 'create', '--data', '-', '--dry-run'], '{"name":"Big","amount":-1e400}', huge.replace('Infinity', '-Infinity') + '\n'],
    [['deals', 'create', '--name', 'Big', '--set', 'amount=1e999'], undefined, 'crm: --set: "amount" is a number too large to send (it reads as Infinity, which JSON sends as null)\n'],
    [['contacts', 'create', '--data', '{"name":"A","email":"a@example.com","custom":{"ids":[1,12345678901234567890]}}'], undefined, unsafe('--data', 'custom.ids[1]')],
    [['contacts', 'create', '--name', 'A', '--email', 'a@example.com', '--set', 'external.id=12345678901234567890'], undefined, unsafe('--set', 'external.id')],
    [['api', 'POST', '/deals', '--input', '-'], '{"name":"Big","amount":1e400}', '--input'],
    [['api', 'POST', '/deals', '-F', 'amount=1e400', '-f', 'name=Big'], undefined, '-F'],
    [['api', 'GET', '/contacts', '-F', 'account_id=12345678901234567890'], undefined, unsafe('-F', 'account_id')],
  ])('%j', async (argv, stdin, expected) => {
    const result = await run(argv, { ws, stdin });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    if (expected.startsWith('crm: ')) expect(result.stderr).toBe(expected);
    else expect(result.stderr).toBe(`crm: ${expected}: "amount" is a number too large to send (it reads as Infinity, which JSON sends as null)\n`);
    expect(ws.requests()).toEqual([]);
  });

  it('an update that would empty a field its create requires (name, title) is exit 2 naming it, nothing sent, --dry-run too', async () => {
    const contact = ws.api('POST', '/contacts', { name: 'Kept', email: `kept-cli-${Date.now()}@example.com` }).data.id as string;
    for (const flags of [['--name', ''], ['--name', '   '], ['--set', 'name='], ['--data', '{"name":null}'], ['--name', '', '--dry-run']]) {
      const result = await run(['contacts', 'update', contact, ...flags], { ws });
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr).toBe("crm: a contact's name cannot be empty: it is required\n");
    }
    expect(ws.requests()).toEqual([]);
    // A field a create leaves out may be emptied.
    expect((await run(['contacts', 'update', contact, '--company', ''], { ws })).code).toBe(0);
  });

  it('JSON input nested deeper than 500 levels is exit 2 naming the field, not a crash (Maximum call stack size exceeded, exit 1); nothing sent', async () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    for (const [argv, stdin, said] of [
      [['contacts', 'create', '--name', 'Deep', '--email', 'deep@example.com', '--data', `{"custom":${deep(100_000)}}`], undefined, '--data: "custom"'],
      [['contacts', 'create', '--name', 'Deep', '--email', 'deep@example.com', '--data', '-', '--dry-run'], `{"custom":{"x":${deep(2_000)}}}`, '--data: "custom"'],
      [['api', 'POST', '/contacts', '--input', '-'], deep(600), '--input: the value'],
    ] as const) {
      const result = await run([...argv], { ws, stdin });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`crm: ${said} nests arrays and objects deeper than 500 levels\n`);
    }
    expect(ws.requests()).toEqual([]);
    // As deep as a service's answer may be: sent.
    const fine = await run(['contacts', 'create', '--name', 'Deep', '--email', 'deep-fine@example.com', '--data', `{"custom":${deep(400)}}`, '--dry-run'], { ws });
    expect(fine.code, fine.stderr).toBe(0);
  });

  it('a record created as deep as crm sends (500 levels) is read back, alone and in a list: it was created, then every list holding it was a malformed answer (exit 6)', async () => {
    const custom = JSON.parse(`${'['.repeat(499)}${']'.repeat(499)}`);
    const created = await run(['contacts', 'create', '--name', 'Deep', '--email', 'deep-500@example.com', '--data', JSON.stringify({ custom }), '-q'], { ws });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const listed = await run(['contacts', 'list', '--search', 'deep-500@example.com', '--json'], { ws });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id, custom })]);
    const got = await run(['contacts', 'get', id, '--json'], { ws });
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).custom).toEqual(custom);
  });

  it('an import row with such a number is invalid, naming the field, and never sent; the other rows are', async () => {
    const tag = Date.now().toString(36);
    const rows = [
      `{"name":"Fine","email":"fine-${tag}@example.com"}`,
      `{"name":"Big","email":"big-${tag}@example.com","score_hint":1e400}`,
      `{"name":"Id","email":"id-${tag}@example.com","external_id":12345678901234567890}`,
    ].join('\n');
    const maps = ['--map', 'score_hint=score_hint', '--map', 'external_id=external_id'];
    const dry = await run(['contacts', 'import', '-', ...maps, '--dry-run', '-o', 'ndjson'], { ws, stdin: rows });
    expect(dry.code).toBe(7);
    expect(dry.stdout.trim().split('\n').map((line) => JSON.parse(line).error)).toEqual([
      null,
      'the row: "score_hint" is a number too large to send (it reads as Infinity, which JSON sends as null)',
      'the row: "external_id" is an integer beyond 9007199254740991: it would be sent changed',
    ]);
    expect(ws.requests()).toEqual([]);
    const sent = await run(['contacts', 'import', '-', ...maps, '-o', 'ndjson'], { ws, stdin: rows });
    expect(sent.code).toBe(7);
    expect(ws.requests(/^POST/).map((request) => JSON.parse(request.body))).toEqual([{ name: 'Fine', email: `fine-${tag}@example.com` }]);
  });
});

describe('a typed number is read in decimal, as people write it, and as a double keeps it; else exit 2 naming the flag and the value, nothing sent', () => {
  const deal = ['deals', 'create', '--name', 'D', '--no-input', '--amount'];
  it.each([
    // Number() reads these too: 16, 15, 3, and a timeout of 0 ms (a timer's floor).
    [[...deal, '0x10'], 'crm: invalid --amount "0x10" (expected a number >= 0)'],
    [['contacts', 'list', '--dry-run', '--offset', '0o17'], 'crm: invalid --offset "0o17" (expected an integer >= 0)'],
    [['--timeout', '0b11', 'contacts', 'list'], 'crm: invalid --timeout "0b11" (expected seconds, at least 0.001 and at most 86400)'],
    [['--timeout', '0.0001', 'contacts', 'list'], 'crm: invalid --timeout "0.0001" (expected seconds, at least 0.001 and at most 86400)'],
    // Rounded, once sent as 12345678901234567000; and Infinity, which JSON sends as null.
    [[...deal, '12345678901234567890', '--dry-run'], 'crm: invalid --amount "12345678901234567890" (an integer beyond 9007199254740991: it would be sent changed)'],
    [['contacts', 'list', '--limit', '12345678901234567890'], 'crm: invalid --limit "12345678901234567890" (an integer beyond 9007199254740991: it would be sent changed)'],
    [[...deal, '1e400'], 'crm: invalid --amount "1e400" (a number too large to send)'],
    [[...deal, '1e-400'], 'crm: invalid --amount "1e-400" (a number too small to send: it reads as 0)'],
    [[...deal, 'Infinity'], 'crm: invalid --amount "Infinity" (expected a number >= 0)'],
    [[...deal, 'NaN'], 'crm: invalid --amount "NaN" (expected a number >= 0)'],
    [[...deal, '1_000'], 'crm: invalid --amount "1_000" (expected a number >= 0)'],
    [[...deal, '5abc'], 'crm: invalid --amount "5abc" (expected a number >= 0)'],
    [[...deal, ''], 'crm: invalid --amount "" (expected a number >= 0)'],
    [[...deal, '-5'], 'crm: invalid --amount "-5" (expected a number >= 0)'],
    // An integer is whole as written: 1.0000000000000001 is 1 to a double, not to its writer.
    [['contacts', 'list', '--limit', '1.0000000000000001'], 'crm: invalid --limit "1.0000000000000001" (expected an integer >= 1)'],
    [['tasks', 'complete', 'task_1', '--concurrency', '2.5'], 'crm: invalid --concurrency "2.5" (expected an integer between 1 and 32)'],
    [['watch', 'contacts', '--interval', '100000h'], 'crm: invalid --interval "100000h" (at most 596h31m)'],
  ])('%j', async (argv, message) => {
    const result = await run(argv, { ws });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${message}\n`);
    expect(ws.requests()).toEqual([]);
  });

  it.each([
    [[...deal, '1e3'], '"amount": 1000'],
    [[...deal, ' 5 '], '"amount": 5'],
    [[...deal, '.5'], '"amount": 0.5'],
    [[...deal, '5.'], '"amount": 5'],
    [[...deal, '-0'], '"amount": 0'],
    [['contacts', 'list', '--limit', '1e1'], '?limit=10'],
    [['contacts', 'list', '--limit', '5.0', '--offset', '-0'], '?limit=5&offset=0'],
  ])('%j is the number meant (dry run: %s)', async (argv, planned) => {
    const result = await run([...argv, '--dry-run'], { ws });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(planned);
    expect(ws.requests()).toEqual([]);
  });
});

describe('a date or a time given to a flag is a day the calendar has, a time with its zone; else exit 2 naming the flag and the value, nothing sent', () => {
  const task = ['tasks', 'create', '--title', 'T', '--no-input', '--due'];
  it.each([
    [[...task, '2026-02-30'], 'no such date: 2026-02-30'],
    [[...task, '2026-13-01', '--dry-run'], 'no such date: 2026-13-01'],
    // Date.parse rolls this over to 2026-03-02: it was sent as given.
    [[...task, '2026-02-30T10:00:00Z'], 'no such date: 2026-02-30'],
    // Its day depends on the clock that reads it: it was sent as given.
    [[...task, '2026-03-01T10:00:00', '--dry-run'], 'a time needs its zone: Z, or an offset such as +02:00'],
    [[...task, '2026-03-01T23:59:60Z'], 'a leap second, which crm cannot place: give :59'],
    [[...task, '2026-03-01T25:00:00Z'], 'no such time'],
    [['deals', 'create', '--name', 'D', '--no-input', '--close-date', '2026-03-01T10:00:00+24:00'], 'no such time'],
    [[...task, '10000-01-01'], 'expected YYYY-MM-DD, today, tomorrow, +Nd or +Nw'],
    [[...task, '1767225600'], 'expected YYYY-MM-DD, today, tomorrow, +Nd or +Nw'],
  ])('%j: %s', async (argv, why) => {
    const result = await run(argv, { ws });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const flag = argv.includes('--due') ? '--due' : '--close-date';
    expect(result.stderr).toBe(`crm: invalid ${flag} "${argv[argv.indexOf(flag) + 1]}" (${why})\n`);
    expect(ws.requests()).toEqual([]);
  });

  it.each([
    [' 2026-03-01 ', '"due_date": "2026-03-01"'],
    ['2028-02-29', '"due_date": "2028-02-29"'],
    ['2026-03-01T10:00:00Z', '"due_date": "2026-03-01T10:00:00Z"'],
    ['2026-03-01T10:00:00+13:00', '"due_date": "2026-03-01T10:00:00+13:00"'],
  ])('%j is sent as the day or time meant (%s)', async (given, planned) => {
    const result = await run([...task, given, '--dry-run'], { ws });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(planned);
    expect(ws.requests()).toEqual([]);
  });
});

describe('argv as it is read: a switch given a value, a value left out; exit 2 naming the flag, nothing sent', () => {
  it.each([
    // Commander took the next word whatever it was: a contact named "--email", and a stray a@b.co.
    [['contacts', 'create', '--name', '--email', 'a@example.com'], 'crm: --name needs a value (--email follows it)\n'],
    [['contacts', 'update', DEMO.contact, '--company', '--set', 'title=CTO'], 'crm: --company needs a value (--set follows it)\n'],
    // "unknown option '--yes=maybe'", though delete has --yes.
    [['contacts', 'delete', DEMO.contact, '--yes=maybe'], 'crm: --yes takes no value (given "maybe")\nhint: give --yes alone, or leave it out\n'],
    [['contacts', 'list', '--all=true', '--dry-run'], 'crm: --all takes no value (given "true")\nhint: give --all alone, or leave it out\n'],
    [['contacts', 'list', '--status'], "crm: option '--status <value>' argument missing\n"],
  ])('%j', async (argv, said) => {
    const result = await run(argv, { ws });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(said);
    expect(ws.requests()).toEqual([]);
  });

  it('a flag given twice takes the last value (a wrapper\'s default overridden); a repeatable flag collects', async () => {
    const result = await run(['-o', 'csv', 'contacts', 'update', DEMO.contact, '--company', 'Old', '--company', 'Acme', '--set', 'a=1', '--set', 'b=2', '-o', 'json', '--dry-run'], { ws });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)[0].body).toEqual({ a: 1, b: 2, company: 'Acme' });
    expect(ws.requests()).toEqual([]);
  });

  it('crm --json analytics runs analytics (the word after --json was read as a field list: root help, exit 0)', async () => {
    const result = await run(['--json', 'analytics'], { ws });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).period).toBe('30d');
  });
});

describe('values a workspace defines are sent as given; the service has the last word', () => {
  it.each([
    [['contacts', 'list', '--status', 'vip'], 'status must be one of: lead, prospect, customer, churned'],
    [['tasks', 'create', '--title', 'T', '--priority', 'urgent'], 'priority must be one of: low, normal, high'],
    [['deals', 'list', '--stage', 'won-ish'], "Unknown stage 'won-ish'. Valid stages: prospecting, qualification, proposal, negotiation, closed_won, closed_lost"],
  ])('%j reaches the service, whose message is shown (exit 1)', async (argv, message) => {
    const result = await run(argv, { ws });
    expect(ws.requests()).toHaveLength(1);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`crm: ${message}\n`);
  });

  it.each([
    // Sent as status=+won+ and priority " high": a workspace that does not trim selects nothing, or refuses.
    [['deals', 'list', '--status', ' won '], '/deals?status=won '],
    [['tasks', 'create', '--title', 'T', '--priority', ' high', '--no-input'], '"priority": "high"'],
    // Its case is kept: a workspace may spell its values otherwise.
    [['deals', 'list', '--status', 'WON'], '/deals?status=WON '],
  ])('%j is sent trimmed, its case kept', async (argv, planned) => {
    const result = await run([...argv, '--dry-run'], { ws });
    expect(result.stderr).toBe('');
    expect(result.stdout.replace(/\n/g, ' ')).toContain(planned);
    expect(ws.requests()).toEqual([]);
  });
});

describe('--dry-run is the plan of every request', () => {
  it('tasks complete with six ids plans six requests, in order, and sends none', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const result = await run(['tasks', 'complete', ...ids, '--dry-run', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result).map((request: { method: string; url: string }) => `${request.method} ${request.url}`)).toEqual(ids.map((id) => `POST ${BASE_URL}/tasks/${id}/complete`));
    expect(ws.requests()).toHaveLength(0);
  });

  it('contacts create --score plans both requests; the new id is a placeholder', async () => {
    const result = await run(['contacts', 'create', '--name', 'Ada', '--email', 'ada@example.com', '--score', '--dry-run', '--json'], { ws });
    expect(json(result)).toEqual([
      { method: 'POST', url: `${BASE_URL}/contacts`, headers: expect.objectContaining({ 'X-Service-API-Key': `****${ws.apiKey.slice(-4)}` }), body: { name: 'Ada', email: 'ada@example.com' } },
      { method: 'POST', url: `${BASE_URL}/ai/trigger`, headers: expect.any(Object), body: { contact_id: '<new contact id>' } },
    ]);
    expect(ws.requests()).toHaveLength(0);
    const text = await run(['contacts', 'create', '--name', 'Ada', '--email', 'ada@example.com', '--score', '--dry-run'], { ws });
    expect(text.stdout).toContain(`POST ${BASE_URL}/contacts\n`);
    expect(text.stdout).toContain(`POST ${BASE_URL}/ai/trigger\n`);
    expect(text.stdout).toContain('"contact_id": "<new contact id>"');
    expect(text.stdout).not.toContain(ws.apiKey);
  });

  it('sequences enroll plans one request per batch of 50 ids', async () => {
    const ids = Array.from({ length: 120 }, (_, n) => `con_${n}`);
    const result = await run(['sequences', 'enroll', DEMO.sequence, '-', '--dry-run', '--json'], { ws, stdin: ids.join('\n') });
    expect(json(result).map((request: { body: { contact_ids: string[] } }) => request.body.contact_ids.length)).toEqual([50, 50, 20]);
    expect(ws.requests()).toHaveLength(0);
  });

  /** Arguments each command needs to run without a terminal. */
  const ARGS: Record<string, string[]> = {
    contacts_get: [DEMO.contact], contacts_create: ['--name', 'A', '--email', 'a@example.com'], contacts_update: [DEMO.contact, '--status', 'customer'],
    contacts_delete: [DEMO.contact], contacts_notes_list: [DEMO.contact], contacts_notes_add: [DEMO.contact, '--body', 'B'],
    contacts_tasks_add: [DEMO.contact, '--title', 'T'], contacts_enroll: [DEMO.contact, '--sequence', DEMO.sequence],
    accounts_get: [DEMO.account], accounts_create: ['--name', 'A'], accounts_update: [DEMO.account, '--industry', 'I'], accounts_delete: [DEMO.account],
    deals_get: [DEMO.deal], deals_create: ['--name', 'D'], deals_update: [DEMO.deal, '--amount', '5'], deals_delete: [DEMO.deal], deals_stage: [DEMO.deal, 'proposal'],
    sequences_get: [DEMO.sequence], sequences_create: ['--name', 'S'], sequences_update: [DEMO.sequence, '--status', 'paused'], sequences_delete: [DEMO.sequence],
    sequences_enroll: [DEMO.sequence, DEMO.contact], sequences_contacts: [DEMO.sequence],
    tasks_get: [DEMO.task], tasks_create: ['--title', 'T'], tasks_update: [DEMO.task, '--priority', 'high'], tasks_delete: [DEMO.task], tasks_complete: [DEMO.task],
    search: ['globex'], ai_accept: ['sug_x'], ai_trigger: [DEMO.contact],
  };

  /** Reads a plan depends on, sent in a dry run too (and planned first): a stage move needs the stage's id. */
  const LOOKUPS: Record<string, string[]> = { deals_stage: ['GET /api/v1/pipeline/stages?limit=50&offset=0'] };

  it.each(ENDPOINT_COMMANDS.map((op) => [op.name, op] as const))('%s --dry-run plans its requests and sends none but its look-ups', async (name, op) => {
    const result = await run([...op.command, ...(ARGS[name] ?? []), '--dry-run', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const plan = json(result);
    const lookups = LOOKUPS[name] ?? [];
    expect(plan.length).toBeGreaterThan(lookups.length);
    expect(plan[lookups.length]).toMatchObject({ method: op.method, url: expect.stringContaining(BASE_URL) });
    expect(ws.requests().map((request) => `${request.method} ${request.url}`)).toEqual(lookups);
  });
});

describe('--fields and -q behave the same on every command, crm api included', () => {
  it('sequences enroll --json --fields keeps only those fields of each report row', async () => {
    const contact = ws.api('POST', '/contacts', { name: 'Fields', email: 'fields-enroll@example.com' }).data;
    const result = await run(['sequences', 'enroll', DEMO.sequence, contact.id, '--json', '--fields', 'id,result'], { ws });
    expect(json(result)).toEqual([{ id: contact.id, result: 'enrolled' }]);
  });

  it('crm api honours --fields, -q and -o', async () => {
    const fields = await run(['api', 'GET', `/contacts/${DEMO.contact}`, '--fields', 'id,name'], { ws });
    expect(json(fields)).toEqual({ id: DEMO.contact, name: 'Zane Sato' });
    const quiet = await run(['api', 'GET', '/contacts', '--paginate', '-q'], { ws });
    expect(quiet.stdout.trim().split('\n').every((line) => line.startsWith('con_'))).toBe(true);
    const tsv = await run(['api', 'GET', `/contacts/${DEMO.contact}`, '-o', 'tsv', '--fields', 'name'], { ws });
    expect(tsv.stdout).toBe('name\tZane Sato\n');
  });
});
