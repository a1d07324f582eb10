import { CONTACT_COLUMNS, toContact } from '../contact-model.js';
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
import { isLive, requireLive, softDelete, updateRow } from '../records.js';
import type { Store } from '../store.js';
import {
  idList,
  isPlainObject,
  oneOf,
  optional,
  optionalText,
  parseCreate,
  parseUpdate,
  required,
  requiredText,
  type Rule,
} from '../validation.js';

const SEQUENCE_STATUSES = ['active', 'paused', 'archived'] as const;
const STEP_CHANNELS = ['email', 'call', 'task'] as const;
const STEP_FIELDS = ['day', 'channel', 'subject'];

export interface SequenceStep {
  day: number;
  channel: (typeof STEP_CHANNELS)[number];
  subject: string;
}

const sequenceSteps: Rule<SequenceStep[]> = (value, field) => {
  if (!Array.isArray(value)) throw badRequest(`${field} must be an array of {day, channel, subject} objects`);
  if (value.length > 100) throw badRequest(`${field} must hold at most 100 steps`);
  return value.map((step: unknown, index) => {
    const at = `${field}[${index}]`;
    if (!isPlainObject(step)) throw badRequest(`${at} must be an object with day, channel and subject`);
    const unknownField = Object.keys(step).find((name) => !STEP_FIELDS.includes(name));
    if (unknownField) throw badRequest(`Unknown field: ${at}.${unknownField}`);
    if (!Number.isSafeInteger(step.day) || (step.day as number) < 0) throw badRequest(`${at}.day must be an integer of 0 or more`);
    return {
      day: step.day as number,
      channel: oneOf(STEP_CHANNELS)(step.channel, `${at}.channel`),
      subject: requiredText(200)(step.subject, `${at}.subject`),
    };
  });
};

const sequenceFields = {
  name: required(requiredText(200)),
  description: optional(optionalText(10_000), null),
  status: optional(oneOf(SEQUENCE_STATUSES), 'active'),
  steps: optional(sequenceSteps, []),
};
const SEQUENCE_READ_ONLY = ['enrolled_count'];

/** enrolled_count counts enrolments of contacts that are not deleted. */
const SEQUENCE_COLUMNS = `s.id, s.name, s.description, s.status, s.steps,
  (SELECT COUNT(*) FROM enrollments e JOIN contacts c ON c.id = e.contact_id WHERE e.sequence_id = s.id AND c.deleted_at IS NULL) AS enrolled_count,
  s.created_at, s.updated_at`;

function toSequence(row: { steps: string }): Record<string, unknown> {
  return { ...row, steps: JSON.parse(row.steps) as SequenceStep[] };
}

function readSequence(store: Store, id: string): Record<string, unknown> {
  const row = store.get<{ steps: string }>(`SELECT ${SEQUENCE_COLUMNS} FROM sequences s WHERE s.id = ? AND s.deleted_at IS NULL`, id);
  if (!row) throw notFound('Sequence');
  return toSequence(row);
}

function requireEnrollableSequence(store: Store, id: string): void {
  const sequence = store.get<{ status: string }>('SELECT status FROM sequences WHERE id = ? AND deleted_at IS NULL', id);
  if (!sequence) throw notFound('Sequence');
  if (sequence.status === 'archived') throw conflict(`Sequence ${id} is archived; contacts cannot be enrolled`);
}

function isEnrolled(store: Store, contactId: string, sequenceId: string): boolean {
  return store.get('SELECT 1 FROM enrollments WHERE sequence_id = ? AND contact_id = ?', sequenceId, contactId) !== undefined;
}

function insertEnrollment(store: Store, contactId: string, sequenceId: string): string {
  const id = newId('enr');
  store.run(
    `INSERT INTO enrollments (id, contact_id, sequence_id, status, enrolled_at) VALUES (?, ?, ?, 'active', ?)`,
    id,
    contactId,
    sequenceId,
    store.nowIso(),
  );
  return id;
}

/** Enrols one live contact; 404 for an unknown sequence, 409 when archived or already enrolled. */
export function enrollContact(store: Store, contactId: string, sequenceId: string): unknown {
  requireEnrollableSequence(store, sequenceId);
  if (isEnrolled(store, contactId, sequenceId)) throw conflict(`Contact ${contactId} is already enrolled in sequence ${sequenceId}`);
  const id = insertEnrollment(store, contactId, sequenceId);
  return store.get('SELECT id, contact_id, sequence_id, status, enrolled_at FROM enrollments WHERE id = ?', id);
}

