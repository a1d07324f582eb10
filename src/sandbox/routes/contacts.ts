import { newId } from '../ids.js';
import {
  badRequest,
  conflict,
  containsAny,
  created,
  listPage,
  notFound,
  ok,
  queryChoice,
  queryText,
  readPage,
  type ListQuery,
  type Reply,
  type RequestContext,
  type Route,
} from '../http.js';
import { CONTACT_COLUMNS, CONTACT_STATUSES, toContact } from '../contact-model.js';
import { checkReference, requireLive, softDelete, updateRow } from '../records.js';
import type { Store } from '../store.js';
import {
  emailAddress,
  idList,
  oneOf,
  optional,
  optionalId,
  optionalText,
  parseCreate,
  parseUpdate,
  required,
  requiredText,
} from '../validation.js';
import { enrollContact } from './sequences.js';
import { TASK_READ_ONLY, createTask, taskFields } from './tasks.js';

function readContact(store: Store, id: string): Record<string, unknown> {
  const row = store.get<{ list_ids: string }>(`SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE c.id = ? AND c.deleted_at IS NULL`, id);
  if (!row) throw notFound('Contact');
  return toContact(row);
}

const contactFields = {
  name: required(requiredText(200)),
  email: required(emailAddress),
  company: optional(optionalText(200), null),
  phone: optional(optionalText(50), null),
  title: optional(optionalText(200), null),
  status: optional(oneOf(CONTACT_STATUSES), 'lead'),
  account_id: optional(optionalId, null),
  list_ids: optional(idList(50), []),
};
const CONTACT_READ_ONLY = ['score', 'next_best_action', 'scored_at'];

function checkEmailFree(store: Store, email: string, exceptId: string | null): void {
  const holder = store.get<{ id: string }>(
    'SELECT id FROM contacts WHERE lower(email) = lower(?) AND deleted_at IS NULL AND id IS NOT ?',
    email,
    exceptId,
  );
  if (holder) throw conflict(`A contact with email ${email} already exists`);
}

function setLists(store: Store, contactId: string, listIds: string[]): void {
  for (const listId of listIds) {
    if (!store.get('SELECT 1 FROM lists WHERE id = ?', listId)) throw badRequest(`list_ids: '${listId}' does not match any list`);
  }
  store.run('DELETE FROM list_members WHERE contact_id = ?', contactId);
  for (const listId of listIds) store.run('INSERT INTO list_members (list_id, contact_id) VALUES (?, ?)', listId, contactId);
}

function listContacts({ store, query }: RequestContext): Reply {
  const page = readPage(query);
  const list: ListQuery = {
    from: 'contacts c',
    columns: CONTACT_COLUMNS,
    where: ['c.deleted_at IS NULL'],
    params: [],
    orderBy: 'c.created_at DESC, c.rowid DESC',
  };
  const search = queryText(query, 'search');
  if (search) {
    const match = containsAny(['c.name', 'c.email', 'c.company'], search);
    list.where.push(match.sql);
    list.params.push(...match.params);
  }
  const status = queryChoice(query, 'status', CONTACT_STATUSES);
  if (status) {
    list.where.push('c.status = ?');
    list.params.push(status);
  }
  const listId = queryText(query, 'list_id');
  if (listId) {
    list.where.push('EXISTS (SELECT 1 FROM list_members m WHERE m.contact_id = c.id AND m.list_id = ?)');
    list.params.push(listId);
  }
  const { rows, total } = listPage<{ list_ids: string }>(store, list, page);
  return ok({ contacts: rows.map(toContact), total });
}

function createContact({ store, body }: RequestContext): Reply {
  const fields = parseCreate(body, contactFields, CONTACT_READ_ONLY);
  checkEmailFree(store, fields.email, null);
  checkReference(store, 'account', 'account_id', fields.account_id);
  const id = newId('con');
  const now = store.nowIso();
  store.run(
    `INSERT INTO contacts (id, name, email, company, phone, title, status, account_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    fields.name,
    fields.email,
    fields.company,
    fields.phone,
    fields.title,
    fields.status,
    fields.account_id,
    now,
    now,
  );
  setLists(store, id, fields.list_ids);
  return created(readContact(store, id));
}

function getContact({ store, params }: RequestContext): Reply {
  return ok(readContact(store, params.id));
}

function updateContact({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'contact', params.id);
  const { list_ids: listIds, ...columns } = parseUpdate(body, contactFields, CONTACT_READ_ONLY);
  if (columns.email !== undefined) checkEmailFree(store, columns.email, params.id);
  checkReference(store, 'account', 'account_id', columns.account_id);
  updateRow(store, 'contact', params.id, columns);
  if (listIds) setLists(store, params.id, listIds);
  return ok(readContact(store, params.id));
}

function deleteContact({ store, params }: RequestContext): Reply {
  return softDelete(store, 'contact', params.id);
}

const NOTE_COLUMNS = 'id, contact_id, body, created_at';

function listNotes({ store, params, query }: RequestContext): Reply {
  const page = readPage(query);
  requireLive(store, 'contact', params.id);
  const { rows, total } = listPage(
    store,
    { from: 'notes', columns: NOTE_COLUMNS, where: ['contact_id = ?'], params: [params.id], orderBy: 'created_at DESC, rowid DESC' },
    page,
  );
  return ok({ notes: rows, total });
}

const noteFields = { body: required(requiredText(10_000)) };

function createNote({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'contact', params.id);
  const fields = parseCreate(body, noteFields);
  const id = newId('note');
  store.run('INSERT INTO notes (id, contact_id, body, created_at) VALUES (?, ?, ?, ?)', id, params.id, fields.body, store.nowIso());
  return created(store.get(`SELECT ${NOTE_COLUMNS} FROM notes WHERE id = ?`, id));
}

function createContactTask({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'contact', params.id);
  if ('contact_id' in body) throw badRequest('contact_id is read-only here: the path names the contact');
  const fields = parseCreate(body, taskFields, TASK_READ_ONLY);
  return created(createTask(store, { ...fields, contact_id: params.id }));
}

const enrollmentFields = { sequence_id: required(requiredText(100)) };

function enrollInSequence({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'contact', params.id);
  const { sequence_id: sequenceId } = parseCreate(body, enrollmentFields);
  return created(enrollContact(store, params.id, sequenceId));
}

export const contactRoutes: Route[] = [
  { method: 'GET', path: '/contacts', handler: listContacts },
  { method: 'POST', path: '/contacts', handler: createContact },
  { method: 'GET', path: '/contacts/:id', handler: getContact },
  { method: 'PATCH', path: '/contacts/:id', handler: updateContact },
  { method: 'DELETE', path: '/contacts/:id', handler: deleteContact },
  { method: 'GET', path: '/contacts/:id/notes', handler: listNotes },
  { method: 'POST', path: '/contacts/:id/notes', handler: createNote },
  { method: 'POST', path: '/contacts/:id/tasks', handler: createContactTask },
  { method: 'POST', path: '/contacts/:id/sequences', handler: enrollInSequence },
];
