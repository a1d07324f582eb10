import { openDatabase } from '../../src/sqlite/database.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Json, type TestSandbox } from './helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

const CONTACT_KEYS = [
  'id', 'name', 'email', 'company', 'phone', 'title', 'status', 'account_id', 'list_ids',
  'score', 'next_best_action', 'scored_at', 'created_at', 'updated_at',
];

async function createContact(fields: Record<string, unknown> = {}): Promise<Json> {
  const unique = Math.random().toString(36).slice(2, 10);
  const { status, body } = await sb.api('POST', '/contacts', { name: `Test ${unique}`, email: `test.${unique}@example.com`, ...fields });
  expect(status).toBe(201);
  return body.data;
}

describe('GET /contacts', () => {
  it('lists seeded contacts newest first with the list envelope', async () => {
    const { status, headers, body } = await sb.api('GET', '/contacts');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(body.error).toBeNull();
    expect(Object.keys(body.data)).toEqual(['contacts', 'total']);
    expect(body.data.contacts).toHaveLength(20);
    expect(body.data.total).toBeGreaterThanOrEqual(50);
    expect(Object.keys(body.data.contacts[0])).toEqual(CONTACT_KEYS);
    const times = body.data.contacts.map((contact: Json) => contact.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by search, status and list_id', async () => {
    const created = await createContact({ name: 'Zebulon Quaxley', company: 'Quaxley Farms' });
    const bySearch = await sb.api('GET', '/contacts?search=QUAXLEY');
    expect(bySearch.body.data.contacts.map((contact: Json) => contact.id)).toEqual([created.id]);
    expect(bySearch.body.data.total).toBe(1);

    const churned = await sb.api('GET', '/contacts?status=churned&limit=50');
    expect(churned.body.data.total).toBeGreaterThan(0);
    expect(churned.body.data.contacts.every((contact: Json) => contact.status === 'churned')).toBe(true);

    const listId = (await sb.api('GET', '/contacts?limit=50')).body.data.contacts.find((contact: Json) => contact.list_ids.length > 0).list_ids[0];
    const inList = await sb.api('GET', `/contacts?list_id=${listId}&limit=50`);
    expect(inList.body.data.total).toBeGreaterThan(0);
    expect(inList.body.data.contacts.every((contact: Json) => contact.list_ids.includes(listId))).toBe(true);
  });

  it('rejects an unknown status filter', async () => {
    const { status, body } = await sb.api('GET', '/contacts?status=vip');
    expect(status).toBe(400);
    expect(body).toEqual({ data: null, error: 'status must be one of: lead, prospect, customer, churned' });
  });
});

describe('POST /contacts', () => {
  it('creates a contact with defaults and answers 201', async () => {
    const { status, body } = await sb.api('POST', '/contacts', { name: 'Ada Lovelace', email: 'ada@analytical.example', company: 'Analytical Engines' });
    expect(status).toBe(201);
    expect(body.error).toBeNull();
    expect(body.data).toMatchObject({ name: 'Ada Lovelace', email: 'ada@analytical.example', company: 'Analytical Engines', status: 'lead', list_ids: [], score: null });
    expect(body.data.id).toMatch(/^con_[a-z0-9]{16}$/);
    expect(body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.data.updated_at).toBe(body.data.created_at);
  });

  it('validates required fields, email, unknown and read-only fields', async () => {
    const cases: [unknown, string][] = [
      [{ email: 'x@example.com' }, 'name is required'],
      [{ name: 'No Email' }, 'email is required'],
      [{ name: '  ', email: 'x@example.com' }, 'name is required'],
      [{ name: 'Bad', email: 'not-an-email' }, 'email is not a valid email address'],
      [{ name: 'Bad', email: 'x@example.com', status: 'vip' }, 'status must be one of: lead, prospect, customer, churned'],
      [{ name: 'Bad', email: 'x@example.com', constructor: 1 }, '"constructor" is not allowed as a field name'],
      ['{"name": "Bad", "email": "x@example.com", "__proto__": {"rule": 1}}', '"__proto__" is not allowed as a field name'],
      [{ name: 'Bad', email: 'x@example.com', id: 'con_mine' }, 'id is read-only'],
      [{ name: 'Bad', email: 'x@example.com', score: 99 }, 'score is read-only'],
      [{ name: 'Bad', email: 'x@example.com', account_id: 'acc_nope' }, "account_id 'acc_nope' does not match any account"],
      [{ name: 'Bad', email: 'x@example.com', list_ids: ['list_nope'] }, "list_ids: 'list_nope' does not match any list"],
    ];
    for (const [payload, message] of cases) {
      const { status, body } = await sb.api('POST', '/contacts', payload);
      expect({ status, body }).toEqual({ status: 400, body: { data: null, error: message } });
    }
  });

  it('rejects malformed JSON and non-object bodies', async () => {
    expect((await sb.api('POST', '/contacts', '{"name": ')).body).toEqual({ data: null, error: 'Invalid JSON body' });
    const array = await sb.api('POST', '/contacts', '[1, 2]');
    expect(array.status).toBe(400);
    expect(array.body.error).toBe('The request body must be a JSON object');
  });

  it('refuses a body nested deeper than 500 levels with 400, not 500 (JSON.stringify overflowed) nor a record no crm can read', async () => {
    const nested = (levels: number) => `{"name": "Deep", "email": "deep@example.com", "custom": ${'['.repeat(levels)}${']'.repeat(levels)}}`;
    for (const levels of [500, 5_000, 100_000]) {
      const { status, body } = await sb.api('POST', '/contacts', nested(levels));
      expect({ status, body }, `${levels}`).toEqual({ status: 400, body: { data: null, error: 'The request body nests arrays and objects deeper than 500 levels' } });
    }
    expect((await sb.api('GET', '/contacts?search=deep@example.com')).body.data.total).toBe(0);
    // The body's own level and 499 more: kept.
    expect((await sb.api('POST', '/contacts', nested(499))).status).toBe(201);
  });

  it('refuses a duplicate email among live contacts, case-insensitively, with 409', async () => {
    await createContact({ email: 'dup@example.com' });
    const { status, body } = await sb.api('POST', '/contacts', { name: 'Again', email: 'DUP@example.com' });
    expect(status).toBe(409);
    expect(body.error).toBe('A contact with email DUP@example.com already exists');
  });
});

describe('GET /contacts/{id}', () => {
  it('reads one contact', async () => {
    const contact = await createContact();
    const { status, body } = await sb.api('GET', `/contacts/${contact.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: contact, error: null });
  });

  it('answers 404 for an unknown id', async () => {
    const { status, body } = await sb.api('GET', '/contacts/con_doesnotexist0000');
    expect(status).toBe(404);
    expect(body).toEqual({ data: null, error: 'Contact not found' });
  });
});

describe('PATCH /contacts/{id}', () => {
  it('updates the given fields only, including list membership', async () => {
    const contact = await createContact({ phone: '+1 555 0100' });
    const lists = (await sb.api('GET', '/contacts?limit=50')).body.data.contacts.flatMap((row: Json) => row.list_ids);
    const { status, body } = await sb.api('PATCH', `/contacts/${contact.id}`, { status: 'customer', title: 'CTO', list_ids: [lists[0]] });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: contact.id, name: contact.name, phone: '+1 555 0100', status: 'customer', title: 'CTO', list_ids: [lists[0]] });
    expect(body.data.updated_at >= contact.updated_at).toBe(true);

    sb.advanceClock(1000);
    const listsOnly = await sb.api('PATCH', `/contacts/${contact.id}`, { list_ids: [] });
    expect(listsOnly.body.data.list_ids).toEqual([]);
    expect(listsOnly.body.data.updated_at > body.data.updated_at).toBe(true);
  });

  it('validates like create and refuses an email another contact holds', async () => {
    const first = await createContact();
    const second = await createContact();
    expect((await sb.api('PATCH', `/contacts/${first.id}`, { email: 'nope' })).body.error).toBe('email is not a valid email address');
    expect((await sb.api('PATCH', `/contacts/${first.id}`, {})).body.error).toBe('The body has no fields to update');
    expect((await sb.api('PATCH', `/contacts/${first.id}`, '{"toString": "x"}')).body.error).toBe('"toString" is not allowed as a field name');
    expect((await sb.api('PATCH', `/contacts/${first.id}`, { created_at: 'x' })).body.error).toBe('created_at is read-only');
    const clash = await sb.api('PATCH', `/contacts/${first.id}`, { email: second.email });
    expect(clash.status).toBe(409);
    const same = await sb.api('PATCH', `/contacts/${first.id}`, { email: first.email.toUpperCase() });
    expect(same.status).toBe(200);
    expect((await sb.api('PATCH', '/contacts/con_unknown', { name: 'X' })).status).toBe(404);
  });
});

describe('DELETE /contacts/{id}', () => {
  it('soft-deletes: gone from get, list, search and sequence contacts, but the row stays', async () => {
    const contact = await createContact({ name: 'Ephemeral Person' });
    const sequence = (await sb.api('GET', '/sequences?status=active')).body.data.sequences[0];
    await sb.api('POST', `/contacts/${contact.id}/sequences`, { sequence_id: sequence.id });
    const enrolledBefore = (await sb.api('GET', `/sequences/${sequence.id}`)).body.data.enrolled_count;
    const countBefore = sb.sandbox.counts().contacts;

    const { status, body } = await sb.api('DELETE', `/contacts/${contact.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: { id: contact.id, deleted: true }, error: null });

    expect((await sb.api('GET', `/contacts/${contact.id}`)).status).toBe(404);
    expect((await sb.api('GET', '/contacts?search=Ephemeral')).body.data).toEqual({ contacts: [], total: 0 });
    expect((await sb.api('GET', '/search?q=Ephemeral')).body.data).toEqual({ results: [], total: 0 });
    const members = (await sb.api('GET', `/sequences/${sequence.id}/contacts?limit=50`)).body.data;
    expect(members.contacts.map((row: Json) => row.id)).not.toContain(contact.id);
    expect((await sb.api('GET', `/sequences/${sequence.id}`)).body.data.enrolled_count).toBe(enrolledBefore - 1);
    expect(sb.sandbox.counts().contacts).toBe(countBefore - 1);
    expect((await sb.api('DELETE', `/contacts/${contact.id}`)).status).toBe(404);

    const db = openDatabase(sb.dbPath, { readOnly: true });
    try {
      const row = db.prepare('SELECT name, deleted_at FROM contacts WHERE id = ?').get(contact.id) as Json;
      expect(row.name).toBe('Ephemeral Person');
      expect(row.deleted_at).toMatch(/Z$/);
    } finally {
      db.close();
    }

    // The address is free again once its holder is deleted.
    expect((await sb.api('POST', '/contacts', { name: 'Reborn', email: contact.email })).status).toBe(201);
  });
});

describe('GET /contacts/{id}/notes and POST /contacts/{id}/notes', () => {
  it('adds notes and lists them newest first', async () => {
    const contact = await createContact();
    const first = await sb.api('POST', `/contacts/${contact.id}/notes`, { body: 'First call went well.' });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body.data)).toEqual(['id', 'contact_id', 'body', 'created_at']);
    expect(first.body.data).toMatchObject({ contact_id: contact.id, body: 'First call went well.' });
    expect(first.body.data.id).toMatch(/^note_/);
    const second = await sb.api('POST', `/contacts/${contact.id}/notes`, { body: 'Sent the proposal.' });

    const { status, body } = await sb.api('GET', `/contacts/${contact.id}/notes`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ notes: [second.body.data, first.body.data], total: 2 });
    const paged = await sb.api('GET', `/contacts/${contact.id}/notes?limit=1&offset=1`);
    expect(paged.body.data).toEqual({ notes: [first.body.data], total: 2 });
  });

  it('requires a body and a live contact', async () => {
    const contact = await createContact();
    expect((await sb.api('POST', `/contacts/${contact.id}/notes`, {})).body.error).toBe('body is required');
    expect((await sb.api('POST', '/contacts/con_missing/notes', { body: 'x' })).status).toBe(404);
    expect((await sb.api('GET', '/contacts/con_missing/notes')).status).toBe(404);
  });
});

