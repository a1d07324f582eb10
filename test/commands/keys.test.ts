// Natural keys (issue 22, point 1): wherever a contact id is taken an email works, wherever an account
// id is taken its name works; found through the service's search filter, exact and unique, or the
// command stops before it writes anything. The request log shows what was asked.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { keyedResource, LOOKUP_MAX } from '../../src/commands/keys.js';
import { DEMO } from '../../src/registry/demo.js';
import { commandOptions } from '../../src/registry/options.js';
import { BASE_URL, json, run, scriptedPrompter, useWorkspace } from '../helpers/inprocess.js';
import { holding } from '../helpers/transports.js';

const ws = useWorkspace();
const terminal = { stdin: true, stdout: true, stderr: true, columns: 100 };

/** The demo contact by its email, in another case; and its account by name. */
const EMAIL = 'Zane.Sato@GlobexLogistics.com';
const CONTACT = DEMO.contact;
const NAME = 'Globex Logistics';
const ACCOUNT = 'acc_0blbrt4mztnd51cc';
const CONTACT_LOOKUP = `GET /api/v1/contacts?search=${encodeURIComponent(EMAIL)}&limit=50&offset=0`;
const ACCOUNT_LOOKUP = 'GET /api/v1/accounts?search=Globex+Logistics&limit=50&offset=0';

const sent = () => ws.requests().map((request) => `${request.method} ${request.url}`);

