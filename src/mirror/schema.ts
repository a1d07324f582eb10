// The replica's tables, derived from the registry: one table per list the service offers, its typed
// columns from the resource's fields (src/registry/resources.ts), its path and list member from the
// list endpoint (src/registry/endpoints.ts). Each row keeps the record whole as JSON (`_record`):
// the typed columns are generated from it, so a field the spec does not show is never dropped, and a
// new crm that knows more fields rebuilds its columns from what is held, without asking the service.

import { createHash } from 'node:crypto';
import { REPLICA_TABLES, type ReplicaTable } from '../registry/local.js';
import { ENDPOINTS } from '../registry/endpoints.js';
import { DATE_FIELDS, RESOURCES } from '../registry/resources.js';
import type { FieldSpec, ResourceName, ValueType } from '../registry/types.js';

type SqlType = 'TEXT' | 'INTEGER' | 'REAL';

export interface Column {
  name: string;
  type: SqlType;
  /** The record's member it is read from (a column of its own for keys, generated for the rest). */
  member?: string;
  /** The id of the record the list was read under (a note's contact, an enrolment's sequence). */
  parent?: boolean;
  /** Part of the table's key. */
  key?: boolean;
  description: string;
}

export interface TableSpec {
  /** The table, and the name `crm sync` takes: contacts, deals, notes... */
  name: string;
  resource: ResourceName;
  /** The list's path; `{id}` is the parent's id for lists read per parent. */
  path: string;
  /** The list member of the answer: {"notes": [...], "total": N}. */
  listKey: string;
  /** The path that reads one record (`/contacts/{id}`), for tables whose records the service gives one by one. */
  getPath?: string;
  /** Lists read once per record of another table: notes per contact, enrolments per sequence. */
  parent?: string;
  columns: Column[];
  /** Newest first by creation, so that `--new` may stop at a run of records held (stages are in pipeline order). */
  newestFirst: boolean;
  /** Synced unless named: false for lists that cost a request per parent record and grow with it (notes). */
  byDefault: boolean;
}

/** JSON text of the whole record, as the service sent it. */
export const RECORD_COLUMN = '_record';
/** When this crm last wrote the row (ISO 8601, UTC). */
export const SYNCED_COLUMN = '_synced_at';

/** How a field of the registry is stored: SQLite's own types; JSON values as JSON text. */
const SQL_TYPES: Record<ValueType, SqlType> = {
  string: 'TEXT',
  email: 'TEXT',
  date: 'TEXT',
  id: 'TEXT',
  ids: 'TEXT',
  list: 'TEXT',
  json: 'TEXT',
  file: 'TEXT',
  duration: 'TEXT',
  integer: 'INTEGER',
  // Booleans as SQLite has them: 1 and 0 (json_extract gives true and false so).
  boolean: 'INTEGER',
  number: 'REAL',
};

const column = (field: FieldSpec, extra: Partial<Column> = {}): Column => ({ name: field.name, type: SQL_TYPES[field.type], member: field.name, description: field.description, ...extra });

/** The list endpoint of the registry named so (contacts_list, contacts_notes_list...). */
function listEndpoint(name: string): { path: string; listKey: string } {
  const op = Object.values(ENDPOINTS).find((candidate) => candidate.name === name);
  if (!op || op.kind !== 'list' || !op.listKey) throw new Error(`The registry has no list endpoint ${name}`);
  return { path: op.path, listKey: op.listKey };
}

/** A resource's own list: a table keyed by id, a column for each field. */
function own(resource: ResourceName, endpoint: string, options: { newestFirst?: boolean } = {}): TableSpec {
  const spec = RESOURCES[resource];
  const list = listEndpoint(endpoint);
  const get = Object.values(ENDPOINTS).find((candidate) => candidate.kind === 'get' && candidate.path === `${list.path}/{id}`);
  return {
    name: spec.plural,
    resource,
    ...list,
    getPath: get?.path,
    columns: spec.fields.map((field) => column(field, field.name === 'id' ? { key: true } : {})),
    newestFirst: options.newestFirst ?? true,
    byDefault: true,
  };
}

/** Notes: listed per contact only; the contact is the list they were read under. */
function notes(): TableSpec {
  return {
    name: RESOURCES.note.plural,
    resource: 'note',
    ...listEndpoint('contacts_notes_list'),
    parent: 'contacts',
    columns: RESOURCES.note.fields.map((field) =>
      field.name === 'id' ? column(field, { key: true }) : field.name === 'contact_id' ? column(field, { member: undefined, parent: true }) : column(field),
    ),
    newestFirst: true,
    byDefault: false,
  };
}

