// Every command that walks a list, against the sandbox while another client deletes and creates
// contacts between its requests (issue 17): contacts list --limit and --all, contacts export, crm api
// --paginate, search --all. Each must print every contact that exists for the whole walk exactly
// once (exit 0) at the rate the walk keeps up with, and beyond it stop with exit 1 saying so, never
// exit 0 with a contact missing. In-process: the sandbox's own handler behind a transport that changes
// the list before it answers each page.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { random } from '../helpers/churning-list.js';
import { json, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';

const ws = useWorkspace();

interface Churn {
  /** Contacts deleted before each page is answered, anywhere among the walk's contacts (ahead of it too). */
  deleteAnywhere?: number;
  /** The oldest contacts deleted before each page is answered (someone tidying up, ahead of the walk). */
  deleteOldest?: number;
  /** Contacts created at the head before each page is answered. */
  create?: number;
  /** After a page is answered, its last contacts are deleted (the records being read). */
  deleteJustRead?: number;
  withTotal?: boolean;
  /** The n-th contact's email (default `<marker>-<n>@example.com`). */
  email?: (n: number) => string;
  /** The oldest contact is never deleted (the one a look-up must find). */
  spareOldest?: boolean;
}

/**
 * `size` contacts of their own (found by `search=marker`), newest first as the service lists them,
 * and a workspace whose list answers change them as `churn` says. The first page is answered as it
 * is: the walk starts on a list it can see.
 */
function churningList(marker: string, size: number, churn: Churn, seed = 1) {
  const rnd = random(seed);
  const live: string[] = [];
  let made = 0;
  const create = () => {
    const email = churn.email?.(made) ?? `${marker}-${made}@example.com`;
    const created = ws.api('POST', '/contacts', { name: `${marker} ${made++}`, email });
    expect(created.status).toBe(201);
    live.unshift(created.data.id as string);
  };
  const remove = (index: number) => {
    const [id] = live.splice(index, 1);
    expect(ws.api('DELETE', `/contacts/${id}`).status).toBe(200);
    deleted.add(id!);
  };
  for (let index = 0; index < size; index++) create();
  const initial = [...live];
  const deleted = new Set<string>();
  let pages = 0;
  const transport: Transport = async (request) => {
    const isPage = request.method === 'GET' && request.url.includes(`search=${marker}`);
    if (isPage && pages++ > 0) {
      const deletable = live.length - (churn.spareOldest ? 1 : 0);
      for (let index = 0; index < (churn.deleteAnywhere ?? 0) && deletable > index; index++) remove(Math.floor(rnd() * (deletable - index)));
      for (let index = 0; index < (churn.deleteOldest ?? 0) && live.length > (churn.spareOldest ? 1 : 0); index++) remove(live.length - (churn.spareOldest ? 2 : 1));
      for (let index = 0; index < (churn.create ?? 0); index++) create();
    }
    const response = await ws.transport(request);
    if (!isPage) return response;
    const body = JSON.parse(response.body);
    const page = (Array.isArray(body.data) ? body.data : body.data.contacts) as Array<{ id: string }>;
    for (const contact of page.slice(-(churn.deleteJustRead ?? 0) || page.length)) {
      if (churn.deleteJustRead && live.includes(contact.id)) remove(live.indexOf(contact.id));
    }
    if (churn.withTotal === false) delete body.data.total;
    return { ...response, body: JSON.stringify(body) };
  };
  return {
    workspace: { ...ws, transport } as Workspace,
    pages: () => pages,
    /** The contacts there from the start that were never deleted: the walk owes each exactly once. */
    survivors: () => initial.filter((id) => !deleted.has(id)),
    deleted,
  };
}

/** Every survivor printed, none twice. */
function expectEachOnce(printed: string[], survivors: string[]): void {
  expect(printed.filter((id, index) => printed.indexOf(id) !== index), 'printed twice').toEqual([]);
  const seen = new Set(printed);
  expect(survivors.filter((id) => !seen.has(id)), 'there for the whole walk, not printed').toEqual([]);
}

const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean);

