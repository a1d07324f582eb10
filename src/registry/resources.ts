// The records of the service and their fields: the spec's (contact: id, name, email, company,
// created_at) and, where it is silent, those of the sandbox (docs/api-assumptions.md). Commands,
// prompts, completions, MCP schemas, docs and the sandbox's validation all read them from here.

import { DATE_FORMS, type FieldSpec, type ResourceName, type ResourceSpec } from './types.js';

export const CONTACT_STATUSES = ['lead', 'prospect', 'customer', 'churned'] as const;
const DEAL_STATUSES = ['open', 'won', 'lost'] as const;
const SEQUENCE_STATUSES = ['active', 'paused', 'archived'] as const;
export const STEP_CHANNELS = ['email', 'call', 'task'] as const;
const TASK_STATUSES = ['open', 'completed'] as const;
const TASK_PRIORITIES = ['low', 'normal', 'high'] as const;
const SUGGESTION_TYPES = ['next_best_action', 'follow_up', 'deal_risk'] as const;
const SUGGESTION_STATUSES = ['pending', 'accepted'] as const;
export type SequenceStatus = (typeof SEQUENCE_STATUSES)[number];
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

/** A list's values by name: { open: 'open', ... }. */
const byName = <const V extends readonly string[]>(values: V) => Object.fromEntries(values.map((value) => [value, value])) as { readonly [K in V[number]]: K };

/**
 * The statuses of the records that have them, by name (STATUS.task.open is 'open'): code that
 * compares a record's status or asks for one names it so, and a misspelt status does not compile.
 */
export const STATUS = {
  deal: byName(DEAL_STATUSES),
  sequence: byName(SEQUENCE_STATUSES),
  task: byName(TASK_STATUSES),
  suggestion: byName(SUGGESTION_STATUSES),
} as const;

// The specification fixes these two.
export const PERIODS = ['7d', '30d', '90d'] as const;
export const SEARCH_TYPES = ['contacts', 'deals', 'accounts', 'tasks'] as const;

const ro = (name: string, type: FieldSpec['type'], description: string): FieldSpec => ({ name, type, description, readOnly: true });
const id = (description: string): FieldSpec => ro('id', 'id', description);
const CREATED = ro('created_at', 'string', 'when it was created (ISO 8601, UTC)');
const UPDATED = ro('updated_at', 'string', 'when it was last changed (ISO 8601, UTC)');
const search = (what: string): FieldSpec => ({ name: 'search', type: 'string', description: `text to match in ${what}`, example: 'globex' });
/**
 * The field people name a record by, taken wherever an id of that resource is: a contact's email, an
 * account's name (src/commands/keys.ts finds the record; docs/api-assumptions.md says how).
 */
export const NATURAL_KEYS: Readonly<Partial<Record<ResourceName, 'email' | 'name'>>> = { contact: 'email', account: 'name' };

/** "contact id or email": what a field that points at RESOURCE takes. */
export const idOrKey = (resource: ResourceName, id = `${resource} id`): string => (NATURAL_KEYS[resource] ? `${id} or ${NATURAL_KEYS[resource]}` : id);

const ref = (name: string, references: ResourceName, description: string): FieldSpec => ({ name, type: 'id', description: idOrKey(references, description), references });
/** A list filter by a record of RESOURCE: its id, or its natural key. */
const refFilter = (name: string, references: ResourceName, description: string): FieldSpec => ({
  name,
  type: 'id',
  description: NATURAL_KEYS[references] ? `${description} (${idOrKey(references, 'id')})` : description,
  references,
});

