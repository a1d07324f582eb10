// crm contacts export, in-process against the sandbox's handler: formats, filters, and the walk's
// guarantee: every record that exists for the whole export is written exactly once, while other
// records are created and deleted between its pages (with and without the service's `total`).
// Memory is measured by bench/scale.mjs (100,000 records against 1,000), not by a test.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { json, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';

const ws = useWorkspace();

const liveIds = (): string[] => {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = ws.api('GET', `/contacts?limit=50&offset=${offset}`).data.contacts;
    ids.push(...page.map((contact: { id: string }) => contact.id));
    if (page.length < 50) return ids;
  }
};

/** The two commands that walk a whole list, each with how to read the records it printed. */
type ListReader = [name: string, argv: string[], records: (stdout: string) => Array<{ id: string }>];
const WHOLE_LIST: ListReader[] = [
  ['contacts list --all --json', ['contacts', 'list', '--all', '--json'], (stdout) => JSON.parse(stdout) as Array<{ id: string }>],
  ['contacts export --format ndjson', ['contacts', 'export', '--format', 'ndjson'], (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string })],
];

/** A deterministic choice of records (the same test, the same deletions). */
function chooser(seed: number) {
  let state = seed;
  return <T>(items: readonly T[]): T => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return items[state % items.length]!;
  };
}

/**
 * Between the pages of the walk, another client creates `created` contacts, deletes `behind` of
 * those the walk has already read (which pulls the rest of the list earlier) and `anywhere` others.
 * Optionally the service sends no `total`, so the walk has to notice from the records themselves.
 */
function churningWorkspace(options: { created: number; behind: number; anywhere: number; withTotal: boolean; seed: number }) {
  const pick = chooser(options.seed);
  const deleted = new Set<string>();
  const served: string[] = [];
  let pages = 0;
  let made = 0;
  const remove = (candidates: string[]) => {
    const id = pick(candidates.filter((candidate) => !deleted.has(candidate)));
    expect(ws.api('DELETE', `/contacts/${id}`).status).toBe(200);
    deleted.add(id);
  };
  const transport: Transport = async (request) => {
    const isPage = request.method === 'GET' && /\/contacts\?/.test(request.url);
    if (isPage && pages++ > 0) {
      for (let index = 0; index < options.created; index++) ws.api('POST', '/contacts', { name: `Churn ${options.seed}-${++made}`, email: `churn-${options.seed}-${made}@example.com` });
      for (let index = 0; index < options.behind; index++) remove(served);
      for (let index = 0; index < options.anywhere; index++) remove(liveIds());
    }
    const response = await ws.transport(request);
    if (!isPage) return response;
    const body = JSON.parse(response.body);
    served.push(...body.data.contacts.map((contact: { id: string }) => contact.id));
    if (!options.withTotal) delete body.data.total;
    return { ...response, body: JSON.stringify(body) };
  };
  return { workspace: { ...ws, transport } as Workspace, deleted, pages: () => pages };
}

