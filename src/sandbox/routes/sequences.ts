import { RESOURCES, STATUS, STEP_CHANNELS, STEP_FIELDS as STEP } from '../../registry/resources.js';
import { collection } from '../collection.js';
import { CONTACT_COLUMNS, toContact } from '../contact-model.js';
import { newId } from '../ids.js';
import { badRequest, conflict, notFound, ok, type Reply, type RequestContext, type Route } from '../http.js';
import { declareFilters, equals, listReply, matchesAny, endpointAt } from '../lists.js';
import { isLive, requireLive } from '../records.js';
import type { Store } from '../store.js';
import { isObject } from '../../registry/values.js';
import { actionSchema, idList, oneOf, parseCreate, requiredText, type Rule } from '../validation.js';

const STEP_FIELDS = STEP.map((field) => field.name);
/** The registry's limits: steps a sequence holds, the first day a step may fall on, a subject's length. */
const STEPS_MAX = RESOURCES.sequence.fields.find((field) => field.name === 'steps')!.max!;
const DAY_MIN = STEP.find((field) => field.name === 'day')!.min!;
const SUBJECT_MAX = STEP.find((field) => field.name === 'subject')!.maxLength!;

export interface SequenceStep {
  day: number;
  channel: (typeof STEP_CHANNELS)[number];
  subject: string;
}

const sequenceSteps: Rule<SequenceStep[]> = (value, field) => {
  if (!Array.isArray(value)) throw badRequest(`${field} must be an array of {day, channel, subject} objects`);
  if (value.length > STEPS_MAX) throw badRequest(`${field} must hold at most ${STEPS_MAX} steps`);
  return value.map((step: unknown, index) => {
    const at = `${field}[${index}]`;
    if (!isObject(step)) throw badRequest(`${at} must be an object with day, channel and subject`);
    const unknownField = Object.keys(step).find((name) => !STEP_FIELDS.includes(name));
    if (unknownField) throw badRequest(`Unknown field: ${at}.${unknownField}`);
    if (!Number.isSafeInteger(step.day) || (step.day as number) < DAY_MIN) throw badRequest(`${at}.day must be an integer of ${DAY_MIN} or more`);
    return {
      day: step.day as number,
      channel: oneOf(STEP_CHANNELS)(step.channel, `${at}.channel`),
      subject: requiredText(SUBJECT_MAX)(step.subject, `${at}.subject`),
    };
  });
};

/** enrolled_count counts enrolments of contacts that are not deleted. */
const SEQUENCE_COLUMNS = `s.id, s.name, s.description, s.status, s.steps,
  (SELECT COUNT(*) FROM enrollments e JOIN contacts c ON c.id = e.contact_id WHERE e.sequence_id = s.id AND c.deleted_at IS NULL) AS enrolled_count,
  s.created_at, s.updated_at`;

const sequences = collection({
  resource: 'sequence',
  table: 'sequences',
  prefix: 'seq',
  alias: 's',
  from: 'sequences s',
  columns: SEQUENCE_COLUMNS,
  orderBy: 's.created_at DESC, s.rowid DESC',
  toRecord: (row) => ({ ...row, steps: JSON.parse(row.steps as string) as SequenceStep[] }),
  overrides: { steps: sequenceSteps },
  filters: { search: matchesAny(['s.name', 's.description']), status: equals('s.status') },
  // Steps are stored as JSON text.
  prepare: (_store, fields) => (fields.steps === undefined ? fields : { ...fields, steps: JSON.stringify(fields.steps) }),
});

function requireEnrollableSequence(store: Store, id: string): void {
  const sequence = store.get<{ status: string }>('SELECT status FROM sequences WHERE id = ? AND deleted_at IS NULL', id);
  if (!sequence) throw notFound('Sequence');
  if (sequence.status === STATUS.sequence.archived) throw conflict(`Sequence ${id} is archived; contacts cannot be enrolled`);
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

const bulkEnrollSchema = actionSchema({ contact_ids: idList(100, 1) });

function bulkEnroll({ store, params, body }: RequestContext): Reply {
  requireEnrollableSequence(store, params.id!);
  const contactIds = parseCreate(body, bulkEnrollSchema).contact_ids as string[];
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

const sequenceContactsOp = endpointAt('GET', '/sequences/{id}/contacts');
const sequenceContactFilters = declareFilters(sequenceContactsOp, {});

function listSequenceContacts(context: RequestContext): Reply {
  requireLive(context.store, 'sequence', context.params.id!);
  return listReply(context, {
    op: sequenceContactsOp,
    base: {
      from: 'enrollments e JOIN contacts c ON c.id = e.contact_id',
      columns: `${CONTACT_COLUMNS}, e.status AS enrollment_status, e.enrolled_at`,
      where: ['e.sequence_id = ?', 'c.deleted_at IS NULL'],
      params: [context.params.id],
      orderBy: 'e.enrolled_at DESC, e.rowid DESC',
    },
    filters: sequenceContactFilters,
    key: 'contacts',
    toRecord: toContact,
  });
}

export const sequenceRoutes: Route[] = [
  ...sequences.routes,
  { method: 'POST', path: '/sequences/:id/enroll', handler: bulkEnroll },
  { method: 'GET', path: '/sequences/:id/contacts', handler: listSequenceContacts },
];
