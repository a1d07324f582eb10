// The service's 40 endpoints: method, path, filters, body, list key, the record they answer with.
// The sandbox serves and validates exactly these; each command of src/commands/ that calls one
// names it (`endpoint: 'deals_stage'`), and its flags, checks, MCP tool and docs follow from it.

import { PERIODS, RESOURCES, SEARCH_TYPES, updateFields, writableFields } from './resources.js';
import type { Endpoint, FieldSpec, Group, ResourceName } from './types.js';

/** The five endpoints of every resource: list, get, create, update, delete. */
function crud<const R extends ResourceName, const G extends Group>(resource: R, group: G) {
  const { plural, filters } = RESOURCES[resource];
  const common = { group, noun: resource, resource } as const;
  const base = `/${plural}`;
  const none: readonly FieldSpec[] = [];
  return {
    list: { ...common, method: 'GET', path: base, kind: 'list', query: filters, body: none, listKey: plural, paged: true },
    get: { ...common, method: 'GET', path: `${base}/{id}`, kind: 'get', query: none, body: none },
    create: { ...common, method: 'POST', path: base, kind: 'create', query: none, body: writableFields(resource) },
    update: { ...common, method: 'PATCH', path: `${base}/{id}`, kind: 'update', query: none, body: updateFields(resource) },
    delete: { ...common, method: 'DELETE', path: `${base}/{id}`, kind: 'delete', query: none, body: none },
  } as const;
}

const contacts = crud('contact', 'contacts');
const accounts = crud('account', 'accounts');
const deals = crud('deal', 'deals');
const sequences = crud('sequence', 'sequences');
const tasks = crud('task', 'tasks');

/** Every endpoint by name, each typed exactly (a command's handler reads its filters by name). */
const DECLARED = {
  contacts_list: contacts.list,
  contacts_get: contacts.get,
  contacts_create: contacts.create,
  contacts_update: contacts.update,
  contacts_delete: contacts.delete,
  contacts_notes_list: { method: 'GET', path: '/contacts/{id}/notes', kind: 'list', group: 'contacts', noun: 'note', resource: 'note', query: [], body: [], listKey: 'notes', paged: true },
  contacts_notes_add: { method: 'POST', path: '/contacts/{id}/notes', kind: 'create', group: 'contacts', noun: 'note', resource: 'note', query: [], body: writableFields('note') },
  // The path names the contact.
  contacts_tasks_add: { method: 'POST', path: '/contacts/{id}/tasks', kind: 'create', group: 'contacts', noun: 'task', resource: 'task', query: [], body: writableFields('task').filter((field) => field.name !== 'contact_id') },
  contacts_enroll: { method: 'POST', path: '/contacts/{id}/sequences', kind: 'action', group: 'contacts', noun: 'enrollment', resource: 'enrollment', query: [], body: writableFields('enrollment') },
  accounts_list: accounts.list,
  accounts_get: accounts.get,
  accounts_create: accounts.create,
  accounts_update: accounts.update,
  accounts_delete: accounts.delete,
  deals_list: deals.list,
  deals_get: deals.get,
  deals_create: deals.create,
  deals_update: deals.update,
  deals_delete: deals.delete,
  deals_stage: { method: 'POST', path: '/deals/{id}/stage', kind: 'action', group: 'deals', noun: 'deal', resource: 'deal', query: [], body: [] },
  sequences_list: sequences.list,
  sequences_get: sequences.get,
  sequences_create: sequences.create,
  sequences_update: sequences.update,
  sequences_delete: sequences.delete,
  sequences_enroll: { method: 'POST', path: '/sequences/{id}/enroll', kind: 'action', group: 'sequences', noun: 'enrollment', query: [], body: [] },
  sequences_contacts: { method: 'GET', path: '/sequences/{id}/contacts', kind: 'list', group: 'sequences', noun: 'contact', resource: 'contact', query: [], body: [], listKey: 'contacts', paged: true },
  tasks_list: tasks.list,
  tasks_get: tasks.get,
  tasks_create: tasks.create,
  tasks_update: tasks.update,
  tasks_delete: tasks.delete,
  tasks_complete: { method: 'POST', path: '/tasks/{id}/complete', kind: 'action', group: 'tasks', noun: 'task', resource: 'task', query: [], body: [] },
  pipeline_stages: { method: 'GET', path: '/pipeline/stages', kind: 'list', group: 'pipeline', noun: 'stage', resource: 'stage', query: [], body: [], listKey: 'stages' },
  pipeline_deals: { method: 'GET', path: '/pipeline/deals', kind: 'list', group: 'pipeline', noun: 'stage', query: [], body: [], listKey: 'stages' },
  search: {
    method: 'GET',
    path: '/search',
    kind: 'list',
    group: 'search',
    noun: 'result',
    query: [{ name: 'types', type: 'list', description: 'only these types (default all)', choices: SEARCH_TYPES }],
    body: [],
    listKey: 'results',
    paged: true,
  },
  analytics: {
    method: 'GET',
    path: '/analytics',
    kind: 'get',
    group: 'analytics',
    noun: 'analytics',
    query: [{ name: 'period', type: 'string', description: 'the window', choices: PERIODS, default: '30d' }],
    body: [],
  },
  ai_suggestions: { method: 'GET', path: '/ai/suggestions', kind: 'list', group: 'ai', noun: 'suggestion', resource: 'suggestion', query: RESOURCES.suggestion.filters, body: [], listKey: 'suggestions', paged: true },
  ai_accept: { method: 'POST', path: '/ai/suggestions/{id}/accept', kind: 'action', group: 'ai', noun: 'suggestion', resource: 'suggestion', query: [], body: [] },
  ai_trigger: { method: 'POST', path: '/ai/trigger', kind: 'action', group: 'ai', noun: 'score', query: [], body: [] },
} as const satisfies Record<string, Omit<Endpoint, 'name'>>;

export type EndpointName = keyof typeof DECLARED;
/** An endpoint as declared, with its literal filters and body (what a handler's options are typed from). */
export type EndpointFacts<N extends EndpointName> = (typeof DECLARED)[N];

/** Every endpoint, with its name and the noun of its records in list footers ("52 contacts"). */
export const ENDPOINTS: Readonly<Record<EndpointName, Endpoint>> = Object.fromEntries(
  Object.entries(DECLARED).map(([name, endpoint]: [string, Omit<Endpoint, 'name'>]) => [
    name,
    { ...endpoint, name, plural: endpoint.listKey ?? (endpoint.resource ? RESOURCES[endpoint.resource].plural : undefined) },
  ]),
) as Record<EndpointName, Endpoint>;