/**
 * Enrolments: listed per sequence, as the contacts enrolled in it (GET /sequences/{id}/contacts: a
 * contact with enrollment_status and enrolled_at). Keyed by sequence and contact: that list gives
 * no enrolment id. The contact's own fields stay in `_record`.
 */
function enrollments(): TableSpec {
  const members: Record<string, Partial<Column>> = {
    sequence_id: { member: undefined, parent: true, key: true },
    contact_id: { member: 'id', key: true },
    status: { member: 'enrollment_status' },
  };
  return {
    name: RESOURCES.enrollment.plural,
    resource: 'enrollment',
    ...listEndpoint('sequences_contacts'),
    parent: 'sequences',
    columns: RESOURCES.enrollment.fields.filter((field) => field.name !== 'id').map((field) => column(field, members[field.name])),
    newestFirst: true,
    byDefault: true,
  };
}

const DEFINED: Record<ReplicaTable, TableSpec> = {
  contacts: own('contact', 'contacts_list'),
  accounts: own('account', 'accounts_list'),
  deals: own('deal', 'deals_list'),
  sequences: own('sequence', 'sequences_list'),
  tasks: own('task', 'tasks_list'),
  stages: own('stage', 'pipeline_stages', { newestFirst: false }),
  enrollments: enrollments(),
  notes: notes(),
};

/** Every table, in the registry's order: parents before the lists read under them. */
export const TABLES: readonly TableSpec[] = REPLICA_TABLES.map((name) => {
  const table = DEFINED[name];
  if (table.name !== name) throw new Error(`The replica's table ${name} is defined as ${table.name}`);
  return table;
});

export function tableSpec(name: string): TableSpec {
  const table = TABLES.find((candidate) => candidate.name === name);
  if (!table) throw new Error(`no replica table ${name}`);
  return table;
}

/** Columns written by crm (the parent's id first, then the keys); the others are generated from `_record`. */
export const storedColumns = (table: TableSpec): Column[] => [
  ...table.columns.filter((candidate) => candidate.parent),
  ...table.columns.filter((candidate) => candidate.key && !candidate.parent),
];
/** The key, the parent's id first (an enrolment: sequence, then contact). */
export const keyColumns = (table: TableSpec): Column[] => storedColumns(table).filter((candidate) => candidate.key);

export const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const jsonPath = (member: string): string => `'$."${member.replace(/'/g, "''").replace(/"/g, '\\"')}"'`;

/**
 * A generated column's value: the record's member; a timestamp (`..._at`) or a date (due_date,
 * close_date) sent as an epoch number is ISO 8601 text as timestampText() reads it (seconds below
 * 1e11, else milliseconds), so that it sorts and compares with those sent as text.
 */
function memberSql(col: Column): string {
  const value = `json_extract(${RECORD_COLUMN}, ${jsonPath(col.member!)})`;
  if (!col.name.endsWith('_at') && !DATE_FIELDS.has(col.name)) return value;
  const seconds = `CASE WHEN abs(${value}) < 1e11 THEN ${value} ELSE ${value} / 1000.0 END`;
  return `CASE json_type(${RECORD_COLUMN}, ${jsonPath(col.member!)}) WHEN 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch') WHEN 'real' THEN strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch') ELSE ${value} END`;
}

function tableDdl(table: TableSpec): string {
  const definitions = table.columns.map((col) => {
    const name = `${quoteName(col.name)} ${col.type}`;
    if (col.key || col.parent) return `${name} NOT NULL`;
    return `${name} GENERATED ALWAYS AS (${memberSql(col)}) STORED`;
  });
  const keys = keyColumns(table).map((col) => quoteName(col.name));
  return [
    `CREATE TABLE ${quoteName(table.name)} (`,
    `  ${[...definitions, `${RECORD_COLUMN} TEXT NOT NULL`, `${SYNCED_COLUMN} TEXT NOT NULL`, `PRIMARY KEY (${keys.join(', ')})`].join(',\n  ')}`,
    ');',
  ].join('\n');
}

/** Values too large or too nested to copy into the covering index. */
const LONG_TEXT = 1000;

/**
 * Indexes on the columns that point at other records, which joins follow; and one covering index
 * of the short typed columns, led by those the service filters the list by (the registry's filters:
 * a deal's stage and status, a task's status and priority). A query that reads only typed columns
 * scans that index instead of rows that also hold the whole record, and one that groups by a
 * leading column needs no sort: a GROUP BY over 100,000 deals reads a quarter of the pages.
 */
