// One description of the service's 40 endpoints. It drives the command tree, the generic command
// runner, the docs and (through the same data) completions and MCP tools. Commands with behaviour
// beyond "parse, call, render" name a handler module, loaded only when that command runs.

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type FieldType = 'string' | 'email' | 'integer' | 'number' | 'date' | 'boolean';
export type Kind = 'list' | 'get' | 'create' | 'update' | 'delete' | 'action';

export interface FieldSpec {
  /** The name in the request body or query string, e.g. due_date. */
  name: string;
  /** The flag, without dashes; defaults to the name in kebab case (due_date → due-date). */
  flag?: string;
  description: string;
  type?: FieldType;
  /** Required in the request; a person at a terminal is asked for it, a script gets exit 2. */
  required?: boolean;
  /** What a person picks from when asked: a fixed list, or a list fetched from the service. */
  choices?: readonly string[] | DynamicChoices;
  /** Also ask for this optional field when prompting for a create. */
  prompt?: boolean;
}

export type DynamicChoices = 'stages' | 'sequences';

export interface ArgSpec {
  name: string;
  description: string;
  variadic?: boolean;
  optional?: boolean;
}

export interface OptionSpec {
  flags: string;
  description: string;
}

export interface Operation {
  /** Words after `crm`, e.g. ['contacts', 'notes', 'add']. */
  command: string[];
  aliases?: string[];
  summary: string;
  method: Method;
  /** Relative to the base URL; `{id}` placeholders are filled from the positional arguments. */
  path: string;
  kind: Kind;
  /** The record's noun for messages: "Deleted contact con_1". */
  noun: string;
  args?: ArgSpec[];
  query?: FieldSpec[];
  body?: FieldSpec[];
  /** Options with behaviour of their own (handled by the operation's handler). */
  options?: OptionSpec[];
  /** The list member in the response, e.g. "contacts" in {"contacts": [...], "total": N}. */
  listKey?: string;
  /** limit/offset/--all apply. */
  paged?: boolean;
  columns?: readonly string[];
  /** Custom behaviour; the generic runner handles everything else. */
  handler?: HandlerName;
  /** MCP tool group. */
  group: string;
}

export type HandlerName =
  | 'contacts-create'
  | 'deals-stage'
  | 'sequences-enroll'
  | 'tasks-complete'
  | 'pipeline-deals'
  | 'search'
  | 'analytics'
  | 'ai-accept'
  | 'ai-trigger';

const id = (noun: string): ArgSpec => ({ name: 'id', description: `${noun} id` });

interface ResourceSpec {
  plural: string;
  noun: string;
  group: string;
  columns: readonly string[];
  filters: FieldSpec[];
  /** Body fields for create; update takes the same fields, none required, plus `updateOnly`. */
  fields: FieldSpec[];
  updateOnly?: FieldSpec[];
  /** Extra behaviour of the create command. */
  create?: Pick<Operation, 'handler' | 'options'>;
}

/** The five operations every resource has: list, get, create, update, delete. */
function crud(spec: ResourceSpec): Operation[] {
  const { plural, noun, group, columns } = spec;
  const base = `/${plural}`;
  return [
    { command: [plural, 'list'], aliases: ['ls'], summary: `List ${plural}`, method: 'GET', path: base, kind: 'list', noun, query: spec.filters, listKey: plural, paged: true, columns, group },
    { command: [plural, 'get'], aliases: ['view'], summary: `Show one ${noun}`, method: 'GET', path: `${base}/{id}`, kind: 'get', noun, args: [id(noun)], columns, group },
    { command: [plural, 'create'], aliases: ['new'], summary: `Create a ${noun}`, method: 'POST', path: base, kind: 'create', noun, body: spec.fields, columns, group, ...spec.create },
    {
      command: [plural, 'update'],
      aliases: ['edit'],
      summary: `Update a ${noun}`,
      method: 'PATCH',
      path: `${base}/{id}`,
      kind: 'update',
      noun,
      args: [id(noun)],
      body: [...spec.fields.map(({ required: _required, prompt: _prompt, ...field }) => field), ...(spec.updateOnly ?? [])],
      columns,
      group,
    },
    { command: [plural, 'delete'], aliases: ['rm'], summary: `Delete a ${noun}`, method: 'DELETE', path: `${base}/{id}`, kind: 'delete', noun, args: [id(noun)], group },
  ];
}

