// crm contacts|accounts|deals view: a record whole. Each part is checked against the workspace read
// directly; a held transport answers one request at a time, so the log proves which requests went
// out together and that the related records were asked for as soon as the record named them; a
// workspace that ignores the assumed filters, that crm checks what comes back.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { json, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';
import { holding, ignoring } from '../helpers/transports.js';

const ws = useWorkspace();

/** Every record of a list, newest first, read directly. */
function all(workspace: Workspace, path: string, key: string): any[] {
  const records: any[] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let offset = 0; ; offset += 50) {
    const page = workspace.api('GET', `${path}${join}limit=50&offset=${offset}`).data[key];
    records.push(...page);
    if (page.length < 50) return records;
  }
}

const ids = (records: any[]) => records.map((record) => record.id);
const sent = (workspace: Workspace) => workspace.log.map((request) => `${request.method} ${request.url}`);

/** A contact with something in every part: a pending suggestion (the seed's), an account with an open deal, a note, an open task, an enrolment. */
function richContact(workspace: Workspace): { contact: any; sequence: any; deal: any } {
  const suggestion = all(workspace, '/ai/suggestions', 'suggestions').find((one) => one.contact_id);
  const contact = workspace.api('GET', `/contacts/${suggestion.contact_id}`).data;
  const accountId = contact.account_id ?? workspace.api('PATCH', `/contacts/${contact.id}`, { account_id: DEMO.account }).data.account_id;
  const deal = workspace.api('POST', '/deals', { name: 'Whole view: open deal', amount: 5000, stage: 'proposal', account_id: accountId }).data;
  workspace.api('POST', `/contacts/${contact.id}/notes`, { body: 'Whole view: a note' });
  workspace.api('POST', `/contacts/${contact.id}/tasks`, { title: 'Whole view: a task', due_date: '2030-01-01' });
  const sequence = all(workspace, '/sequences', 'sequences').find((one) => one.status === 'active');
  const enrolled = all(workspace, `/sequences/${sequence.id}/contacts`, 'contacts').some((one) => one.id === contact.id);
  if (!enrolled) workspace.api('POST', `/contacts/${contact.id}/sequences`, { sequence_id: sequence.id });
  return { contact: workspace.api('GET', `/contacts/${contact.id}`).data, sequence, deal };
}

/** Where each of the contact's parts is, as the workspace has it. */
function expectedContactView(workspace: Workspace, contact: any) {
  const sequences = all(workspace, '/sequences', 'sequences');
  return {
    notes: all(workspace, `/contacts/${contact.id}/notes`, 'notes'),
    tasks: all(workspace, '/tasks', 'tasks').filter((task) => task.contact_id === contact.id && task.status === 'open'),
    sequences: sequences.filter((sequence) => all(workspace, `/sequences/${sequence.id}/contacts`, 'contacts').some((one) => one.id === contact.id)),
    account: workspace.api('GET', `/accounts/${contact.account_id}`).data,
    deals: all(workspace, '/deals', 'deals').filter((deal) => deal.account_id === contact.account_id && deal.status === 'open'),
    suggestion: all(workspace, '/ai/suggestions', 'suggestions').find((one) => one.contact_id === contact.id),
  };
}