describe('contacts export', () => {
  it('writes every contact as CSV by default, with a header row, in pages of 50', async () => {
    const total = ws.api('GET', '/contacts?limit=1').data.total;
    const result = await run(['contacts', 'export'], { ws });
    expect(result.code).toBe(0);
    const rows = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(total);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['id', 'name', 'email', 'company', 'created_at']));
    expect(new Set(rows.map((row) => row.id)).size).toBe(total);
    expect(ws.requests().every((request) => /limit=50&offset=\d+$/.test(request.url))).toBe(true);
  });

  it('a field the CSV header lacks (a later record has a field the first has not) is not dropped in silence: a warning names it and what writes it', async () => {
    const records = [
      { id: 'con_first', name: 'First', email: 'first@example.com', created_at: '2026-01-02T00:00:00Z' },
      { id: 'con_later', name: 'Later', email: 'later@example.com', created_at: '2026-01-01T00:00:00Z', region: 'emea', tier: 'gold' },
    ];
    ws.fault({ match: /^GET/, status: 200, body: JSON.stringify({ data: { contacts: records, total: 2 }, error: null }) });
    const result = await run(['contacts', 'export'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(parse(result.stdout, { columns: true })).toEqual([
      { id: 'con_first', name: 'First', email: 'first@example.com', created_at: '2026-01-02T00:00:00Z' },
      { id: 'con_later', name: 'Later', email: 'later@example.com', created_at: '2026-01-01T00:00:00Z' },
    ]);
    expect(result.stderr).toBe("crm: warning: 1 record has fields the CSV's header (the first record's fields) lacks, not written: region, tier; -o ndjson writes every field, --fields names the columns\n");
    // Columns named with --fields: what was asked for, no warning.
    ws.fault({ match: /^GET/, status: 200, body: JSON.stringify({ data: { contacts: records, total: 2 }, error: null }) });
    const named = await run(['contacts', 'export', '--fields', 'id,name'], { ws });
    expect(named.stdout).toBe('id,name\r\ncon_first,First\r\ncon_later,Later\r\n');
    expect(named.stderr).toBe('');
    // The sandbox's records all have the same fields: nothing to say of the header.
    expect((await run(['contacts', 'export'], { ws })).stderr).not.toContain('header');
  });

  it('--format ndjson and json, the filters of contacts list, and -o as the same thing', async () => {
    const ndjson = await run(['contacts', 'export', '--format', 'ndjson', '--status', 'customer', '--search', 'a'], { ws });
    const records = ndjson.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(record.status).toBe('customer');
    expect(ws.requests()[0]!.url).toBe('/api/v1/contacts?search=a&status=customer&limit=50&offset=0');
    const array = await run(['contacts', 'export', '-o', 'json', '--status', 'customer', '--search', 'a'], { ws });
    expect(json(array)).toEqual(records);
  });

  it('refuses --format and -o that disagree, and an unknown format, before sending anything', async () => {
    const both = await run(['contacts', 'export', '--format', 'csv', '--json'], { ws });
    expect(both.code).toBe(2);
    expect(both.stderr.split('\n')[0]).toBe('crm: --format csv and --json ask for different formats');
    const unknown = await run(['contacts', 'export', '--format', 'xml'], { ws });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('crm: invalid --format "xml" (expected one of: csv, ndjson, json)\n');
    expect(ws.requests()).toEqual([]);
  });

  it('--dry-run prints the first request and sends nothing (as contacts list --all does)', async () => {
    for (const argv of [['contacts', 'export', '--dry-run', '--json'], ['contacts', 'list', '--all', '--dry-run', '--json']]) {
      const result = await run(argv, { ws });
      expect(result.code).toBe(0);
      expect(json(result)).toMatchObject([{ method: 'GET', url: expect.stringMatching(/\/contacts\?limit=50&offset=0$/) }]);
    }
    expect(ws.requests()).toEqual([]);
  });

  it('a CSV export read back by contacts import keeps every field a contact can be given, its lists among them', async () => {
    const original = ws.api('GET', '/contacts?limit=50').data.contacts.find((contact: { list_ids: string[]; account_id: string | null }) => contact.list_ids.length > 1 && contact.account_id);
    const exported = await run(['contacts', 'export', '--search', original.email], { ws });
    expect(exported.code).toBe(0);
    ws.api('DELETE', `/contacts/${original.id}`);
    const imported = await run(['contacts', 'import', '-', '--format', 'csv', '-q'], { ws, stdin: exported.stdout });
    expect(imported.code).toBe(0);
    const copy = ws.api('GET', `/contacts/${imported.stdout.trim()}`).data;
    const given = ['name', 'email', 'company', 'phone', 'title', 'status', 'account_id', 'list_ids'];
    expect(Object.fromEntries(given.map((field) => [field, copy[field]]))).toEqual(Object.fromEntries(given.map((field) => [field, original[field]])));
  });

  // The rate the walk promises to keep up with: 3 records created or deleted a request, here one
  // created, one of those just read deleted (which pulls the rest of the list earlier) and one anywhere.
  it.each([
    ['with the service’s total', true, 11],
    ['without a total', false, 12],
  ])('writes every record that exists for the whole walk exactly once while others are created and deleted (%s)', async (_, withTotal, seed) => {
    for (let index = 0; index < 400; index++) ws.api('POST', '/contacts', { name: `Export ${seed}-${index}`, email: `export-${seed}-${index}@example.com` });
    const before = liveIds();
    const churn = churningWorkspace({ created: 1, behind: 1, anywhere: 1, withTotal, seed });
    const result = await run(['contacts', 'export', '--format', 'ndjson'], { ws: churn.workspace });
    expect(result.code, result.stderr).toBe(0);
    const written = result.stdout.trim().split('\n').map((line) => JSON.parse(line).id as string);
    expect(new Set(written).size).toBe(written.length); // nothing twice
    const survivors = before.filter((id) => !churn.deleted.has(id));
    expect(written).toEqual(expect.arrayContaining(survivors)); // no survivor skipped
    expect(churn.deleted.size).toBeGreaterThanOrEqual(2 * 8);
    expect(churn.pages()).toBeGreaterThanOrEqual(9);
  });
});