const CONTACT: ResourceSpec = {
  name: 'contact',
  plural: 'contacts',
  fields: [
    id('contact id'),
    { name: 'name', type: 'string', description: 'full name', required: true, maxLength: 200, example: 'Ada Lovelace' },
    { name: 'email', type: 'email', description: 'email address', required: true, example: 'ada@example.com' },
    { name: 'company', type: 'string', description: 'company name', prompt: true, maxLength: 200, example: 'Analytical Engines' },
    { name: 'phone', type: 'string', description: 'phone number', maxLength: 50 },
    { name: 'title', type: 'string', description: 'job title', maxLength: 200 },
    { name: 'status', type: 'string', description: 'contact status', known: CONTACT_STATUSES, default: 'lead' },
    ref('account_id', 'account', "the contact's account id"),
    { name: 'list_ids', type: 'ids', description: 'ids of the lists the contact is in', max: 50 },
    ro('score', 'integer', 'AI score, 0 to 100'),
    ro('next_best_action', 'string', 'the recommended next step'),
    ro('scored_at', 'string', 'when it was last scored'),
    CREATED,
    UPDATED,
  ],
  filters: [
    search('name, email and company'),
    { name: 'status', type: 'string', description: 'only contacts with this status', known: CONTACT_STATUSES },
    { name: 'list_id', type: 'id', description: 'only contacts in this list' },
  ],
  columns: ['id', 'name', 'email', 'status', 'score', 'company', 'created_at'],
  brief: ['id', 'name', 'email', 'status'],
};

const ACCOUNT: ResourceSpec = {
  name: 'account',
  plural: 'accounts',
  fields: [
    id('account id'),
    { name: 'name', type: 'string', description: 'account (company) name', required: true, maxLength: 200, example: 'Analytical Engines' },
    { name: 'domain', type: 'string', description: 'web domain, e.g. example.com', prompt: true, maxLength: 253, example: 'example.com' },
    { name: 'industry', type: 'string', description: 'industry', maxLength: 100, example: 'Software' },
    { name: 'employees', type: 'integer', description: 'number of employees', min: 0 },
    CREATED,
    UPDATED,
  ],
  filters: [search('name and domain'), { name: 'industry', type: 'string', description: 'only accounts in this industry', example: 'Software' }],
  columns: ['id', 'name', 'domain', 'industry', 'employees', 'created_at'],
  brief: ['id', 'name', 'domain', 'industry'],
};

const DEAL: ResourceSpec = {
  name: 'deal',
  plural: 'deals',
  fields: [
    id('deal id'),
    { name: 'name', type: 'string', description: 'deal name', required: true, maxLength: 200, example: 'Annual licence' },
    { name: 'amount', type: 'number', description: 'deal value', prompt: true, min: 0, default: 0, example: '12000' },
    { name: 'currency', type: 'string', description: 'ISO currency code, e.g. USD', default: 'USD', maxLength: 3 },
    { name: 'stage', type: 'string', description: 'pipeline stage (id or name)', known: 'stages', prompt: true, maxLength: 100 },
    { ...ro('status', 'string', 'open, won or lost, from the stage'), known: DEAL_STATUSES },
    // At a terminal, a create offers a picker for these (type to filter).
    { ...ref('account_id', 'account', 'account id'), prompt: true },
    { ...ref('contact_id', 'contact', 'primary contact id'), prompt: true },
    { name: 'close_date', type: 'date', description: 'expected close date' },
    CREATED,
    UPDATED,
    ro('activities', 'json', 'its stage moves, newest first (when one deal is read)'),
  ],
  filters: [
    search('the deal name'),
    { name: 'stage', type: 'string', description: 'only deals in this stage', known: 'stages' },
    { name: 'status', type: 'string', description: 'only open, won or lost deals', known: DEAL_STATUSES },
    refFilter('account_id', 'account', 'only deals of this account'),
    refFilter('contact_id', 'contact', 'only deals of this contact'),
  ],
  columns: ['id', 'name', 'amount', 'stage', 'status', 'close_date', 'currency', 'created_at'],
  brief: ['id', 'name', 'amount', 'stage', 'status', 'account_id', 'contact_id'],
  // GET /deals/{id} adds its stage history; a stage move, the activity it logged.
  members: ['activities', 'activity'],
};

/** One step of a sequence. */
export const STEP_FIELDS: readonly FieldSpec[] = [
  { name: 'day', type: 'integer', description: 'days after enrolment', required: true, min: 0, example: '0' },
  { name: 'channel', type: 'string', description: 'how the step reaches the contact', required: true, known: STEP_CHANNELS },
  { name: 'subject', type: 'string', description: 'what the step says', required: true, maxLength: 200, example: 'Hello' },
];

