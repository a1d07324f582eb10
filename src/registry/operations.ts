// The service's 40 endpoints as commands. With the resources (./resources.ts) this drives the
// command tree, the checks made before a request, prompts, help, docs/commands.md, completions and
// MCP tools. Commands with behaviour beyond "parse, call, render" name a handler, loaded only when
// that command runs.

import { PERIODS, RESOURCES, SEARCH_TYPES, updateFields, writableFields } from './resources.js';
import { TERMINAL, type Example, type FieldSpec, type Group, type Operation, type ResourceName } from './types.js';

// Demo records of the sandbox: the seed is deterministic, so these ids exist on every fresh install.
export const DEMO = {
  contact: 'con_ua7xr0zeyzwl2vbo',
  account: 'acc_mzn69mgnrt5mtd36',
  deal: 'deal_m279ns143s296hm4',
  sequence: 'seq_l5zzndpb71w0ultz',
  task: 'task_itdqugao0gncult1',
} as const;

const idArg = (noun: string): FieldSpec => ({ name: 'id', type: 'id', description: `${noun} id` });

interface CrudSpec {
  resource: ResourceName;
  group: Group;
  examples: { list: Example[]; get: Example[]; create: Example[]; update: Example[]; delete: Example[] };
  /** Extra behaviour of the create command. */
  create?: Pick<Operation, 'handler' | 'options'>;
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? 'an' : 'a');

/** The five operations every resource has: list, get, create, update, delete. */
function crud({ resource, group, examples, create }: CrudSpec): Operation[] {
  const { plural, filters, columns } = RESOURCES[resource];
  const noun = resource;
  const base = `/${plural}`;
  const common = { group, noun, resource, options: [] as FieldSpec[] };
  return [
    { ...common, name: `${plural}_list`, command: [plural, 'list'], aliases: ['ls'], summary: `List ${plural}, newest first`, method: 'GET', path: base, kind: 'list', args: [], query: filters, body: [], listKey: plural, paged: true, columns, examples: examples.list },
    { ...common, name: `${plural}_get`, command: [plural, 'get'], aliases: ['view'], summary: `Show one ${noun}`, method: 'GET', path: `${base}/{id}`, kind: 'get', args: [idArg(noun)], query: [], body: [], examples: examples.get },
    { ...common, name: `${plural}_create`, command: [plural, 'create'], aliases: ['new'], summary: `Create ${article(noun)} ${noun}`, method: 'POST', path: base, kind: 'create', args: [], query: [], body: writableFields(resource), columns, examples: examples.create, ...create },
    { ...common, name: `${plural}_update`, command: [plural, 'update'], aliases: ['edit'], summary: `Change fields of ${article(noun)} ${noun}`, method: 'PATCH', path: `${base}/{id}`, kind: 'update', args: [idArg(noun)], query: [], body: updateFields(resource), columns, examples: examples.update },
    { ...common, name: `${plural}_delete`, command: [plural, 'delete'], aliases: ['rm'], summary: `Delete ${article(noun)} ${noun}`, method: 'DELETE', path: `${base}/{id}`, kind: 'delete', args: [idArg(noun)], query: [], body: [], examples: examples.delete },
  ];
}

const ex = (command: string, description: string, needs?: string): Example => ({ command, description, ...(needs ? { needs } : {}) });