describe('one contact deleted before each page, not among those being read (issue 17)', () => {
  it('contacts list -L 200 with the oldest contact deleted each time prints every live contact (it printed 50 of 99)', async () => {
    const list = churningList('wlimitq', 150, { deleteOldest: 1 }, 3);
    const result = await run(['contacts', 'list', '-L', '200', '--search', 'wlimitq', '-q'], { ws: list.workspace });
    expect(result.code).toBe(0);
    expectEachOnce(lines(result.stdout), list.survivors());
    expect(list.deleted.size).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['contacts export', 'wexportq', (marker: string) => ['contacts', 'export', '--search', marker, '--format', 'ndjson'], (stdout: string) => lines(stdout).map((line) => JSON.parse(line).id)],
    ['contacts list --all', 'wallq', (marker: string) => ['contacts', 'list', '--all', '--search', marker, '-q'], lines],
    ['crm api --paginate', 'wapiq', (marker: string) => ['api', 'GET', '/contacts', '-f', `search=${marker}`, '--paginate'], (stdout: string) => JSON.parse(stdout).map((contact: { id: string }) => contact.id)],
  ])('%s, with one contact deleted anywhere, prints every contact of 800 there for the whole walk once (it printed 158 of 546)', async (_, marker, argv, ids) => {
    const list = churningList(marker, 800, { deleteAnywhere: 1 }, marker.length);
    const result = await run(argv(marker), { ws: list.workspace });
    expect(result.code, result.stderr).toBe(0);
    expectEachOnce(ids(result.stdout), list.survivors());
    // 17 pages of 49; the old walk went back to its start time and again (255 requests).
    expect(list.pages()).toBeLessThanOrEqual(30);
  });

  it('search --all walks the same way', async () => {
    const list = churningList('wsearchq', 300, { deleteAnywhere: 1 }, 5);
    const result = await run(['search', 'wsearchq', '--types', 'contacts', '--all', '--json'], { ws: list.workspace });
    expect(result.code, result.stderr).toBe(0);
    expectEachOnce(json(result).map((found: { id: string }) => found.id), list.survivors());
  });
});

describe('contacts import --upsert', () => {
  it('finds the contact with the email on the third page of a search while others are deleted ahead of the look-up, and updates it (no duplicate)', async () => {
    // Every contact's email holds the one looked for: the sandbox's search matches substrings.
    const list = churningList('wimportq', 130, { deleteOldest: 1, spareOldest: true, email: (n) => (n === 0 ? 'wimportq@example.com' : `n${n}.wimportq@example.com`) }, 11);
    const file = join(ws.home, 'upsert.csv');
    writeFileSync(file, 'name,email\nAda Upserted,wimportq@example.com\n');
    const result = await run(['contacts', 'import', file, '--upsert', '--json'], { ws: list.workspace });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject([{ result: 'updated' }]);
    const found: Array<{ name: string; email: string }> = [];
    for (let offset = 0; offset < 200; offset += 50) found.push(...ws.api('GET', `/contacts?search=wimportq@example.com&limit=50&offset=${offset}`).data.contacts);
    expect(found.filter((contact) => contact.email === 'wimportq@example.com')).toMatchObject([{ name: 'Ada Upserted' }]);
    expect(list.pages()).toBeGreaterThanOrEqual(3);
  });
});

describe('without a total, the last contacts of each page deleted as it is read (it printed records twice)', () => {
  it('prints every contact there for the whole walk once', async () => {
    const list = churningList('wtotalq', 800, { deleteJustRead: 5, withTotal: false }, 7);
    const result = await run(['contacts', 'list', '--all', '--search', 'wtotalq', '-q'], { ws: list.workspace });
    expect(result.code, result.stderr).toBe(0);
    expectEachOnce(lines(result.stdout), list.survivors());
    expect(list.deleted.size).toBeGreaterThan(10);
  });
});

describe('beyond the rate the walk keeps up with', () => {
  it('a list growing by more than a page a request: exit 1 saying so, after contacts printed once each', async () => {
    const list = churningList('wgrowq', 300, { create: 60 }, 9);
    const result = await run(['contacts', 'list', '--all', '--search', 'wgrowq', '-q'], { ws: list.workspace });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^crm: the list changed faster than crm could walk it: .*; \d+ records were written, others may be missing\nhint: /);
    const printed = lines(result.stdout);
    expect(printed.filter((id, index) => printed.indexOf(id) !== index)).toEqual([]);
  });
});
