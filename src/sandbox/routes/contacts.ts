import { RESOURCES } from '../../registry/resources.js';
import { collection, type Fields } from '../collection.js';
import { CONTACT_COLUMNS, toContact } from '../contact-model.js';
import { newId } from '../ids.js';
import { badRequest, conflict, created, type Reply, type RequestContext, type Route } from '../http.js';
import { declareFilters, equals, listReply, matchesAny, endpointAt } from '../lists.js';
import { requireLive } from '../records.js';
import type { Store } from '../store.js';
import { bodySchema, parseCreate } from '../validation.js';
import { enrollContact } from './sequences.js';
import { tasks } from './tasks.js';

function checkEmailFree(store: Store, email: string, exceptId: string | null): void {
  const holder = store.get<{ id: string }>('SELECT id FROM contacts WHERE lower(email) = lower(?) AND deleted_at IS NULL AND id IS NOT ?', email, exceptId);
  if (holder) throw conflict(`A contact with email ${email} already exists`);
}

function setLists(store: Store, contactId: string, listIds: string[]): void {
  for (const listId of listIds) {
    if (!store.get('SELECT 1 FROM lists WHERE id = ?', listId)) throw badRequest(`list_ids: '${listId}' does not match any list`);
  }
  store.run('DELETE FROM list_members WHERE contact_id = ?', contactId);
  for (const listId of listIds) store.run('INSERT INTO list_members (list_id, contact_id) VALUES (?, ?)', listId, contactId);
}

const contacts = collection({
  resource: 'contact',
  table: 'contacts',
  prefix: 'con',
  alias: 'c',
  from: 'contacts c',
  columns: CONTACT_COLUMNS,
  orderBy: 'c.created_at DESC, c.rowid DESC',
  toRecord: toContact,
  filters: {
    search: matchesAny(['c.name', 'c.email', 'c.company']),
    status: equals('c.status'),
    list_id: (value) => ({ sql: 'EXISTS (SELECT 1 FROM list_members m WHERE m.contact_id = c.id AND m.list_id = ?)', params: [value] }),
  },
  // List membership lives in its own table; an email belongs to one live contact at most.
  prepare: (store, { list_ids: _lists, ...columns }: Fields, current) => {
    if (typeof columns.email === 'string') checkEmailFree(store, columns.email, current ? String(current.id) : null);
    return columns;
  },
  afterWrite: (store, id, { fields }) => {
    if (Array.isArray(fields.list_ids)) setLists(store, id, fields.list_ids as string[]);
  },
});

const NOTE_COLUMNS = 'id, contact_id, body, created_at';
const noteSchema = bodySchema(RESOURCES.note.fields);
const notesOp = endpointAt('GET', '/contacts/{id}/notes');
const noteFilters = declareFilters(notesOp, {});

function listNotes(context: RequestContext): Reply {
  requireLive(context.store, 'contact', context.params.id!);
  return listReply(context, {
    op: notesOp,
    base: { from: 'notes', columns: NOTE_COLUMNS, where: ['contact_id = ?'], params: [context.params.id], orderBy: 'created_at DESC, rowid DESC' },
    filters: noteFilters,
    key: 'notes',
  });
}

function createNote({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'contact', params.id!);
  const fields = parseCreate(body, noteSchema);
  const id = newId('note');
  store.run('INSERT INTO notes (id, contact_id, body, created_at) VALUES (?, ?, ?, ?)', id, params.id, fields.body, store.nowIso());
  return created(store.get(`SELECT ${NOTE_COLUMNS} FROM notes WHERE id = ?`, id));
}

function createContactTask({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'contact', params.id!);
  if ('contact_id' in body) throw badRequest('contact_id is read-only here: the path names the contact');
  return created(tasks.insert(store, { ...parseCreate(body, tasks.schema), contact_id: params.id }));
}

const enrollmentSchema = bodySchema(RESOURCES.enrollment.fields);

function enrollInSequence({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'contact', params.id!);
  const { sequence_id: sequenceId } = parseCreate(body, enrollmentSchema);
  return created(enrollContact(store, params.id!, sequenceId as string));
}

export const contactRoutes: Route[] = [
  ...contacts.routes,
  { method: 'GET', path: '/contacts/:id/notes', handler: listNotes },
  { method: 'POST', path: '/contacts/:id/notes', handler: createNote },
  { method: 'POST', path: '/contacts/:id/tasks', handler: createContactTask },
  { method: 'POST', path: '/contacts/:id/sequences', handler: enrollInSequence },
];