function indexDdl(table: TableSpec): string[] {
  const spec = RESOURCES[table.resource];
  const name = (suffix: string) => quoteName(`${table.name}_${suffix}`);
  const references = new Set(spec.fields.filter((field) => field.references || field.name.endsWith('_id')).map((field) => field.name));
  const joins = table.columns
    .filter((col) => references.has(col.name) && !(col.key && keyColumns(table)[0] === col))
    .map((col) => `CREATE INDEX ${name(col.name)} ON ${quoteName(table.name)} (${quoteName(col.name)});`);
  const generated = table.columns.filter((col) => !col.key && !col.parent);
  const short = new Set(spec.fields.filter((field) => !['json', 'ids', 'list'].includes(field.type) && (field.maxLength ?? 0) <= LONG_TEXT).map((field) => field.name));
  const filtered = spec.filters.map((filter) => filter.name).filter((filter) => generated.some((col) => col.name === filter));
  if (filtered.length === 0) return joins;
  const covered = [...filtered, ...generated.map((col) => col.name).filter((col) => short.has(col) && !filtered.includes(col))];
  return [...joins, `CREATE INDEX ${name('columns')} ON ${quoteName(table.name)} (${covered.map(quoteName).join(', ')});`];
}

interface ViewSpec {
  name: string;
  description: string;
  /** The table whose columns it has, and the columns it adds to them. */
  base: ReplicaTable;
  added: Record<string, string>;
  sql: string;
}

/** Questions people ask every day, answered by a view over the tables. */
export const VIEWS: readonly ViewSpec[] = [
  {
    name: 'deals_with_stage',
    description: "every deal with its stage's name and probability, and its weighted value (amount x probability)",
    base: 'deals',
    added: { stage_name: "the stage's display name", probability: "the stage's chance of winning, percent", weighted_value: 'amount x probability / 100' },
    sql: `SELECT d.*, s.name AS stage_name, s.probability AS probability, d.amount * s.probability / 100.0 AS weighted_value
  FROM deals d LEFT JOIN stages s ON s.id = d.stage OR (s.name = d.stage AND NOT EXISTS (SELECT 1 FROM stages i WHERE i.id = d.stage))`,
  },
  {
    name: 'open_tasks',
    description: "tasks not completed, with their contact's name and email",
    base: 'tasks',
    added: { contact_name: "the contact's name", contact_email: "the contact's email" },
    sql: `SELECT t.*, c.name AS contact_name, c.email AS contact_email
  FROM tasks t LEFT JOIN contacts c ON c.id = t.contact_id
  WHERE t.completed_at IS NULL AND (t.status IS NULL OR t.status <> 'completed')`,
  },
];

/** The replica's own tables: what was synced when, and the change log. */
const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _syncs (
  resource TEXT PRIMARY KEY,
  records INTEGER NOT NULL,
  full_at TEXT,
  new_at TEXT,
  requests INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event TEXT NOT NULL,
  resource TEXT NOT NULL,
  id TEXT NOT NULL,
  changed TEXT,
  changes TEXT,
  record TEXT NOT NULL,
  detected_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS changes_resource ON changes (resource, seq);`;

export const CHANGES_TABLE = 'changes';
/** Change events are kept this long, then pruned (a watch whose state is older is told so). */
export const CHANGES_KEPT_DAYS = 30;

/** What `crm query --schema` says of the change log's columns. */
export const CHANGE_COLUMNS: ReadonlyArray<[string, SqlType, string]> = [
  ['seq', 'INTEGER', 'the event\'s number: increasing, never reused'],
  ['event', 'TEXT', 'created, updated or deleted'],
  ['resource', 'TEXT', 'the table: contacts, deals...'],
  ['id', 'TEXT', 'the record\'s id (an enrolment: SEQUENCE_ID/CONTACT_ID)'],
  ['changed', 'TEXT', 'updated: the names of the fields that changed, as a JSON array'],
  ['changes', 'TEXT', 'updated: {field: {before, after}} as JSON'],
  ['record', 'TEXT', 'the record as JSON: after the change; as last held for a deletion'],
  ['detected_at', 'TEXT', 'when the sync that saw it ran'],
];

interface Schema {
  /** Creates what is missing; run in a transaction. */
  bookkeeping: string;
  tables: Array<{ table: TableSpec; create: string; indexes: string[] }>;
  views: string[];
  /** Changes whenever a table or view would be defined otherwise: the replica rebuilds them. */
  fingerprint: string;
}

export function replicaSchema(): Schema {
  const tables = TABLES.map((table) => ({ table, create: tableDdl(table), indexes: indexDdl(table) }));
  const views = VIEWS.map((view) => `CREATE VIEW ${quoteName(view.name)} AS\n${view.sql};`);
  const text = [...tables.flatMap((entry) => [entry.create, ...entry.indexes]), ...views].join('\n');
  return { bookkeeping: BOOKKEEPING, tables, views, fingerprint: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}