function listSequences({ store, query }: RequestContext): Reply {
  const page = readPage(query);
  const list: ListQuery = {
    from: 'sequences s',
    columns: SEQUENCE_COLUMNS,
    where: ['s.deleted_at IS NULL'],
    params: [],
    orderBy: 's.created_at DESC, s.rowid DESC',
  };
  const status = queryChoice(query, 'status', SEQUENCE_STATUSES);
  if (status) {
    list.where.push('s.status = ?');
    list.params.push(status);
  }
  const search = queryText(query, 'search');
  if (search) {
    const match = containsAny(['s.name', 's.description'], search);
    list.where.push(match.sql);
    list.params.push(...match.params);
  }
  const { rows, total } = listPage<{ steps: string }>(store, list, page);
  return ok({ sequences: rows.map(toSequence), total });
}

function createSequence({ store, body }: RequestContext): Reply {
  const fields = parseCreate(body, sequenceFields, SEQUENCE_READ_ONLY);
  const id = newId('seq');
  const now = store.nowIso();
  store.run(
    'INSERT INTO sequences (id, name, description, status, steps, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    id,
    fields.name,
    fields.description,
    fields.status,
    JSON.stringify(fields.steps),
    now,
    now,
  );
  return created(readSequence(store, id));
}

function getSequence({ store, params }: RequestContext): Reply {
  return ok(readSequence(store, params.id));
}

function updateSequence({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'sequence', params.id);
  const { steps, ...columns } = parseUpdate(body, sequenceFields, SEQUENCE_READ_ONLY);
  updateRow(store, 'sequence', params.id, steps ? { ...columns, steps: JSON.stringify(steps) } : columns);
  return ok(readSequence(store, params.id));
}

function deleteSequence({ store, params }: RequestContext): Reply {
  return softDelete(store, 'sequence', params.id);
}

const bulkEnrollFields = { contact_ids: required(idList(100, 1)) };

function bulkEnroll({ store, params, body }: RequestContext): Reply {
  requireEnrollableSequence(store, params.id);
  const { contact_ids: contactIds } = parseCreate(body, bulkEnrollFields);
  const enrolled: string[] = [];
  const alreadyEnrolled: string[] = [];
  const notFoundIds: string[] = [];
  for (const contactId of contactIds) {
    if (!isLive(store, 'contact', contactId)) notFoundIds.push(contactId);
    else if (isEnrolled(store, contactId, params.id)) alreadyEnrolled.push(contactId);
    else {
      insertEnrollment(store, contactId, params.id);
      enrolled.push(contactId);
    }
  }
  return ok({ sequence_id: params.id, enrolled, already_enrolled: alreadyEnrolled, not_found: notFoundIds });
}

function listSequenceContacts({ store, params, query }: RequestContext): Reply {
  const page = readPage(query);
  requireLive(store, 'sequence', params.id);
  const { rows, total } = listPage<{ list_ids: string }>(
    store,
    {
      from: 'enrollments e JOIN contacts c ON c.id = e.contact_id',
      columns: `${CONTACT_COLUMNS}, e.status AS enrollment_status, e.enrolled_at`,
      where: ['e.sequence_id = ?', 'c.deleted_at IS NULL'],
      params: [params.id],
      orderBy: 'e.enrolled_at DESC, e.rowid DESC',
    },
    page,
  );
  return ok({ contacts: rows.map(toContact), total });
}

export const sequenceRoutes: Route[] = [
  { method: 'GET', path: '/sequences', handler: listSequences },
  { method: 'POST', path: '/sequences', handler: createSequence },
  { method: 'GET', path: '/sequences/:id', handler: getSequence },
  { method: 'PATCH', path: '/sequences/:id', handler: updateSequence },
  { method: 'DELETE', path: '/sequences/:id', handler: deleteSequence },
  { method: 'POST', path: '/sequences/:id/enroll', handler: bulkEnroll },
  { method: 'GET', path: '/sequences/:id/contacts', handler: listSequenceContacts },
];