const SEQUENCE: ResourceSpec = {
  name: 'sequence',
  plural: 'sequences',
  fields: [
    id('sequence id'),
    { name: 'name', type: 'string', description: 'sequence name', required: true, maxLength: 200, example: 'Trial follow-up' },
    { name: 'description', type: 'string', description: 'what the sequence is for', maxLength: 10_000, long: true },
    { name: 'status', type: 'string', description: 'sequence status', known: SEQUENCE_STATUSES, default: 'active', prompt: true },
    { name: 'steps', type: 'json', description: 'steps: [{day, channel (email, call, task), subject}]', max: 100, items: STEP_FIELDS },
    ro('enrolled_count', 'integer', 'contacts enrolled'),
    CREATED,
    UPDATED,
  ],
  filters: [search('name and description'), { name: 'status', type: 'string', description: 'only sequences with this status', known: SEQUENCE_STATUSES }],
  columns: ['id', 'name', 'status', 'enrolled_count', 'steps', 'created_at'],
  brief: ['id', 'name', 'status'],
};

const TASK_FIELDS: readonly FieldSpec[] = [
  id('task id'),
  { name: 'title', type: 'string', description: 'task title', required: true, maxLength: 200, example: 'Intro call' },
  { name: 'description', type: 'string', description: 'longer description', maxLength: 10_000, long: true },
  { name: 'status', type: 'string', description: 'task status', known: TASK_STATUSES, default: 'open' },
  { name: 'priority', type: 'string', description: 'priority', known: TASK_PRIORITIES, default: 'normal' },
  { name: 'due_date', flag: 'due', type: 'date', description: `due date: ${DATE_FORMS}`, prompt: true, example: '+2d' },
  { ...ref('contact_id', 'contact', 'contact id'), prompt: true },
  ref('deal_id', 'deal', 'deal id'),
  ro('completed_at', 'string', 'when it was completed'),
  CREATED,
  UPDATED,
];

const TASK: ResourceSpec = {
  name: 'task',
  plural: 'tasks',
  fields: TASK_FIELDS,
  filters: [
    search('title and description'),
    { name: 'status', type: 'string', description: 'only tasks with this status', known: TASK_STATUSES },
    { name: 'priority', type: 'string', description: 'only tasks with this priority', known: TASK_PRIORITIES },
    refFilter('contact_id', 'contact', 'only tasks of this contact'),
    refFilter('deal_id', 'deal', 'only tasks of this deal'),
    { name: 'overdue', type: 'boolean', description: 'only overdue tasks (open, due before today)' },
  ],
  columns: ['id', 'title', 'due_date', 'status', 'priority', 'contact_id', 'deal_id', 'created_at'],
  brief: ['id', 'title', 'due_date', 'status', 'priority', 'contact_id', 'deal_id'],
};

const NOTE: ResourceSpec = {
  name: 'note',
  plural: 'notes',
  fields: [
    id('note id'),
    ro('contact_id', 'id', 'the contact'),
    { name: 'body', type: 'string', description: 'the note text', required: true, maxLength: 10_000, long: true, example: 'Asked for a demo next week' },
    CREATED,
  ],
  filters: [],
  columns: ['id', 'body', 'created_at', 'contact_id'],
  brief: ['id', 'body', 'created_at'],
};

const ENROLLMENT: ResourceSpec = {
  name: 'enrollment',
  plural: 'enrollments',
  fields: [
    id('enrolment id'),
    ro('contact_id', 'id', 'the contact'),
    { name: 'sequence_id', flag: 'sequence', type: 'id', description: 'sequence id', required: true, known: 'sequences', references: 'sequence' },
    ro('status', 'string', 'enrolment status'),
    ro('enrolled_at', 'string', 'when the contact was enrolled'),
  ],
  filters: [],
  columns: ['id', 'sequence_id', 'status', 'enrolled_at', 'contact_id'],
  brief: ['id', 'sequence_id', 'contact_id', 'status'],
};