describe('POST /contacts/{id}/tasks', () => {
  it('creates a task for the contact', async () => {
    const contact = await createContact();
    const { status, body } = await sb.api('POST', `/contacts/${contact.id}/tasks`, { title: 'Call back', due_date: '2030-01-15', priority: 'high' });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ title: 'Call back', contact_id: contact.id, due_date: '2030-01-15', priority: 'high', status: 'open', completed_at: null });
    expect(body.data.id).toMatch(/^task_/);
  });

  it('validates the task and refuses a contact_id in the body', async () => {
    const contact = await createContact();
    expect((await sb.api('POST', `/contacts/${contact.id}/tasks`, {})).body.error).toBe('title is required');
    expect((await sb.api('POST', `/contacts/${contact.id}/tasks`, { title: 'x', due_date: '2030-02-30' })).body.error).toBe(
      'due_date must be a date in YYYY-MM-DD format or null',
    );
    const withContact = await sb.api('POST', `/contacts/${contact.id}/tasks`, { title: 'x', contact_id: contact.id });
    expect(withContact.status).toBe(400);
    expect(withContact.body.error).toMatch(/^contact_id is read-only/);
  });
});

describe('POST /contacts/{id}/sequences', () => {
  it('enrols the contact, then refuses a second enrolment, unknown and archived sequences', async () => {
    const contact = await createContact();
    const sequences = (await sb.api('GET', '/sequences')).body.data.sequences as Json[];
    const active = sequences.find((sequence) => sequence.status === 'active');
    const archived = sequences.find((sequence) => sequence.status === 'archived');

    const { status, body } = await sb.api('POST', `/contacts/${contact.id}/sequences`, { sequence_id: active.id });
    expect(status).toBe(201);
    expect(Object.keys(body.data)).toEqual(['id', 'contact_id', 'sequence_id', 'status', 'enrolled_at']);
    expect(body.data).toMatchObject({ contact_id: contact.id, sequence_id: active.id, status: 'active' });
    expect(body.data.id).toMatch(/^enr_/);

    const again = await sb.api('POST', `/contacts/${contact.id}/sequences`, { sequence_id: active.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`Contact ${contact.id} is already enrolled in sequence ${active.id}`);
    expect((await sb.api('POST', `/contacts/${contact.id}/sequences`, { sequence_id: 'seq_nope' })).body).toEqual({ data: null, error: 'Sequence not found' });
    expect((await sb.api('POST', `/contacts/${contact.id}/sequences`, { sequence_id: archived.id })).status).toBe(409);
    expect((await sb.api('POST', `/contacts/${contact.id}/sequences`, {})).body.error).toBe('sequence_id is required');
  });
});

describe('fields the spec does not show (a permissive workspace)', () => {
  it.each([
    ['/contacts', { name: 'Kept Fields', email: `kept.${Math.random().toString(36).slice(2, 8)}@example.com` }],
    ['/accounts', { name: 'Kept Account' }],
    ['/deals', { name: 'Kept Deal' }],
    ['/sequences', { name: 'Kept Sequence' }],
    ['/tasks', { title: 'Kept Task' }],
  ])('%s keeps them whole, answers them after the known fields, lists them, and an update replaces each one given', async (path, required) => {
    const created = await sb.api('POST', path, { ...required, custom: { source: 'partner', tags: ['a', 1, null] }, lifecycle: 'mql' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ custom: { source: 'partner', tags: ['a', 1, null] }, lifecycle: 'mql' });
    expect(Object.keys(created.body.data).slice(-2)).toEqual(['custom', 'lifecycle']);
    const id = created.body.data.id;
    expect((await sb.api('GET', `${path}/${id}`)).body.data).toMatchObject(created.body.data);
    const listed = (await sb.api('GET', `${path}?limit=50`)).body.data;
    expect(Object.values(listed).find(Array.isArray)!.find((record: Json) => record.id === id)).toEqual(created.body.data);
    const patched = (await sb.api('PATCH', `${path}/${id}`, { custom: { source: 'event' }, score_hint: 3 })).body.data;
    expect(patched).toMatchObject({ custom: { source: 'event' }, lifecycle: 'mql', score_hint: 3 });
  });
});