const DEFINED: readonly Operation[] = [
  ...crud({
    resource: 'contact',
    group: 'contacts',
    create: { handler: 'contacts-create', options: [{ name: 'score', type: 'boolean', description: 'score the new contact at once (POST /ai/trigger)' }] },
    examples: {
      list: [ex('crm contacts list --status lead --limit 10', 'the ten newest leads'), ex('crm contacts list --all -o ndjson', 'every contact, one JSON record a line')],
      get: [ex(`crm contacts get ${DEMO.contact}`, 'one contact, every field')],
      create: [
        ex('crm contacts create --name "Ada Lovelace" --email ada@example.com', 'create a contact'),
        ex('crm contacts create --name "Grace Hopper" --email grace@example.com --score -q', 'create, score at once, print only the id'),
      ],
      update: [ex(`crm contacts update ${DEMO.contact} --status customer`, 'change one field')],
      delete: [ex(`crm contacts delete ${DEMO.contact} --yes`, 'soft-delete without asking')],
    },
  }),
  {
    name: 'contacts_notes_list',
    command: ['contacts', 'notes', 'list'],
    aliases: ['ls'],
    summary: "List a contact's notes",
    method: 'GET',
    path: '/contacts/{id}/notes',
    kind: 'list',
    group: 'contacts',
    noun: 'note',
    resource: 'note',
    args: [idArg('contact')],
    query: [],
    body: [],
    options: [],
    listKey: 'notes',
    paged: true,
    columns: RESOURCES.note.columns,
    examples: [ex(`crm contacts notes list ${DEMO.contact}`, "the contact's notes, newest first")],
  },
  {
    name: 'contacts_notes_add',
    command: ['contacts', 'notes', 'add'],
    summary: 'Add a note to a contact',
    method: 'POST',
    path: '/contacts/{id}/notes',
    kind: 'create',
    group: 'contacts',
    noun: 'note',
    resource: 'note',
    args: [idArg('contact')],
    query: [],
    body: writableFields('note'),
    options: [],
    columns: RESOURCES.note.columns,
    examples: [ex(`crm contacts notes add ${DEMO.contact} --body "Asked for a demo next week"`, 'add a note')],
  },
  {
    name: 'contacts_tasks_add',
    command: ['contacts', 'tasks', 'add'],
    summary: 'Create a task for a contact',
    method: 'POST',
    path: '/contacts/{id}/tasks',
    kind: 'create',
    group: 'contacts',
    noun: 'task',
    resource: 'task',
    args: [idArg('contact')],
    query: [],
    // The path names the contact.
    body: writableFields('task').filter((field) => field.name !== 'contact_id'),
    options: [],
    columns: RESOURCES.task.columns,
    examples: [ex(`crm contacts tasks add ${DEMO.contact} --title "Intro call" --due +2d`, 'a task due in two days')],
  },
  {
    name: 'contacts_enroll',
    command: ['contacts', 'enroll'],
    summary: 'Enrol a contact into a sequence',
    method: 'POST',
    path: '/contacts/{id}/sequences',
    kind: 'action',
    group: 'contacts',
    noun: 'enrollment',
    resource: 'enrollment',
    args: [idArg('contact')],
    query: [],
    body: writableFields('enrollment'),
    options: [],
    columns: RESOURCES.enrollment.columns,
    examples: [ex(`crm contacts enroll ${DEMO.contact} --sequence ${DEMO.sequence}`, 'enrol into a sequence')],
  },

  ...crud({
    resource: 'account',
    group: 'accounts',
    examples: {
      list: [ex('crm accounts list --industry Software', 'accounts in one industry')],
      get: [ex(`crm accounts get ${DEMO.account}`, 'one account')],
      create: [ex('crm accounts create --name "Analytical Engines" --domain example.com', 'create an account')],
      update: [ex(`crm accounts update ${DEMO.account} --employees 40`, 'change one field')],
      delete: [ex(`crm accounts delete ${DEMO.account} --yes`, 'delete without asking')],
    },
  }),

  ...crud({
    resource: 'deal',
    group: 'deals',
    examples: {
      list: [ex('crm deals list --stage proposal', 'deals in one stage'), ex('crm deals list --status won --fields name,amount', 'won deals, two fields')],
      get: [ex(`crm deals get ${DEMO.deal}`, 'one deal with its stage history')],
      create: [ex('crm deals create --name "Annual licence" --amount 12000 --stage qualification', 'create a deal')],
      update: [ex(`crm deals update ${DEMO.deal} --amount 15000`, 'change the value')],
      delete: [ex(`crm deals delete ${DEMO.deal} --yes`, 'delete without asking')],
    },
  }),
  {
    name: 'deals_stage',
    command: ['deals', 'stage'],
    summary: 'Move a deal to another pipeline stage (logs an activity)',
    method: 'POST',
    path: '/deals/{id}/stage',
    kind: 'action',
    group: 'deals',
    noun: 'deal',
    resource: 'deal',
    args: [idArg('deal'), { name: 'stage', type: 'string', description: 'the new stage (id or name); omitted on a terminal: pick one', optional: true, known: 'stages' }],
    query: [],
    body: [],
    options: [],
    handler: 'deals-stage',
    columns: ['id', 'name', 'stage', 'amount', 'status'],
    examples: [ex(`crm deals stage ${DEMO.deal} negotiation`, 'move a deal'), ex(`crm deals stage ${DEMO.deal}`, 'pick the stage from a list (on a terminal)', TERMINAL)],
  },

  ...crud({
    resource: 'sequence',
    group: 'sequences',
    examples: {
      list: [ex('crm sequences list --status active', 'the active sequences')],
      get: [ex(`crm sequences get ${DEMO.sequence}`, 'one sequence with its steps')],
      create: [ex('crm sequences create --name "Trial follow-up" --set \'steps=[{"day":0,"channel":"email","subject":"Welcome"}]\'', 'a sequence with one step')],
      update: [ex(`crm sequences update ${DEMO.sequence} --status paused`, 'pause a sequence')],
      delete: [ex(`crm sequences delete ${DEMO.sequence} --yes`, 'delete without asking')],
    },
  }),
  {
    name: 'sequences_enroll',
    command: ['sequences', 'enroll'],
    summary: 'Enrol contacts into a sequence (ids from arguments, --file, or stdin)',
    method: 'POST',
    path: '/sequences/{id}/enroll',
    kind: 'action',
    group: 'sequences',
    noun: 'enrollment',
    args: [idArg('sequence'), { name: 'contact_ids', type: 'ids', description: 'contact ids; `-` reads them from stdin', variadic: true, optional: true }],
    query: [],
    body: [],
    options: [{ name: 'file', type: 'file', description: 'read contact ids from a file (one a line, or a JSON array)' }],
    handler: 'sequences-enroll',
    examples: [
      ex(`crm sequences enroll ${DEMO.sequence} ${DEMO.contact}`, 'enrol one contact'),
      ex(`crm contacts list --status lead -q | crm sequences enroll ${DEMO.sequence} -`, 'enrol every lead of the page, ids from stdin'),
    ],
  },
  {
    name: 'sequences_contacts',
    command: ['sequences', 'contacts'],
    summary: 'List the contacts enrolled in a sequence',
    method: 'GET',
    path: '/sequences/{id}/contacts',
    kind: 'list',
    group: 'sequences',
    noun: 'contact',
    resource: 'contact',
    args: [idArg('sequence')],
    query: [],
    body: [],
    options: [],
    listKey: 'contacts',
    paged: true,
    columns: ['id', 'name', 'email', 'enrollment_status', 'enrolled_at'],
    examples: [ex(`crm sequences contacts ${DEMO.sequence}`, 'who is enrolled')],
  },

  ...crud({
    resource: 'task',
    group: 'tasks',
    examples: {
      list: [ex('crm tasks list --overdue', 'overdue tasks'), ex('crm tasks list --status open --priority high', 'open high-priority tasks')],
      get: [ex(`crm tasks get ${DEMO.task}`, 'one task')],
      create: [ex('crm tasks create --title "Send the proposal" --due tomorrow --priority high', 'create a task')],
      update: [ex(`crm tasks update ${DEMO.task} --due +1w`, 'push the due date a week out')],
      delete: [ex(`crm tasks delete ${DEMO.task} --yes`, 'delete without asking')],
    },
  }),
  {
    name: 'tasks_complete',
    command: ['tasks', 'complete'],
    aliases: ['done'],
    summary: 'Mark tasks complete',
    method: 'POST',
    path: '/tasks/{id}/complete',
    kind: 'action',
    group: 'tasks',
    noun: 'task',
    resource: 'task',
    args: [{ name: 'ids', type: 'ids', description: 'task ids', variadic: true }],
    query: [],
    body: [],
    options: [],
    handler: 'tasks-complete',
    columns: ['id', 'result', 'record.title', 'error'],
    examples: [ex(`crm tasks complete ${DEMO.task}`, 'complete one task'), ex('crm tasks list --overdue -q | xargs crm tasks complete', 'complete every overdue task of the page')],
  },

  {
    name: 'pipeline_stages',
    command: ['pipeline', 'stages'],
    summary: 'List the pipeline stages',
    method: 'GET',
    path: '/pipeline/stages',
    kind: 'list',
    group: 'pipeline',
    noun: 'stage',
    resource: 'stage',
    args: [],
    query: [],
    body: [],
    options: [],
    listKey: 'stages',
    columns: RESOURCES.stage.columns,
    examples: [ex('crm pipeline stages', 'the stages in order')],
  },
  {
    name: 'pipeline_deals',
    command: ['pipeline', 'deals'],
    summary: 'Deal count and total value per stage',
    method: 'GET',
    path: '/pipeline/deals',
    kind: 'list',
    group: 'pipeline',
    noun: 'stage',
    args: [],
    query: [],
    body: [],
    options: [],
    listKey: 'stages',
    handler: 'pipeline-deals',
    columns: ['name', 'count', 'total_value', 'id'],
    examples: [ex('crm pipeline deals', 'a bar chart of value per stage on a terminal')],
  },

  {
    name: 'search',
    command: ['search'],
    summary: 'Search contacts, deals, accounts and tasks',
    method: 'GET',
    path: '/search',
    kind: 'list',
    group: 'search',
    noun: 'result',
    args: [{ name: 'q', flag: 'query', type: 'string', description: 'text to search for', example: 'globex' }],
    query: [{ name: 'types', type: 'list', description: 'only these types (default all)', choices: SEARCH_TYPES }],
    body: [],
    options: [],
    listKey: 'results',
    paged: true,
    handler: 'search',
    columns: ['type', 'id', 'title', 'subtitle'],
    examples: [ex('crm search globex', 'everything that mentions Globex'), ex('crm search globex --types contacts,deals', 'only contacts and deals')],
  },
  {
    name: 'analytics',
    command: ['analytics'],
    summary: 'Rollups of contacts, deals, emails and tasks',
    method: 'GET',
    path: '/analytics',
    kind: 'get',
    group: 'analytics',
    noun: 'analytics',
    args: [],
    query: [{ name: 'period', type: 'string', description: 'the window', choices: PERIODS, default: '30d' }],
    body: [],
    options: [],
    handler: 'analytics',
    examples: [ex('crm analytics --period 7d', 'the last seven days'), ex('crm analytics --json', 'the rollup as JSON')],
  },

  {
    name: 'ai_suggestions',
    command: ['ai', 'suggestions'],
    summary: 'List pending AI suggestions',
    method: 'GET',
    path: '/ai/suggestions',
    kind: 'list',
    group: 'ai',
    noun: 'suggestion',
    resource: 'suggestion',
    args: [],
    query: RESOURCES.suggestion.filters,
    body: [],
    options: [],
    listKey: 'suggestions',
    paged: true,
    columns: RESOURCES.suggestion.columns,
    examples: [ex('crm ai suggestions --type deal_risk', 'deals at risk')],
  },
  {
    name: 'ai_accept',
    command: ['ai', 'accept'],
    summary: 'Accept AI suggestions (no id on a terminal: pick from the pending ones)',
    method: 'POST',
    path: '/ai/suggestions/{id}/accept',
    kind: 'action',
    group: 'ai',
    noun: 'suggestion',
    resource: 'suggestion',
    args: [{ name: 'ids', type: 'ids', description: 'suggestion ids', variadic: true, optional: true }],
    query: [],
    body: [],
    options: [],
    handler: 'ai-accept',
    columns: ['id', 'result', 'record.title', 'record.task_id', 'error'],
    examples: [ex('crm ai accept $(crm ai suggestions -q --limit 1)', 'accept the newest suggestion'), ex('crm ai accept', 'pick from the pending ones (on a terminal)', TERMINAL)],
  },
  {
    name: 'ai_trigger',
    command: ['ai', 'trigger'],
    summary: 'Score a contact now and persist its next best action',
    method: 'POST',
    path: '/ai/trigger',
    kind: 'action',
    group: 'ai',
    noun: 'score',
    args: [{ name: 'contact_id', type: 'id', description: 'contact id' }],
    query: [],
    body: [],
    options: [],
    handler: 'ai-trigger',
    examples: [ex(`crm ai trigger ${DEMO.contact}`, 'score a contact and show why')],
  },
];

/** Every operation, with the noun of its records in list footers ("Showing 1-20 of 52 contacts"). */
export const OPERATIONS: readonly Operation[] = DEFINED.map((op) => ({ ...op, plural: op.listKey ?? (op.resource ? RESOURCES[op.resource].plural : undefined) }));

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