describe('every field that takes a contact or account id takes its email or name (from the registry)', () => {
  /** A call of each command with the natural key in that field (command name . field name). */
  const CALLS: Record<string, string[]> = {
    'contacts_get.ids': ['contacts', 'get', EMAIL],
    'contacts_view.id': ['contacts', 'view', EMAIL],
    'contacts_create.account_id': ['contacts', 'create', '--name', 'Keyed', '--email', 'keyed@example.com', '--account-id', NAME],
    'contacts_update.ids': ['contacts', 'update', EMAIL, '--status', 'customer'],
    'contacts_update.account_id': ['contacts', 'update', CONTACT, '--account-id', NAME],
    'contacts_delete.ids': ['contacts', 'delete', EMAIL],
    'contacts_notes_list.id': ['contacts', 'notes', 'list', EMAIL],
    'contacts_notes_add.id': ['contacts', 'notes', 'add', EMAIL, '--body', 'B'],
    'contacts_tasks_add.id': ['contacts', 'tasks', 'add', EMAIL, '--title', 'T'],
    'contacts_enroll.ids': ['contacts', 'enroll', EMAIL, '--sequence', DEMO.sequence],
    'accounts_get.ids': ['accounts', 'get', NAME],
    'accounts_view.id': ['accounts', 'view', NAME],
    'accounts_update.ids': ['accounts', 'update', NAME, '--industry', 'I'],
    'accounts_delete.ids': ['accounts', 'delete', NAME],
    'deals_list.account_id': ['deals', 'list', '--account-id', NAME],
    'deals_list.contact_id': ['deals', 'list', '--contact-id', EMAIL],
    'deals_create.account_id': ['deals', 'create', '--name', 'D', '--account-id', NAME],
    'deals_create.contact_id': ['deals', 'create', '--name', 'D', '--contact-id', EMAIL],
    'deals_update.account_id': ['deals', 'update', DEMO.deal, '--account-id', NAME],
    'deals_update.contact_id': ['deals', 'update', DEMO.deal, '--contact-id', EMAIL],
    'tasks_list.contact_id': ['tasks', 'list', '--contact-id', EMAIL],
    'tasks_create.contact_id': ['tasks', 'create', '--title', 'T', '--contact-id', EMAIL],
    'tasks_update.contact_id': ['tasks', 'update', DEMO.task, '--contact-id', EMAIL],
    'ai_suggestions.contact_id': ['ai', 'suggestions', '--contact-id', EMAIL],
    'ai_trigger.contact_id': ['ai', 'trigger', EMAIL],
    'sequences_enroll.contact_ids': ['sequences', 'enroll', DEMO.sequence, EMAIL],
  };

  const keyed = COMMANDS.flatMap((command) =>
    [...command.args, ...commandOptions(command)].filter((field) => keyedResource(field)).map((field) => [`${command.name}.${field.name}`, keyedResource(field)!] as const),
  );

  it('the table above names every such field of the tree, and nothing else', () => {
    expect(Object.keys(CALLS).sort()).toEqual(keyed.map(([name]) => name).sort());
  });

  it.each(keyed)('%s: --dry-run sends the look-up, then plans the request with the id', async (name, resource) => {
    const result = await run([...CALLS[name]!, '--dry-run', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(sent()).toEqual([resource === 'contact' ? CONTACT_LOOKUP : ACCOUNT_LOOKUP]);
    const plan = json(result) as Array<{ method: string; url: string; body: unknown }>;
    // The look-up is planned before every request that carries the id (a view's read that needs no id may go out with it).
    const lookUpAt = plan.findIndex((request) => `${request.method} ${request.url}` === (resource === 'contact' ? CONTACT_LOOKUP : ACCOUNT_LOOKUP).replace('/api/v1', BASE_URL));
    expect(lookUpAt).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(plan.slice(0, lookUpAt))).not.toContain(resource === 'contact' ? CONTACT : ACCOUNT);
    expect(JSON.stringify(plan.slice(lookUpAt + 1))).toContain(resource === 'contact' ? CONTACT : ACCOUNT);
    expect(JSON.stringify(plan.slice(lookUpAt + 1))).not.toContain(resource === 'contact' ? EMAIL : NAME);
  });
});

describe('a natural key found', () => {
  it('contacts get EMAIL: the look-up, then the contact (the email in any case)', async () => {
    const result = await run(['contacts', 'get', EMAIL, '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ id: CONTACT, email: 'zane.sato@globexlogistics.com' });
    expect(sent()).toEqual([CONTACT_LOOKUP, `GET /api/v1/contacts/${CONTACT}`]);
  });

  it('deals create --account-id NAME --contact-id EMAIL sends the ids', async () => {
    const result = await run(['deals', 'create', '--name', 'Keyed Deal', '--account-id', NAME, '--contact-id', EMAIL, '--json'], { ws });
    expect(result.code).toBe(0);
    expect(JSON.parse(ws.requests(/POST/)[0]!.body)).toEqual({ name: 'Keyed Deal', account_id: ACCOUNT, contact_id: CONTACT });
  });

  it('the look-ups of a body and of the arguments go out together, before either is answered, and the write waits for both', async () => {
    const held = holding(ws);
    const running = run(['contacts', 'update', EMAIL, '--account-id', NAME, '--json'], { ws: held });
    await held.untilHeld(2);
    expect([...held.held()].sort()).toEqual([ACCOUNT_LOOKUP, CONTACT_LOOKUP].sort());
    held.answer(ACCOUNT_LOOKUP);
    held.release();
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(sent().slice(2)).toEqual([`PATCH /api/v1/contacts/${CONTACT}`]);
    expect(JSON.parse(ws.requests(/PATCH/)[0]!.body)).toEqual({ account_id: ACCOUNT });
  });

  it('deals create --account-id NAME --contact-id EMAIL: both look-ups in flight at once, a dry run too', async () => {
    for (const dryRun of [[], ['--dry-run']]) {
      ws.log.length = 0;
      const held = holding(ws);
      const running = run(['deals', 'create', '--name', 'Together', '--account-id', NAME, '--contact-id', EMAIL, ...dryRun], { ws: held });
      await held.untilHeld(2);
      expect([...held.held()].sort()).toEqual([ACCOUNT_LOOKUP, CONTACT_LOOKUP].sort());
      held.release();
      const result = await running;
      expect(result.code, result.stderr).toBe(0);
      expect(ws.requests(/POST/)).toHaveLength(dryRun.length === 0 ? 1 : 0);
    }
  });

  it('an account is matched by its exact name among what the search gives (a search that matches more loosely, or not at all)', async () => {
    const loose = [{ id: 'acc_1x', name: 'Globex Logistics Europe' }, { id: ACCOUNT, name: NAME }, { id: 'acc_3x', name: 'Umbrella Health' }];
    ws.fault({ match: /GET \/api\/v1\/accounts\?search=.*offset=0$/, status: 200, body: JSON.stringify({ data: loose, error: null }) });
    ws.fault({ match: /GET \/api\/v1\/accounts\?search=.*offset=2$/, status: 200, body: JSON.stringify({ data: loose.slice(2), error: null }) });
    const result = await run(['accounts', 'update', NAME, '--industry', 'Freight', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    // Without a total, one page more from the last record tells a short page from a service's cap.
    expect(sent()).toEqual([ACCOUNT_LOOKUP, ACCOUNT_LOOKUP.replace('offset=0', 'offset=2'), `PATCH /api/v1/accounts/${ACCOUNT}`]);
  });
});

describe('a natural key not found, or not unique: nothing is written', () => {
  it('none: exit 4 naming what was looked for; only the look-up was sent', async () => {
    const result = await run(['contacts', 'update', 'nobody@example.com', '--status', 'customer'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('crm: no contact with email nobody@example.com\n');
    expect(sent()).toEqual([`GET /api/v1/contacts?search=nobody%40example.com&limit=50&offset=0`]);
  });

  it('both of two look-ups fail: the error is the first field\'s, as when they went one after the other, and nothing is written', async () => {
    const result = await run(['deals', 'create', '--name', 'D', '--account-id', 'Nobody Ltd', '--contact-id', 'nobody@example.com'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('crm: no account with name "Nobody Ltd"\n');
    expect(ws.requests(/POST/)).toHaveLength(0);
  });

  it('a name that differs only in case is not a match; the hint names the account', async () => {
    const result = await run(['accounts', 'delete', 'globex logistics', '--yes'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`crm: no account with name "globex logistics"\nhint: did you mean "Globex Logistics" (${ACCOUNT})?\n`);
    expect(ws.requests(/DELETE/)).toHaveLength(0);
  });

  it('several: exit 2 listing the ids; nothing else sent', async () => {
    const first = ws.api('POST', '/accounts', { name: 'Twin Peaks Ltd' }).data;
    const second = ws.api('POST', '/accounts', { name: 'Twin Peaks Ltd' }).data;
    const result = await run(['deals', 'create', '--name', 'D', '--account-id', 'Twin Peaks Ltd'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`crm: 2 accounts have name "Twin Peaks Ltd": ${second.id}, ${first.id}\nhint: pass one of the ids instead\n`);
    expect(sent()).toEqual(['GET /api/v1/accounts?search=Twin+Peaks+Ltd&limit=50&offset=0']);
  });

  it('one record the search answers twice (a page that repeats it) is one record, not several', async () => {
    const ada = { id: CONTACT, name: 'Zane Sato', email: 'zane.sato@globexlogistics.com', created_at: '2026-01-01T00:00:00Z' };
    ws.fault({ match: /^GET \/api\/v1\/contacts\?search=/, status: 200, body: JSON.stringify({ data: { contacts: [ada, ada], total: 2 }, error: null }) });
    const result = await run(['contacts', 'get', EMAIL, '--json'], { ws });
    expect(result.stderr).toBe('');
    expect(json(result).id).toBe(CONTACT);
  });

  it('a match the service marks deleted (a workspace whose search lists soft-deleted contacts) is not a match: the live one is found; none live is exit 4 saying so', async () => {
    const live = { id: CONTACT, name: 'Zane Sato', email: 'zane.sato@globexlogistics.com', deleted_at: null, created_at: '2026-03-01T00:00:00Z' };
    const gone = { id: 'con_gone1', name: 'Zane Sato', email: 'zane.sato@globexlogistics.com', deleted_at: '2026-02-01T00:00:00Z', created_at: '2026-01-01T00:00:00Z' };
    const goneToo = { id: 'con_gone2', name: 'Zane Sato', email: 'zane.sato@globexlogistics.com', deleted: true, created_at: '2025-12-01T00:00:00Z' };
    const answer = (contacts: object[]) => JSON.stringify({ data: { contacts, total: contacts.length }, error: null });
    ws.fault({ match: /^GET \/api\/v1\/contacts\?search=/, status: 200, body: answer([live, gone, goneToo]) });
    const found = await run(['contacts', 'get', EMAIL, '--json'], { ws });
    expect(found.code, found.stderr).toBe(0);
    expect(json(found).id).toBe(CONTACT);

    ws.fault({ match: /^GET \/api\/v1\/contacts\?search=/, status: 200, body: answer([gone, goneToo]) });
    const none = await run(['contacts', 'update', EMAIL, '--status', 'customer'], { ws });
    expect(none.code).toBe(4);
    expect(none.stderr).toBe(`crm: no contact with email ${EMAIL}\nhint: con_gone1, con_gone2 have that email but were deleted\n`);
    expect(ws.requests(/PATCH/)).toHaveLength(0);
  });

  it('an email the workspace keeps with spaces around it (an import that did not trim) is still that contact\'s', async () => {
    const kept = { id: CONTACT, name: 'Zane Sato', email: ' zane.sato@globexlogistics.com\t', created_at: '2026-01-01T00:00:00Z' };
    ws.fault({ match: /^GET \/api\/v1\/contacts\?search=/, status: 200, body: JSON.stringify({ data: { contacts: [kept], total: 1 }, error: null }) });
    const result = await run(['contacts', 'get', EMAIL, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).id).toBe(CONTACT);
  });

  it(`more candidates than a look-up reads (${LOOKUP_MAX}): exit 2, it looked no further`, async () => {
    for (let n = 0; n <= LOOKUP_MAX; n++) ws.api('POST', '/accounts', { name: `Bound Holdings ${n}` });
    const result = await run(['accounts', 'get', 'Bound Holdings'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `crm: more than ${LOOKUP_MAX} accounts match the service's search for "Bound Holdings": crm looked no further, so it cannot tell which one has that name\nhint: pass the account's id\n`,
    );
    expect(sent().every((request) => request.startsWith('GET /api/v1/accounts?search=Bound+Holdings&limit='))).toBe(true);
    expect(sent().length).toBeLessThanOrEqual(3);
  });
});

describe('checks before the look-up', () => {
  it.each([
    [['contacts', 'get', 'ada@'], 'crm: ID: invalid email "ada@"'],
    [['contacts', 'update', EMAIL], 'crm: nothing to update'],
    [['deals', 'create', '--account-id', NAME], 'crm: missing required --name'],
    [['tasks', 'list', '--contact-id', 'a@b'], 'crm: --contact-id: invalid email "a@b"'],
    [['accounts', 'delete', NAME], `crm: refusing to delete account ${NAME} without confirmation`],
    [['ai', 'trigger', EMAIL, '--data', '{'], 'crm: invalid JSON in --data (the argument): '],
  ])('%j exits 2 and sends nothing', async (argv, message) => {
    const result = await run(argv, { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]!.startsWith(message), result.stderr).toBe(true);
    expect(ws.requests()).toHaveLength(0);
  });

  it('an account name may hold spaces and characters an id never holds; an id may not', async () => {
    const name = 'Kite & Key / Legal';
    const account = ws.api('POST', '/accounts', { name }).data;
    const result = await run(['accounts', 'get', name, '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result).id).toBe(account.id);
    const bad = await run(['deals', 'get', 'deal x'], { ws });
    expect(bad.code).toBe(2);
  });
});

describe('pickers at a terminal', () => {
  it('deals create: the account and the contact picked by typing part of a name', async () => {
    const prompter = scriptedPrompter(['Picked Deal', '900', 'proposal', { type: 'Globex Log' }, { type: 'zane' }]);
    const result = await run(['deals', 'create'], { ws, tty: terminal, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked.slice(3)).toEqual([
      `Account (optional) (typed "Globex Log") [, ${ACCOUNT}]`,
      expect.stringMatching(new RegExp(`^Primary contact \\(optional\\) \\(typed "zane"\\) \\[, .*${CONTACT}`)),
    ]);
    expect(sent()).toContain('GET /api/v1/accounts?limit=20&search=Globex+Log');
    expect(JSON.parse(ws.requests(/POST/)[0]!.body)).toEqual({ name: 'Picked Deal', amount: 900, stage: 'proposal', account_id: ACCOUNT, contact_id: expect.stringMatching(/^con_/) });
  });

  it('tasks create: "no contact" leaves the field out', async () => {
    const prompter = scriptedPrompter(['Picked Task', 'tomorrow', '']);
    const result = await run(['tasks', 'create'], { ws, tty: terminal, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked[2]).toMatch(/^Contact \(optional\) \[, con_/);
    expect(JSON.parse(ws.requests(/POST/)[0]!.body)).toEqual({ title: 'Picked Task', due_date: expect.any(String) });
  });

  it('a script is never asked: a missing name is exit 2, nothing sent', async () => {
    const result = await run(['deals', 'create'], { ws });
    expect(result.code).toBe(2);
    expect(ws.requests()).toHaveLength(0);
  });
});