const SUGGESTION: ResourceSpec = {
  name: 'suggestion',
  plural: 'suggestions',
  fields: [
    id('suggestion id'),
    { ...ro('type', 'string', 'kind of suggestion'), known: SUGGESTION_TYPES },
    ro('contact_id', 'id', 'the contact it concerns'),
    ro('deal_id', 'id', 'the deal it concerns'),
    ro('title', 'string', 'what to do'),
    ro('reason', 'string', 'why'),
    ro('action', 'json', 'what accepting it does'),
    { ...ro('status', 'string', 'pending or accepted'), known: SUGGESTION_STATUSES },
    CREATED,
    ro('accepted_at', 'string', 'when it was accepted'),
    ro('task_id', 'id', 'the task accepting it created'),
  ],
  filters: [
    { name: 'type', type: 'string', description: 'only suggestions of this kind', known: SUGGESTION_TYPES },
    refFilter('contact_id', 'contact', 'only suggestions about this contact'),
    refFilter('deal_id', 'deal', 'only suggestions about this deal'),
  ],
  columns: ['id', 'title', 'type', 'contact_id', 'deal_id', 'created_at'],
  brief: ['id', 'title', 'type', 'contact_id', 'deal_id'],
};

const STAGE: ResourceSpec = {
  name: 'stage',
  plural: 'stages',
  fields: [
    ro('id', 'string', 'stage id'),
    ro('name', 'string', 'display name'),
    ro('position', 'integer', 'order in the pipeline'),
    ro('probability', 'integer', 'chance of winning, percent'),
    ro('is_closed', 'boolean', 'deals here are closed'),
    ro('is_won', 'boolean', 'deals here are won'),
  ],
  filters: [],
  columns: ['id', 'name', 'position', 'probability'],
  brief: ['id', 'name', 'position'],
};

const ACTIVITY: ResourceSpec = {
  name: 'activity',
  plural: 'activities',
  fields: [
    ro('id', 'id', 'activity id'),
    ro('deal_id', 'id', 'the deal'),
    ro('type', 'string', 'stage_change'),
    ro('from_stage', 'string', 'stage before'),
    ro('to_stage', 'string', 'stage after'),
    CREATED,
  ],
  filters: [],
  columns: ['id', 'type', 'from_stage', 'to_stage', 'created_at'],
  brief: ['id', 'from_stage', 'to_stage', 'created_at'],
};

export const RESOURCES: Readonly<Record<ResourceName, ResourceSpec>> = {
  contact: CONTACT,
  account: ACCOUNT,
  deal: DEAL,
  sequence: SEQUENCE,
  task: TASK,
  note: NOTE,
  enrollment: ENROLLMENT,
  suggestion: SUGGESTION,
  stage: STAGE,
  activity: ACTIVITY,
};

/** The fields a create may send, with their requirements. */
/** The filters of every list (the same objects as the commands' options): none takes an empty value. */
/** The fields that hold a date (due_date, close_date): one sent as an epoch number is a time (timestampText), as an `..._at` one is. */
export const DATE_FIELDS: ReadonlySet<string> = new Set(Object.values(RESOURCES).flatMap((resource) => resource.fields.filter((field) => field.type === 'date').map((field) => field.name)));

export const LIST_FILTERS: ReadonlySet<FieldSpec> = new Set(Object.values(RESOURCES).flatMap((resource) => resource.filters));

export function writableFields(resource: ResourceName): FieldSpec[] {
  return RESOURCES[resource].fields.filter((field) => !field.readOnly);
}

/** The same fields for an update: nothing required, nothing prompted. */
export function updateFields(resource: ResourceName): FieldSpec[] {
  return writableFields(resource).map(({ required, prompt: _prompt, ...field }) => (required ? { ...field, notBlank: true } : field));
}

/** The resource a collection of the API holds (`contacts` → contact), if it is one. */
export function resourceNamed(plural: string): ResourceName | undefined {
  return Object.values(RESOURCES).find((resource) => resource.plural === plural)?.name;
}