/**
 * A service whose contacts list repeats records (a join on its side): the list as it sends it is the
 * real one with the contacts at REPEATED each sent twice in a row, paged by `offset` over what it sends.
 */
function repeatingWorkspace(repeated: readonly number[]) {
  const records = (): Array<{ id: string }> => {
    const all: Array<{ id: string }> = [];
    for (let offset = 0; ; offset += 50) {
      const page = ws.api('GET', `/contacts?limit=50&offset=${offset}`).data.contacts;
      all.push(...page);
      if (page.length < 50) return all;
    }
  };
  let repeats = 0;
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || !url.pathname.endsWith('/contacts')) return ws.transport(request);
    await ws.transport(request); // logged
    const sent = records().flatMap((record, index) => (repeated.includes(index) ? [record, record] : [record]));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const page = sent.slice(offset, offset + Number(url.searchParams.get('limit') ?? 20));
    repeats += page.filter((record, index) => page.findIndex((other) => other.id === record.id) !== index).length;
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { contacts: page, total: sent.length }, error: null }) };
  };
  return { workspace: { ...ws, transport } as Workspace, expected: () => records().map((record) => record.id), repeats: () => repeats };
}

/**
 * The workspace's contacts, each five of them created at one instant (one transaction), listed newest
 * first by created_at alone: each answer orders those of one instant in an order of its own, as a
 * database may when LIMIT and OFFSET change its plan.
 */
function shufflingInstantsWorkspace() {
  const records = (): Array<{ id: string; created_at: string }> => {
    const all: Array<{ id: string; created_at: string }> = [];
    for (let offset = 0; ; offset += 50) {
      const page = ws.api('GET', `/contacts?limit=50&offset=${offset}`).data.contacts;
      all.push(...page);
      if (page.length < 50) return all.map((record, index) => ({ ...record, created_at: all[index - (index % 5)]!.created_at }));
    }
  };
  let answers = 0;
  // A hash of the id and the answer's number (FNV-1a, then mixed so that each answer orders anew).
  const draw = (id: string) => {
    let hash = [...`${id}/${answers}`].reduce((sum, char) => Math.imul(sum ^ char.charCodeAt(0), 16_777_619), 2_166_136_261);
    hash = Math.imul(hash ^ (hash >>> 16), 0x85eb_ca6b);
    hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2_ae35);
    return (hash ^ (hash >>> 16)) >>> 0;
  };
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || !url.pathname.endsWith('/contacts')) return ws.transport(request);
    await ws.transport(request); // logged
    answers++;
    const sent = records()
      .map((record, index) => ({ record, index, draw: draw(record.id) }))
      .sort((a, b) => (a.record.created_at === b.record.created_at ? a.draw - b.draw : a.index - b.index))
      .map(({ record }) => record);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const page = sent.slice(offset, offset + Number(url.searchParams.get('limit') ?? 20));
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { contacts: page, total: sent.length }, error: null }) };
  };
  return { workspace: { ...ws, transport } as Workspace, expected: () => records().map((record) => record.id) };
}