const search: FieldSpec = { name: 'search', description: 'text to match' };
const status = (description: string): FieldSpec => ({ name: 'status', description });

const CONTACT_COLUMNS = ['id', 'name', 'email', 'company', 'status', 'score', 'created_at'];
const TASK_COLUMNS = ['id', 'title', 'status', 'priority', 'due_date', 'contact_id', 'created_at'];
const TASK_FIELDS: FieldSpec[] = [
  { name: 'title', description: 'task title', required: true },
  { name: 'due_date', flag: 'due', description: 'due date: YYYY-MM-DD, today, tomorrow or +Nd', type: 'date', prompt: true },
  { name: 'priority', description: 'priority', choices: ['low', 'normal', 'high'] },
  { name: 'description', description: 'longer description' },
];
export const SEQUENCE_STATUSES = ['active', 'paused', 'archived'] as const;

export const OPERATIONS: readonly Operation[] = [
  ...crud({
  plural: 'contacts',
  noun: 'contact',
  group: 'contacts',
  columns: CONTACT_COLUMNS,
  filters: [search, status('contact status'), { name: 'list_id', description: 'only contacts in this list' }],
  fields: [
    { name: 'name', description: 'full name', required: true },
    { name: 'email', description: 'email address', type: 'email', required: true },
    { name: 'company', description: 'company name', prompt: true },
  ],
  updateOnly: [status('contact status')],
  // `contacts create --score` also scores the new contact at once (POST /ai/trigger).
  create: {
    handler: 'contacts-create',
    options: [{ flags: '--score', description: 'score the new contact at once (POST /ai/trigger)' }],
  },
  }),
  {
    command: ['contacts', 'notes', 'list'],
    aliases: ['ls'],
    summary: "List a contact's notes",
    method: 'GET',
    path: '/contacts/{id}/notes',
    kind: 'list',
    noun: 'note',
    args: [id('contact')],
    listKey: 'notes',
    paged: true,
    columns: ['id', 'body', 'created_at'],
    group: 'contacts',
  },
  {
    command: ['contacts', 'notes', 'add'],
    summary: 'Add a note to a contact',
    method: 'POST',
    path: '/contacts/{id}/notes',
    kind: 'create',
    noun: 'note',
    args: [id('contact')],
    body: [{ name: 'body', description: 'the note text', required: true }],
    columns: ['id', 'body', 'created_at'],
    group: 'contacts',
  },
  {
    command: ['contacts', 'tasks', 'add'],
    summary: 'Create a task for a contact',
    method: 'POST',
    path: '/contacts/{id}/tasks',
    kind: 'create',
    noun: 'task',
    args: [id('contact')],
    body: TASK_FIELDS,
    columns: TASK_COLUMNS,
    group: 'contacts',
  },
  {
    command: ['contacts', 'enroll'],
    summary: 'Enrol a contact into a sequence',
    method: 'POST',
    path: '/contacts/{id}/sequences',
    kind: 'action',
    noun: 'enrollment',
    args: [id('contact')],
    body: [{ name: 'sequence_id', flag: 'sequence', description: 'sequence id', required: true, choices: 'sequences' }],
    columns: ['id', 'contact_id', 'sequence_id', 'status', 'enrolled_at'],
    group: 'contacts',
  },

  ...crud({
    plural: 'accounts',
    noun: 'account',
    group: 'accounts',
    columns: ['id', 'name', 'domain', 'industry', 'employees', 'created_at'],
    filters: [search, { name: 'industry', description: 'industry' }],
    fields: [
      { name: 'name', description: 'account (company) name', required: true },
      { name: 'domain', description: 'web domain, e.g. example.com', prompt: true },
      { name: 'industry', description: 'industry' },
      { name: 'employees', description: 'number of employees', type: 'integer' },
    ],
  }),

  ...crud({
    plural: 'deals',
    noun: 'deal',
    group: 'deals',
    columns: ['id', 'name', 'stage', 'amount', 'currency', 'status', 'close_date', 'created_at'],
    filters: [
      search,
      { name: 'stage', description: 'pipeline stage' },
      status('deal status (open, won, lost)'),
      { name: 'account_id', description: 'only deals of this account' },
      { name: 'contact_id', description: 'only deals of this contact' },
    ],
    fields: [
      { name: 'name', description: 'deal name', required: true },
      { name: 'amount', description: 'deal value', type: 'number', prompt: true },
      { name: 'stage', description: 'pipeline stage', choices: 'stages', prompt: true },
      { name: 'currency', description: 'ISO currency code, e.g. USD' },
      { name: 'account_id', description: 'account id' },
      { name: 'contact_id', description: 'primary contact id' },
      { name: 'close_date', description: 'expected close date', type: 'date' },
    ],
  }),
  {
    command: ['deals', 'stage'],
    summary: 'Move a deal to another pipeline stage (logs an activity)',
    method: 'POST',
    path: '/deals/{id}/stage',
    kind: 'action',
    noun: 'deal',
    args: [id('deal'), { name: 'stage', description: 'the new stage (id or name); omitted on a terminal: pick one', optional: true }],
    body: [],
    handler: 'deals-stage',
    columns: ['id', 'name', 'stage', 'amount', 'status'],
    group: 'deals',
  },

  ...crud({
    plural: 'sequences',
    noun: 'sequence',
    group: 'sequences',
    columns: ['id', 'name', 'status', 'enrolled_count', 'created_at'],
    filters: [search, status('sequence status')],
    fields: [
      { name: 'name', description: 'sequence name', required: true },
      { name: 'status', description: 'status', choices: SEQUENCE_STATUSES, prompt: true },
      { name: 'description', description: 'what the sequence is for' },
    ],
  }),
  {
    command: ['sequences', 'enroll'],
    summary: 'Enrol contacts into a sequence (ids from arguments, --file, or stdin)',
    method: 'POST',
    path: '/sequences/{id}/enroll',
    kind: 'action',
    noun: 'enrollment',
    args: [id('sequence'), { name: 'contact_ids', description: 'contact ids; `-` reads them from stdin', variadic: true, optional: true }],
    options: [{ flags: '--file <file>', description: 'read contact ids from a file (one a line, or a JSON array)' }],
    body: [],
    handler: 'sequences-enroll',
    group: 'sequences',
  },
  {
    command: ['sequences', 'contacts'],
    summary: 'List the contacts enrolled in a sequence',
    method: 'GET',
    path: '/sequences/{id}/contacts',
    kind: 'list',
    noun: 'contact',
    args: [id('sequence')],
    listKey: 'contacts',
    paged: true,
    columns: ['id', 'name', 'email', 'enrollment_status', 'enrolled_at'],
    group: 'sequences',
  },

  ...crud({
    plural: 'tasks',
    noun: 'task',
    group: 'tasks',
    columns: TASK_COLUMNS,
    filters: [
      search,
      status('task status (open, completed)'),
      { name: 'priority', description: 'priority' },
      { name: 'contact_id', description: 'only tasks of this contact' },
      { name: 'deal_id', description: 'only tasks of this deal' },
      { name: 'overdue', description: 'only overdue tasks', type: 'boolean' },
    ],
    fields: [
      ...TASK_FIELDS,
      { name: 'contact_id', description: 'contact id' },
      { name: 'deal_id', description: 'deal id' },
    ],
    updateOnly: [status('task status')],
  }),
  {
    command: ['tasks', 'complete'],
    aliases: ['done'],
    summary: 'Mark tasks complete',
    method: 'POST',
    path: '/tasks/{id}/complete',
    kind: 'action',
    noun: 'task',
    args: [{ name: 'ids', description: 'task ids', variadic: true }],
    handler: 'tasks-complete',
    columns: TASK_COLUMNS,
    group: 'tasks',
  },

  {
    command: ['pipeline', 'stages'],
    summary: 'List the pipeline stages',
    method: 'GET',
    path: '/pipeline/stages',
    kind: 'list',
    noun: 'stage',
    listKey: 'stages',
    columns: ['id', 'name', 'position', 'probability'],
    group: 'pipeline',
  },
  {
    command: ['pipeline', 'deals'],
    summary: 'Deal count and total value per stage',
    method: 'GET',
    path: '/pipeline/deals',
    kind: 'get',
    noun: 'stage',
    listKey: 'stages',
    handler: 'pipeline-deals',
    group: 'pipeline',
  },

  {
    command: ['search'],
    summary: 'Search contacts, deals, accounts and tasks',
    method: 'GET',
    path: '/search',
    kind: 'list',
    noun: 'result',
    args: [{ name: 'query', description: 'text to search for' }],
    options: [{ flags: '--types <types>', description: 'comma-separated: contacts,deals,accounts,tasks (default all)' }],
    listKey: 'results',
    paged: true,
    handler: 'search',
    columns: ['type', 'id', 'title', 'subtitle'],
    group: 'search',
  },
  {
    command: ['analytics'],
    summary: 'Rollups of contacts, deals, emails and tasks',
    method: 'GET',
    path: '/analytics',
    kind: 'get',
    noun: 'analytics',
    options: [{ flags: '--period <period>', description: '7d, 30d or 90d (default 30d)' }],
    handler: 'analytics',
    group: 'analytics',
  },

  {
    command: ['ai', 'suggestions'],
    summary: 'List pending AI suggestions',
    method: 'GET',
    path: '/ai/suggestions',
    kind: 'list',
    noun: 'suggestion',
    listKey: 'suggestions',
    paged: true,
    columns: ['id', 'type', 'title', 'contact_id', 'deal_id', 'created_at'],
    group: 'ai',
  },
  {
    command: ['ai', 'accept'],
    summary: 'Accept AI suggestions (no id on a terminal: pick from the pending ones)',
    method: 'POST',
    path: '/ai/suggestions/{id}/accept',
    kind: 'action',
    noun: 'suggestion',
    args: [{ name: 'ids', description: 'suggestion ids', variadic: true, optional: true }],
    handler: 'ai-accept',
    columns: ['id', 'type', 'title', 'status', 'task_id'],
    group: 'ai',
  },
  {
    command: ['ai', 'trigger'],
    summary: "Score a contact now and persist its next best action",
    method: 'POST',
    path: '/ai/trigger',
    kind: 'action',
    noun: 'score',
    args: [{ name: 'contact_id', description: 'contact id' }],
    body: [],
    handler: 'ai-trigger',
    group: 'ai',
  },
];

/** The flag of a field: `due` for due_date when named so, else the kebab-case name. */
export function flagName(field: FieldSpec): string {
  return field.flag ?? field.name.replace(/_/g, '-');
}

/** The command groups and their one-line descriptions, in help order. */
export const GROUPS: ReadonlyArray<[string, string]> = [
  ['contacts', 'Contacts, their notes, tasks and sequence enrolment'],
  ['contacts notes', "A contact's notes"],
  ['contacts tasks', "A contact's tasks"],
  ['accounts', 'Accounts (companies)'],
  ['deals', 'Deals and their stage moves'],
  ['sequences', 'Sequences and bulk enrolment'],
  ['tasks', 'Tasks'],
  ['pipeline', 'Pipeline stages and per-stage totals'],
  ['ai', 'AI suggestions and scoring'],
];
