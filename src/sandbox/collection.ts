// The five routes every resource has (list, create, get, update, delete), declared once. A resource
// gives its table, how a row is read, the SQL of its filters and what it stores beyond its fields;
// which fields a body may carry, how they are checked and which records they point at come from the
// registry (src/registry/resources.ts).

import { RESOURCES } from '../registry/resources.js';
import type { ResourceName } from '../registry/types.js';
import { newId, type IdPrefix } from './ids.js';
import { created, notFound, ok, type Reply, type RequestContext, type Route } from './http.js';
import { declareFilters, listReply, endpointAt, type Filter, type ListSpec } from './lists.js';
import { checkReference, softDelete, updateRow, type ResourceKind } from './records.js';
import type { Store } from './store.js';
import { EXTRA_FIELDS, bodySchema, parseCreate, parseUpdate, type BodySchema, type Rule } from './validation.js';

export type Fields = Record<string, unknown>;
type Row = Record<string, unknown>;

interface CollectionSpec {
  resource: ResourceKind & ResourceName;
  table: string;
  prefix: IdPrefix;
  /** The table's alias in `from`, on which deleted_at is checked. */
  alias: string;
  from: string;
  columns: string;
  orderBy: string;
  /** A row as the service answers it (JSON columns parsed). */
  toRecord?: (row: Row) => Row;
  filters: Record<string, Filter>;
  /** Rules of this workspace's own, by field name. */
  overrides?: Record<string, Rule>;
  /** The columns to store for checked fields; may check more (an email in use) and throw. */
  prepare?: (store: Store, fields: Fields, current?: Row) => Fields;
  /** After the row is written: what lives in other tables (list members, a stage activity). */
  afterWrite?: (store: Store, id: string, written: { fields: Fields; columns: Fields }, current?: Row) => void;
  /** What GET of one record adds (a deal's activities). */
  detail?: (store: Store, record: Row) => Row;
}

interface Collection {
  routes: Route[];
  schema: BodySchema;
  /** One live record as the service answers it; 404 when absent or deleted. */
  read(store: Store, id: string): Row;
  /** Creates a record from checked fields (also for routes that create on the resource's behalf). */
  insert(store: Store, fields: Fields): Row;
}

export function collection(spec: CollectionSpec): Collection {
  const { resource, table, alias } = spec;
  const { plural, fields: registryFields } = RESOURCES[resource];
  const label = resource.charAt(0).toUpperCase() + resource.slice(1);
  // A permissive workspace: fields the spec does not show are kept, and answered after the known ones.
  const schema = bodySchema(registryFields, spec.overrides, true);
  const references = registryFields.filter((field) => field.references && !field.readOnly);
  const prepare = spec.prepare ?? ((_: Store, fields: Fields) => fields);
  const columns = `${spec.columns}, ${alias}.${EXTRA_FIELDS}`;
  const toRecord = (row: Row): Row => {
    const { [EXTRA_FIELDS]: extra, ...known } = row;
    const record = spec.toRecord ? spec.toRecord(known) : known;
    return typeof extra === 'string' ? { ...record, ...(JSON.parse(extra) as Row) } : record;
  };
  /** The kept fields as stored: those of this body over those stored already (an update replaces each one given). */
  const storedExtra = (store: Store, fields: Fields, id?: string): Fields => {
    if (fields[EXTRA_FIELDS] === undefined) return fields;
    const stored = id === undefined ? undefined : store.get<Row>(`SELECT ${EXTRA_FIELDS} FROM ${table} WHERE id = ?`, id)?.[EXTRA_FIELDS];
    const merged = { ...(typeof stored === 'string' ? (JSON.parse(stored) as Row) : {}), ...(fields[EXTRA_FIELDS] as Row) };
    return { ...fields, [EXTRA_FIELDS]: JSON.stringify(merged) };
  };

  const read = (store: Store, id: string): Row => {
    const row = store.get<Row>(`SELECT ${columns} FROM ${spec.from} WHERE ${alias}.id = ? AND ${alias}.deleted_at IS NULL`, id);
    if (!row) throw notFound(label);
    return toRecord(row);
  };
  const checkReferences = (store: Store, fields: Fields) => {
    for (const field of references) checkReference(store, field.references as ResourceKind, field.name, fields[field.name] as string | null | undefined);
  };
  const insert = (store: Store, fields: Fields): Row => {
    const values = storedExtra(store, prepare(store, fields));
    checkReferences(store, fields);
    const id = newId(spec.prefix);
    const now = store.nowIso();
    const names = ['id', ...Object.keys(values), 'created_at', 'updated_at'];
    store.run(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, id, ...Object.values(values), now, now);
    spec.afterWrite?.(store, id, { fields, columns: values });
    return read(store, id);
  };

  const listOp = endpointAt('GET', `/${plural}`);
  const list: ListSpec = {
    op: listOp,
    base: { from: spec.from, columns, where: [`${alias}.deleted_at IS NULL`], orderBy: spec.orderBy },
    filters: declareFilters(listOp, spec.filters),
    key: plural,
    toRecord,
  };

  const routes: Route[] = [
    { method: 'GET', path: `/${plural}`, handler: (context) => listReply(context, list) },
    { method: 'POST', path: `/${plural}`, handler: ({ store, body }) => created(insert(store, parseCreate(body, schema))) },
    { method: 'GET', path: `/${plural}/:id`, handler: ({ store, params }): Reply => ok(spec.detail ? spec.detail(store, read(store, params.id!)) : read(store, params.id!)) },
    {
      method: 'PATCH',
      path: `/${plural}/:id`,
      handler: ({ store, params, body }: RequestContext): Reply => {
        const current = read(store, params.id!);
        const fields = parseUpdate(body, schema);
        const values = storedExtra(store, prepare(store, fields, current), params.id!);
        checkReferences(store, fields);
        updateRow(store, resource, params.id!, values);
        spec.afterWrite?.(store, params.id!, { fields, columns: values }, current);
        return ok(read(store, params.id!));
      },
    },
    { method: 'DELETE', path: `/${plural}/:id`, handler: ({ store, params }) => softDelete(store, resource, params.id!) },
  ];
  return { routes, schema, read, insert };
}