describe('a service that lists the records of one instant in another order for each page (it sorts by created_at alone)', () => {
  it.each(WHOLE_LIST)('%s prints every record once (12 of 350 were missing, exit 0)', async (_, argv, parse) => {
    for (let index = 0; index < 300; index++) ws.api('POST', '/contacts', { name: `Instant ${index}`, email: `instant-${index}-${argv.length}@example.com` });
    const service = shufflingInstantsWorkspace();
    const result = await run(argv, { ws: service.workspace });
    expect(result.code, result.stderr).toBe(0);
    const printed = parse(result.stdout).map((record) => record.id);
    expect(printed.filter((id, index) => printed.indexOf(id) !== index), 'printed twice').toEqual([]);
    expect(new Set(printed)).toEqual(new Set(service.expected()));
  });
});

describe('a service that repeats a record within a page', () => {
  // 2: within the first page; 49: the last of the first page, which the second page starts on (it
  // is held back), repeated at the head of the second; 120: within a later page.
  it.each(WHOLE_LIST)('%s prints each record once, every one, in list order', async (_, argv, parse) => {
    for (let index = 0; index < 150; index++) ws.api('POST', '/contacts', { name: `Repeated ${index}`, email: `repeated-${index}-${argv.length}@example.com` });
    const service = repeatingWorkspace([2, 49, 120]);
    const result = await run(argv, { ws: service.workspace });
    expect(result.code, result.stderr).toBe(0);
    expect(service.repeats()).toBeGreaterThanOrEqual(3);
    expect(parse(result.stdout).map((record) => record.id)).toEqual(service.expected());
  });

  it('one page (contacts list, --limit up to 50) prints each record once too, and the next --offset the table gives is by the rows sent: the next page follows on', async () => {
    for (let index = 0; index < 150; index++) ws.api('POST', '/contacts', { name: `Paged ${index}`, email: `paged-${index}@example.com` });
    const service = repeatingWorkspace([2, 49, 120]);
    const ids = (stdout: string) => (JSON.parse(stdout) as Array<{ id: string }>).map((record) => record.id);
    const first = await run(['contacts', 'list', '--limit', '20', '--json'], { ws: service.workspace });
    expect(first.code, first.stderr).toBe(0);
    expect(service.repeats()).toBe(1);
    expect(ids(first.stdout)).toEqual(service.expected().slice(0, 19));
    const table = await run(['contacts', 'list', '--limit', '20'], { ws: service.workspace, tty: { stdout: true, stderr: true, columns: 200 } });
    expect(table.stderr).toMatch(/^Showing 1-20 of \d+ contacts; more with --offset 20, or --all\.$/m);
    const next = await run(['contacts', 'list', '--limit', '20', '--offset', '20', '--json'], { ws: service.workspace });
    expect([...ids(first.stdout), ...ids(next.stdout)]).toEqual(service.expected().slice(0, 39));
  });
});


/**
 * The sandbox's contacts through a service that gives at most `cap` records a page, whatever the
 * limit asked (a workspace, or a proxy, with a lower cap than the spec's 50), with a `total` that
 * counts `overcount` records more than the list holds (deleted ones, say).
 */
/**
 * A service that gives at most CAP records a page, whatever the limit; its total counts OVERCOUNT
 * records too many, or is left out (a bare array). INSTANTS, when given, are the `created_at` of
 * each contact by id (several created at one instant, listed in the sandbox's order).
 */