describe('crm contacts view', () => {
  it('--json: the contact found by its email, with its notes, open tasks, enrolments, account and its open deals, latest suggestion', async () => {
    const { contact, sequence, deal } = richContact(ws);
    const expected = expectedContactView(ws, contact);
    ws.log.length = 0;
    const result = await run(['contacts', 'view', contact.email.toUpperCase(), '--json', '--limit', '50'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const view = json(result);
    expect(view.contact).toEqual(contact);
    expect(view.notes).toMatchObject({ count: expected.notes.length, complete: true, filtered_locally: false });
    expect(ids(view.notes.records)).toEqual(ids(expected.notes));
    expect(view.tasks_open.count).toBe(expected.tasks.length);
    expect(ids(view.tasks_open.records).sort()).toEqual(ids(expected.tasks).sort());
    expect(view.enrollments).toMatchObject({ count: expected.sequences.length, complete: true, filtered_locally: true });
    expect(view.enrollments.records.map((one: any) => one.sequence_id).sort()).toEqual(ids(expected.sequences).sort());
    expect(view.enrollments.records.find((one: any) => one.sequence_id === sequence.id)).toMatchObject({ sequence: sequence.name, status: 'active', enrolled_at: expect.any(String) });
    expect(view.account).toEqual(expected.account);
    expect(ids(view.account_deals_open.records).sort()).toEqual(ids(expected.deals).sort());
    expect(ids(view.account_deals_open.records)).toContain(deal.id);
    expect(view.latest_suggestion).toEqual(expected.suggestion);
    expect(view.filtered_locally).toEqual(['enrollments']);
    // The email was looked up first; nothing but the sequences (which do not need the id) was sent before its answer.
    const requests = sent(ws);
    expect(requests.slice(0, 2).sort()).toEqual([`GET /api/v1/contacts?search=${encodeURIComponent(contact.email.toUpperCase())}&limit=50&offset=0`, 'GET /api/v1/sequences?limit=50&offset=0'].sort());
    expect(requests).toContain(`GET /api/v1/contacts/${contact.id}`);
    expect(requests).toContain(`GET /api/v1/tasks?contact_id=${contact.id}&status=open&limit=50`);
    expect(requests).toContain(`GET /api/v1/deals?account_id=${contact.account_id}&status=open&limit=50`);
    expect(requests).toContain(`GET /api/v1/ai/suggestions?contact_id=${contact.id}&limit=50`);
    expect(ws.log.every((request) => request.method === 'GET')).toBe(true);
  });

  it('sends the contact and every part that needs only its id at once, and the account\'s requests as soon as the contact is answered', async () => {
    const { contact } = richContact(ws);
    const held = holding(ws);
    const running = run(['contacts', 'view', contact.id, '--json'], { ws: held });
    const first = [
      `GET /api/v1/contacts/${contact.id}`,
      `GET /api/v1/contacts/${contact.id}/notes?limit=50`,
      `GET /api/v1/tasks?contact_id=${contact.id}&status=open&limit=50`,
      'GET /api/v1/sequences?limit=50&offset=0',
      `GET /api/v1/ai/suggestions?contact_id=${contact.id}&limit=50`,
    ];
    await held.untilHeld(first.length);
    expect([...held.held()].sort()).toEqual([...first].sort());
    // The contact's answer alone lets the account and its deals go out, the other parts still unanswered.
    held.answer(`GET /api/v1/contacts/${contact.id}`);
    await held.untilHeld(first.length + 1);
    expect(held.held()).toEqual(expect.arrayContaining([`GET /api/v1/accounts/${contact.account_id}`, `GET /api/v1/deals?account_id=${contact.account_id}&status=open&limit=50`]));
    expect(held.held()).toEqual(expect.arrayContaining(first.slice(1)));
    held.release();
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).account.id).toBe(contact.account_id);
  });

  it('reads each sequence\'s contacts until it meets the contact, no further', async () => {
    const { contact, sequence } = richContact(ws);
    const result = await run(['contacts', 'view', contact.id, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const pages = ws.requests(new RegExp(`/sequences/${sequence.id}/contacts`));
    const position = all(ws, `/sequences/${sequence.id}/contacts`, 'contacts').findIndex((one) => one.id === contact.id);
    // A page at a time (each after the first overlaps the one before by two records), up to the page that holds it.
    expect(pages.length).toBe(position < 50 ? 1 : 1 + Math.ceil((position + 1 - 50) / 48));
  });

  it('checks what comes back: a workspace that ignores the filters gives the same parts, and stderr and filtered_locally say crm chose them', async () => {
    const { contact } = richContact(ws);
    const strict = json(await run(['contacts', 'view', contact.id, '--json', '--limit', '50'], { ws }));
    const result = await run(['contacts', 'view', contact.id, '--json', '--limit', '50'], { ws: ignoring(ws, ['contact_id', 'account_id', 'status']) });
    expect(result.code, result.stderr).toBe(0);
    const view = json(result);
    for (const part of ['tasks_open', 'account_deals_open']) {
      expect({ part, records: ids(view[part].records).sort(), count: view[part].count }).toEqual({ part, records: ids(strict[part].records).sort(), count: strict[part].count });
    }
    expect(view.latest_suggestion).toEqual(strict.latest_suggestion);
    expect(view.filtered_locally).toEqual(['tasks_open', 'enrollments', 'account_deals_open', 'latest_suggestion']);
    expect(result.stderr).toMatch(/^Filtered by crm \(the service has no such filter\): open tasks \(from the \d+ open tasks\), sequences \(from the \d+ enrolled contacts of the sequences\), /m);
  });

  it('on a terminal: a section a part, each with its count', async () => {
    const { contact } = richContact(ws);
    const result = await run(['contacts', 'view', contact.id, '--limit', '1', '--no-color'], { ws, tty: { stdout: true, stderr: true, columns: 100 } });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    const titles = [`Contact ${contact.id}\n`, 'Notes (', 'Open tasks (', 'Sequences (', 'Account\n', 'Open deals of ', 'Latest suggestion\n'];
    for (const title of titles) expect(out).toContain(title);
    expect(titles.map((title) => out.indexOf(title))).toEqual(titles.map((title) => out.indexOf(title)).sort((a, b) => a - b));
    expect(out).toMatch(new RegExp(`email +${contact.email.replace('.', '\\.')}\n`));
    expect(out).toMatch(new RegExp(`…and \\d+ more: crm contacts notes list ${contact.id}\n`));
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('a contact without an account says so, and asks for no deals', async () => {
    const contact = ws.api('POST', '/contacts', { name: 'No Account', email: 'no.account@example.com' }).data;
    const result = await run(['contacts', 'view', contact.id, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const view = json(result);
    expect(view).toMatchObject({ account: null, account_deals_open: null, latest_suggestion: null, notes: { count: 0, records: [] }, enrollments: { count: 0 } });
    expect(sent(ws).some((request) => request.includes('/deals') || request.includes('/accounts'))).toBe(false);
  });

  it('a part the key may not read is said in its place, the others shown, exit 7', async () => {
    const { contact } = richContact(ws);
    ws.fault({ match: /\/ai\/suggestions/, status: 403, body: JSON.stringify({ data: null, error: 'Missing scope ai:read' }) });
    const result = await run(['contacts', 'view', contact.id, '--json'], { ws });
    expect(result.code).toBe(7);
    const view = json(result);
    // null as for a contact without a pending suggestion, but named in errors: a script tells failed from none there.
    expect(view).toHaveProperty('latest_suggestion', null);
    expect(view.errors).toEqual([{ part: 'latest_suggestion', message: 'Missing scope ai:read', status: 403 }]);
    expect(view.notes.count).toBeGreaterThan(0);
    expect(result.stderr).toContain(`crm: crm contacts view ${contact.id}: some parts could not be read: latest suggestion (Missing scope ai:read)`);
  });

  it('a part the service fails (500 after the retries, a timeout) is said in its place, the contact and the other parts shown, exit 7', async () => {
    const { contact } = richContact(ws);
    ws.fault({ match: /\/notes/, status: 500, times: Infinity, body: JSON.stringify({ data: null, error: 'notes store down' }) });
    ws.fault({ match: /^GET \/api\/v1\/sequences/, network: { code: 'ETIMEDOUT', delivered: true }, times: Infinity });
    const result = await run(['contacts', 'view', contact.id, '--json'], { ws });
    expect(result.code, result.stderr).toBe(7);
    const view = json(result);
    expect(view.contact.id).toBe(contact.id);
    expect(view.errors.map((failure: { part: string; status?: number }) => [failure.part, failure.status])).toEqual([['notes', 500], ['enrollments', undefined]]);
    expect(Object.keys(view)).toEqual(['contact', 'notes', 'tasks_open', 'enrollments', 'account', 'account_deals_open', 'latest_suggestion', 'filtered_locally', 'errors']);
    expect(view).toMatchObject({ notes: null, enrollments: null });
    expect(view.tasks_open.count).toBeGreaterThan(0);
    expect(result.stderr).toContain(`crm: crm contacts view ${contact.id}: some parts could not be read: notes (notes store down); enrollments (`);
  });

  it('notes whose contact_id is null (a workspace that does not fill it in a contact\'s own notes) are the contact\'s', async () => {
    const { contact } = richContact(ws);
    const notes = [{ id: 'note_1', body: 'First', contact_id: null }, { id: 'note_2', body: 'Second', contact_id: contact.id }];
    ws.fault({ match: /\/notes/, status: 200, body: JSON.stringify({ data: { notes, total: 2 }, error: null }) });
    const result = await run(['contacts', 'view', contact.id, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).notes).toMatchObject({ count: 2, complete: true, filtered_locally: false });
    expect(ids(json(result).notes.records)).toEqual(['note_1', 'note_2']);
  });

  it('a contact that does not exist is exit 4 naming it, whatever its parts said', async () => {
    const result = await run(['contacts', 'view', 'con_nobody'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('contact con_nobody not found');
  });

  it('an email no contact has is exit 4; only the look-up and the sequences that went out with it were sent', async () => {
    const result = await run(['contacts', 'view', 'nobody@example.com'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('no contact with email nobody@example.com');
    expect(sent(ws).sort()).toEqual(['GET /api/v1/contacts?search=nobody%40example.com&limit=50&offset=0', 'GET /api/v1/sequences?limit=50&offset=0']);
  });

  it('by email: the sequences go out with the look-up; once it is answered, the contact, its parts and the account the look-up listed it with, at once', async () => {
    const { contact } = richContact(ws);
    const held = holding(ws);
    const running = run(['contacts', 'view', contact.email, '--json'], { ws: held });
    const lookUp = `GET /api/v1/contacts?search=${encodeURIComponent(contact.email)}&limit=50&offset=0`;
    await held.untilHeld(2);
    expect([...held.held()].sort()).toEqual([lookUp, 'GET /api/v1/sequences?limit=50&offset=0'].sort());
    held.answer(lookUp);
    const second = [
      `GET /api/v1/contacts/${contact.id}`,
      `GET /api/v1/contacts/${contact.id}/notes?limit=50`,
      `GET /api/v1/tasks?contact_id=${contact.id}&status=open&limit=50`,
      `GET /api/v1/ai/suggestions?contact_id=${contact.id}&limit=50`,
      `GET /api/v1/accounts/${contact.account_id}`,
      `GET /api/v1/deals?account_id=${contact.account_id}&status=open&limit=50`,
    ];
    await held.untilHeld(1 + second.length);
    expect([...held.held()].sort()).toEqual(['GET /api/v1/sequences?limit=50&offset=0', ...second].sort());
    held.release();
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).account.id).toBe(contact.account_id);
    // Each read once: the account's reads sent ahead were the ones used.
    expect(sent(ws).filter((request) => request === `GET /api/v1/accounts/${contact.account_id}`)).toHaveLength(1);
  });

  it('by email, when the contact names another account than the look-up listed it with: that account is read, and what was read ahead is not shown', async () => {
    const { contact } = richContact(ws);
    const stale = { ...contact, account_id: 'acc_listedbefore' };
    ws.fault({ match: /^GET \/api\/v1\/contacts\?search=/, status: 200, body: JSON.stringify({ data: { contacts: [stale], total: 1 }, error: null }) });
    const result = await run(['contacts', 'view', contact.email, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const view = json(result);
    expect(view.account.id).toBe(contact.account_id);
    expect(view.errors).toBeUndefined();
    expect(sent(ws)).toEqual(expect.arrayContaining(['GET /api/v1/accounts/acc_listedbefore', `GET /api/v1/accounts/${contact.account_id}`]));
  });

  it('--dry-run plans the requests that need only the id and sends none', async () => {
    const result = await run(['contacts', 'view', DEMO.contact, '--dry-run'], { ws });
    expect(result.code, result.stderr).toBe(0);
    for (const path of [`/contacts/${DEMO.contact}`, `/contacts/${DEMO.contact}/notes?limit=50`, `/tasks?contact_id=${DEMO.contact}&status=open&limit=50`, '/sequences?limit=50&offset=0', `/ai/suggestions?contact_id=${DEMO.contact}&limit=50`]) {
      expect(result.stdout).toContain(`GET http://127.0.0.1:9/api/v1${path}\n`);
    }
    expect(ws.log).toHaveLength(0);
  });
});

describe('crm accounts view', () => {
  it('--json: the account found by its name, its contacts (chosen by crm) and its deals, open first', async () => {
    const account = ws.api('GET', `/accounts/${DEMO.account}`).data;
    ws.api('POST', '/deals', { name: 'Account view: open deal', amount: 1000, stage: 'qualification', account_id: account.id });
    const contacts = all(ws, '/contacts', 'contacts').filter((contact) => contact.account_id === account.id);
    const deals = all(ws, '/deals', 'deals').filter((deal) => deal.account_id === account.id);
    expect(contacts.length).toBeGreaterThan(0);
    ws.log.length = 0;
    const result = await run(['accounts', 'view', account.name, '--json', '--limit', '50'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const view = json(result);
    expect(view.account).toEqual(account);
    expect(view.contacts).toMatchObject({ count: contacts.length, complete: true, filtered_locally: true });
    expect(ids(view.contacts.records)).toEqual(ids(contacts));
    expect(view.deals).toMatchObject({ count: deals.length, complete: true, filtered_locally: false });
    expect(ids(view.deals.records).sort()).toEqual(ids(deals).sort());
    const open = view.deals.records.map((deal: any) => deal.status === 'open');
    expect(open).toEqual([...open].sort((a: boolean, b: boolean) => Number(b) - Number(a)));
    expect(view.filtered_locally).toEqual(['contacts']);
    expect(result.stderr).toMatch(/Filtered by crm \(the service has no such filter\): contacts \(from the \d+ contacts\)\./);
    expect(sent(ws)[0]).toBe(`GET /api/v1/accounts?search=${encodeURIComponent(account.name).replace(/%20/g, '+')}&limit=50&offset=0`);
  });

  it('sends its three reads at once', async () => {
    const held = holding(ws);
    const running = run(['accounts', 'view', DEMO.account, '--json'], { ws: held });
    const first = [`GET /api/v1/accounts/${DEMO.account}`, 'GET /api/v1/contacts?limit=50&offset=0', `GET /api/v1/deals?account_id=${DEMO.account}&limit=50`];
    await held.untilHeld(first.length);
    expect([...held.held()].sort()).toEqual([...first].sort());
    held.release();
    expect((await running).code).toBe(0);
  });

  it('by name: the contacts (which do not need the id) go out with the look-up, the account and its deals once it is answered', async () => {
    const held = holding(ws);
    const running = run(['accounts', 'view', DEMO.accountName, '--json'], { ws: held });
    const lookUp = 'GET /api/v1/accounts?search=Globex+Logistics&limit=50&offset=0';
    await held.untilHeld(2);
    expect([...held.held()].sort()).toEqual([lookUp, 'GET /api/v1/contacts?limit=50&offset=0'].sort());
    held.answer(lookUp);
    const account = ws.api('GET', `/accounts?search=${encodeURIComponent(DEMO.accountName)}`).data.accounts[0];
    await held.untilHeld(3);
    expect([...held.held()].sort()).toEqual(['GET /api/v1/contacts?limit=50&offset=0', `GET /api/v1/accounts/${account.id}`, `GET /api/v1/deals?account_id=${account.id}&limit=50`].sort());
    held.release();
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    const contacts = all(ws, '/contacts', 'contacts').filter((contact) => contact.account_id === account.id);
    expect(ids(json(result).contacts.records)).toEqual(ids(contacts).slice(0, 10));
    expect(json(result).contacts.count).toBe(contacts.length);
  });

  it('on a terminal: the account, then its contacts and deals, each with how many more and where to see them', async () => {
    const contacts = all(ws, '/contacts', 'contacts').filter((contact) => contact.account_id === DEMO.account).length;
    expect(contacts).toBeGreaterThan(1);
    const result = await run(['accounts', 'view', DEMO.account, '--limit', '1', '--no-color'], { ws, tty: { stdout: true, stderr: true, columns: 100 } });
    expect(result.code, result.stderr).toBe(0);
    for (const title of [`Account ${DEMO.account}\n`, `Contacts (${contacts})\nID`, 'Deals (']) expect(result.stdout).toContain(title);
    expect(result.stdout).toContain(`…and ${contacts - 1} more: crm accounts view ${DEMO.account} --json --fields contacts --limit 50\n`);
  });

  it('a name no account has is exit 4; an account id that does not exist, exit 4 naming it', async () => {
    const byName = await run(['accounts', 'view', 'No Such Account Ltd'], { ws });
    expect(byName.code).toBe(4);
    expect(byName.stderr).toContain('no account with name "No Such Account Ltd"');
    const byId = await run(['accounts', 'view', 'acc_nothing'], { ws });
    expect(byId.code).toBe(4);
    expect(byId.stderr).toContain('account acc_nothing not found');
  });
});

describe('crm deals view', () => {
  it('--json: the deal with its stage history, account, contact and open tasks', async () => {
    const deal = ws.api('GET', `/deals/${DEMO.deal}`).data;
    ws.api('POST', '/tasks', { title: 'Deal view: a task', deal_id: deal.id });
    const tasks = all(ws, '/tasks', 'tasks').filter((task) => task.deal_id === deal.id && task.status === 'open');
    const result = await run(['deals', 'view', deal.id, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const view = json(result);
    expect(view.deal).toEqual(deal);
    expect(view.account).toEqual(ws.api('GET', `/accounts/${deal.account_id}`).data);
    expect(view.contact).toEqual(ws.api('GET', `/contacts/${deal.contact_id}`).data);
    expect(ids(view.tasks_open.records).sort()).toEqual(ids(tasks).sort());
    expect(view.filtered_locally).toEqual([]);
  });

  it('sends the deal and its tasks at once, then its account and contact together as soon as the deal is answered', async () => {
    const deal = ws.api('GET', `/deals/${DEMO.deal}`).data;
    const held = holding(ws);
    const running = run(['deals', 'view', deal.id, '--json'], { ws: held });
    const first = [`GET /api/v1/deals/${deal.id}`, `GET /api/v1/tasks?deal_id=${deal.id}&status=open&limit=50`];
    await held.untilHeld(first.length);
    expect([...held.held()].sort()).toEqual([...first].sort());
    held.answer(`GET /api/v1/deals/${deal.id}`);
    await held.untilHeld(3);
    expect([...held.held()].sort()).toEqual([first[1], `GET /api/v1/accounts/${deal.account_id}`, `GET /api/v1/contacts/${deal.contact_id}`].sort());
    held.release();
    expect((await running).code).toBe(0);
  });

  it('on a terminal: the deal, its stage history, account, contact and open tasks', async () => {
    ws.api('POST', `/deals/${DEMO.deal}/stage`, { stage: 'qualification' });
    const result = await run(['deals', 'view', DEMO.deal, '--no-color'], { ws, tty: { stdout: true, stderr: true, columns: 100 } });
    expect(result.code, result.stderr).toBe(0);
    for (const title of [`Deal ${DEMO.deal}\n`, 'Stage history\nCREATED_AT', 'Account\n', 'Contact\n', 'Open tasks (']) expect(result.stdout).toContain(title);
    expect(result.stdout).toMatch(/prospecting +qualification/);
  });
});

describe('view: bad input sends nothing', () => {
  it.each([
    [['contacts', 'view', 'ada@'], 'exit 2'],
    [['contacts', 'view', 'con_x', '--limit', '0'], 'invalid --limit "0" (expected an integer between 1 and 50)'],
    [['accounts', 'view', ''], 'exit 2'],
    [['deals', 'view', 'deal x/y'], 'exit 2'],
    [['deals', 'view', DEMO.deal, '--fields', 'stage'], 'unknown field "stage" for crm deals view'],
  ])('%j is exit 2 and sends nothing', async (argv, message) => {
    const result = await run(argv, { ws });
    expect(result.code, result.stderr).toBe(2);
    if (message !== 'exit 2') expect(result.stderr).toContain(message);
    expect(ws.log).toHaveLength(0);
  });

  it('view is no longer get: get shows the record alone', async () => {
    const get = json(await run(['contacts', 'get', DEMO.contact, '--json'], { ws }));
    const view = json(await run(['contacts', 'view', DEMO.contact, '--json'], { ws }));
    expect(view.contact).toEqual(get);
    expect(get.notes).toBeUndefined();
  });
});