function cappedWorkspace(cap: number, overcount: number | 'no total' = 0, instants?: ReadonlyMap<string, string>) {
  let pages = 0;
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || !url.pathname.endsWith('/contacts')) return ws.transport(request);
    pages++;
    const answer = await ws.transport(request);
    const { data } = JSON.parse(answer.body) as { data: { contacts: unknown[]; total: number } };
    const contacts = data.contacts.slice(0, cap).map((contact) => (instants ? { ...(contact as object), created_at: instants.get((contact as { id: string }).id) } : contact));
    return { ...answer, body: JSON.stringify({ data: overcount === 'no total' ? contacts : { contacts, total: data.total + overcount }, error: null }) };
  };
  return { workspace: { ...ws, transport } as Workspace, pages: () => pages };
}

describe('a service whose pages are shorter than asked, and that sends no total (a bare array)', () => {
  it.each(WHOLE_LIST)('%s prints every record once, in list order: it printed the first 20, exit 0', async (_, argv, parse) => {
    for (let index = 0; index < 90; index++) ws.api('POST', '/contacts', { name: `Bare ${index}`, email: `bare-${index}-${argv.length}@example.com` });
    const expected = liveIds();
    const service = cappedWorkspace(20, 'no total');
    const result = await run(argv, { ws: service.workspace });
    expect(result.code, result.stderr).toBe(0);
    expect(parse(result.stdout).map((record) => record.id)).toEqual(expected);
  });

  it('a list shorter than a page costs one request more, which tells it from a cap', async () => {
    ws.fault({ match: /contacts\?limit=50&offset=0$/, status: 200, body: JSON.stringify([{ id: 'con_b1', name: 'One' }, { id: 'con_b2', name: 'Two' }]) });
    ws.fault({ match: /contacts\?limit=50&offset=1$/, status: 200, body: JSON.stringify([{ id: 'con_b2', name: 'Two' }]) });
    const result = await run(['contacts', 'list', '--all', '-q'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('con_b1\ncon_b2\n');
    expect(ws.requests().map((request) => request.url)).toEqual(['/api/v1/contacts?limit=50&offset=0', '/api/v1/contacts?limit=50&offset=1']);
  });

  it('a list of two records that say when they were created: both, exit 0, in two requests', async () => {
    // The page that tells starts a record before the last one read. Asked of the short page's size (2),
    // it held only those two, came back whole, and was taken for the proof of a cap of 2: pages of 2
    // that brought nothing new, then walk_outpaced (exit 1) after 11 requests.
    const records = [{ id: 'con_b1', name: 'One', created_at: '2024-01-01T00:00:02Z' }, { id: 'con_b2', name: 'Two', created_at: '2024-01-01T00:00:01Z' }];
    ws.fault({ match: /contacts\?limit=\d+&offset=0$/, times: 2, status: 200, body: JSON.stringify(records) });
    const result = await run(['contacts', 'list', '--all', '-q'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('con_b1\ncon_b2\n');
    expect(ws.requests().map((request) => request.url)).toEqual(['/api/v1/contacts?limit=50&offset=0', '/api/v1/contacts?limit=50&offset=0']);
  });
});

describe('a service whose pages are shorter than asked, and whose records were created several at one instant (in an order it keeps)', () => {
  // The walk's bar for an instant too long to show whole (half a page) and the records of it a page
  // must list again were fixed for pages of 50: against pages of 20 or 10, it searched back until it
  // gave up (walk_outpaced, exit 1), or without a total ended after the first page (exit 0).
  it.each([
    [25, 20, 'no total'],
    [10, 9, 0],
    [10, 140, 0],
    [10, 140, 'no total'],
  ] as const)('pages of %i, %i records an instant, total %s: every record once, in list order, exit 0', async (cap, each, overcount) => {
    for (let index = 0; index < 130; index++) ws.api('POST', '/contacts', { name: `Instant ${index}`, email: `instant-${index}-${cap}-${each}-${overcount}@example.com` });
    const expected = liveIds();
    const instants = new Map(expected.map((id, index) => [id, new Date(Date.UTC(2024, 0, 1) - Math.floor(index / each) * 1000).toISOString()]));
    const service = cappedWorkspace(cap, overcount, instants);
    const result = await run(['contacts', 'list', '--all', '--json'], { ws: service.workspace });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ id: string }>).map((record) => record.id)).toEqual(expected);
  });
});

describe('a service whose pages are shorter than asked, and whose total says more records follow', () => {
  it.each<[...ListReader, number]>([
    [...WHOLE_LIST[0]!, 0],
    [...WHOLE_LIST[1]!, 0],
    ['contacts list --all --json (a total that counts 7 records too many)', WHOLE_LIST[0]![1], WHOLE_LIST[0]![2], 7],
  ])('%s prints every record once, in list order, not only the first page', async (_, argv, parse, overcount) => {
    for (let index = 0; index < 150; index++) ws.api('POST', '/contacts', { name: `Capped ${index}`, email: `capped-${index}-${argv.length}-${overcount}@example.com` });
    const expected = liveIds();
    const service = cappedWorkspace(30, overcount);
    const result = await run(argv, { ws: service.workspace });
    expect(result.code, result.stderr).toBe(0);
    expect(parse(result.stdout).map((record) => record.id)).toEqual(expected);
    // Pages of 30 once the first shows the cap: about one request per 29 records, not a search per page.
    expect(service.pages()).toBeLessThanOrEqual(Math.ceil(expected.length / 29) + 8);
  });
});

describe('a list whose records read are all deleted while it is walked (an agent completing them)', () => {
  let completingRuns = 0;
  /**
   * SIZE contacts; the first page's 50 are deleted before the second page is answered; pages answered
   * with the total, without one, or with one that counts OVERCOUNT too many. What the command printed.
   */
  async function completingFirstPage(argv: string[], size: number, total: 'total' | 'no total' | number) {
    for (const id of liveIds().slice(size)) ws.api('DELETE', `/contacts/${id}`);
    const batch = ++completingRuns;
    for (let index = liveIds().length; index < size; index++) ws.api('POST', '/contacts', { name: `Completed ${index}`, email: `completed-${batch}-${index}@example.com` });
    const expected = liveIds();
    expect(expected).toHaveLength(size);
    const firstPage: string[] = [];
    let pages = 0;
    const transport: Transport = async (request) => {
      const isPage = request.method === 'GET' && /\/contacts\?/.test(request.url);
      if (isPage && pages++ === 1) for (const id of firstPage) expect(ws.api('DELETE', `/contacts/${id}`).status).toBe(200);
      const response = await ws.transport(request);
      if (!isPage) return response;
      const body = JSON.parse(response.body);
      if (pages === 1) firstPage.push(...body.data.contacts.map((contact: { id: string }) => contact.id));
      if (total === 'no total') delete body.data.total;
      else if (typeof total === 'number') body.data.total += total;
      return { ...response, body: JSON.stringify(body) };
    };
    const result = await run(argv, { ws: { ...ws, transport } as Workspace });
    expect(firstPage).toHaveLength(50);
    return { result, expected };
  }

  // The page from the head, holding none of the records read, ended the walk with walk_outpaced
  // (exit 1), though nothing would have been lost: always when it was full (more than a page left),
  // and when a total said more records followed it; when it was short, before the previous fix.
  it.each<[name: string, size: number, total: 'total' | 'no total' | number, reader: ListReader]>([
    [WHOLE_LIST[0]![0], 80, 'total', WHOLE_LIST[0]!],
    [WHOLE_LIST[1]![0], 80, 'total', WHOLE_LIST[1]!],
    [WHOLE_LIST[0]![0], 80, 'no total', WHOLE_LIST[0]!],
    [WHOLE_LIST[0]![0], 80, 7, WHOLE_LIST[0]!],
    [WHOLE_LIST[0]![0], 150, 'total', WHOLE_LIST[0]!],
    [WHOLE_LIST[1]![0], 150, 'total', WHOLE_LIST[1]!],
    [WHOLE_LIST[0]![0], 150, 'no total', WHOLE_LIST[0]!],
    [WHOLE_LIST[1]![0], 150, 7, WHOLE_LIST[1]!],
  ])('%s over %i contacts (total: %s) prints the first page and then every record left, each once, exit 0', async (_, size, total, [, argv, parse]) => {
    const { result, expected } = await completingFirstPage(argv, size, total);
    expect(result.code, result.stderr).toBe(0);
    // The first page but its last (held back until a page showed what follows it, then deleted), and those never read.
    expect(parse(result.stdout).map((record) => record.id)).toEqual([...expected.slice(0, 49), ...expected.slice(50)]);
  });

  /**
   * ARGV over SIZE contacts, those the pages asked for deleted before the PAGEth is answered (with
   * that page's own when ASKED_THEN: its records, asked for and read gone); every contact left is
   * printed, after those read before, each once, exit 0.
   */
  async function deletedBehindTheWalk(argv: string[], parse: ListReader[2], size: number, page: number, askedThen: boolean) {
    for (let index = liveIds().length; index < size; index++) ws.api('POST', '/contacts', { name: `Deep ${index}`, email: `deep-${size}-${argv.length}-${index}@example.com` });
    const expected = liveIds();
    let pages = 0;
    let asked = 0;
    let left: string[] = [];
    const transport: Transport = async (request) => {
      const range = /\/contacts\?limit=(\d+)&offset=(\d+)$/.exec(request.url);
      const ask = () => range && (asked = Math.max(asked, Number(range[1]) + Number(range[2])));
      if (askedThen) ask();
      if (range && ++pages === page) {
        for (const id of expected.slice(0, asked)) expect(ws.api('DELETE', `/contacts/${id}`).status).toBe(200);
        left = liveIds();
      }
      if (!askedThen) ask();
      return ws.transport(request);
    };
    const result = await run(argv, { ws: { ...ws, transport } as Workspace });
    expect(result.code, result.stderr).toBe(0);
    expect(left).toEqual(expected.slice(expected.length - left.length));
    const printed = parse(result.stdout).map((record) => record.id);
    // Those the walk read before, in list order, then every contact left.
    const before = printed.length - left.length;
    expect(printed).toEqual([...expected.slice(0, before), ...left]);
    return before;
  }

  // The 8 searches back, half a page each, looked no nearer the head than offset 100, at contacts not
  // read yet, and the walk stopped with walk_outpaced (exit 1).
  it.each(WHOLE_LIST)('%s over 700 contacts, the 330 and more that 7 pages asked for deleted before the 8th is answered: it goes on from the head, every contact once, exit 0', async (_, argv, parse) => {
    expect(await deletedBehindTheWalk(argv, parse, 700, 8, false)).toBeGreaterThanOrEqual(300);
  });

  // Past 400 records written, the walk kept only the last 400 keys and could not start again from the
  // head: it stopped with walk_outpaced (exit 1) after 913.
  it.each(WHOLE_LIST)('%s over 1,300 contacts, those the first 20 pages asked for deleted before the 20th is answered (more than 400 written): it goes on from the head, every contact once, exit 0', async (_, argv, parse) => {
    expect(await deletedBehindTheWalk(argv, parse, 1300, 20, true)).toBeGreaterThan(400);
  });

  it('a walk from --offset 10 still stops with walk_outpaced (exit 1): the head page holds the 10 before its start', async () => {
    const argv = ['contacts', 'list', '--all', '--offset', '10', '--json'];
    const { result, expected } = await completingFirstPage(argv, 150, 'total');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('none of the records it had read are left at the head of the list');
    expect(liveIds().slice(0, 10)).toEqual(expected.slice(0, 10));
    // What it printed is the records it could prove, from its start: none before it.
    const printed = new Set(expected.slice(10, 59));
    expect(result.stdout.match(/"id": "[^"]+"/g)?.every((match) => printed.has(match.slice(7, -1)))).toBe(true);
  });
});
