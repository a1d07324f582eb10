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
import { checkReference, softDelete, updateRow } from '../records.js';
import type { Store } from '../store.js';
import {
  amount,
  currencyCode,
  optional,
  optionalDate,
  optionalId,
  parseCreate,
  parseUpdate,
  required,
  requiredText,
} from '../validation.js';

const DEAL_STATUSES = ['open', 'won', 'lost'] as const;

/** A deal's status follows its stage (table alias s). */
export const DEAL_STATUS_SQL = `CASE WHEN s.is_won THEN 'won' WHEN s.is_closed THEN 'lost' ELSE 'open' END`;

const DEAL_COLUMNS = `d.id, d.name, d.amount, d.currency, d.stage, ${DEAL_STATUS_SQL} AS status,
  d.account_id, d.contact_id, d.close_date, d.created_at, d.updated_at`;
const DEAL_FROM = 'deals d JOIN stages s ON s.id = d.stage';
const ACTIVITY_COLUMNS = 'id, deal_id, type, from_stage, to_stage, created_at';

const dealFields = {
  name: required(requiredText(200)),
  amount: optional(amount, 0),
  currency: optional(currencyCode, 'USD'),
  stage: optional<string | null>(requiredText(100), null),
  account_id: optional(optionalId, null),
  contact_id: optional(optionalId, null),
  close_date: optional(optionalDate, null),
};
const DEAL_READ_ONLY = ['status', 'activities'];

interface Stage {
  id: string;
  name: string;
}

/** Finds a stage by id or display name, case-insensitively. */
function resolveStage(store: Store, idOrName: string): Stage {
  const stage = store.get<Stage>('SELECT id, name FROM stages WHERE lower(id) = lower(?) OR lower(name) = lower(?)', idOrName, idOrName);
  if (stage) return stage;
  const valid = store.all<{ id: string }>('SELECT id FROM stages ORDER BY position').map((row) => row.id);
  throw badRequest(`Unknown stage '${idOrName}'. Valid stages: ${valid.join(', ')}`);
}

function firstStage(store: Store): Stage {
  const stage = store.get<Stage>('SELECT id, name FROM stages ORDER BY position LIMIT 1');
  if (!stage) throw new Error('The stages table is empty');
  return stage;
}

function readDeal(store: Store, id: string): Record<string, unknown> & { stage: string } {
  const deal = store.get<Record<string, unknown> & { stage: string }>(`SELECT ${DEAL_COLUMNS} FROM ${DEAL_FROM} WHERE d.id = ? AND d.deleted_at IS NULL`, id);
  if (!deal) throw notFound('Deal');
  return deal;
}

/** Moves the deal and logs the stage_change activity, which it returns. */
function moveDeal(store: Store, dealId: string, fromStage: string, toStage: string): unknown {
  const id = newId('act');
  const now = store.nowIso();
  store.run(
    `INSERT INTO deal_activities (id, deal_id, type, from_stage, to_stage, created_at) VALUES (?, ?, 'stage_change', ?, ?, ?)`,
    id,
    dealId,
    fromStage,
    toStage,
    now,
  );
  store.run('UPDATE deals SET stage = ?, updated_at = ? WHERE id = ?', toStage, now, dealId);
  return store.get(`SELECT ${ACTIVITY_COLUMNS} FROM deal_activities WHERE id = ?`, id);
}

function listDeals({ store, query }: RequestContext): Reply {
  const page = readPage(query);
  const list: ListQuery = { from: DEAL_FROM, columns: DEAL_COLUMNS, where: ['d.deleted_at IS NULL'], params: [], orderBy: 'd.created_at DESC, d.rowid DESC' };
  const stage = queryText(query, 'stage');
  if (stage) {
    list.where.push('d.stage = ?');
    list.params.push(resolveStage(store, stage).id);
  }
  const status = queryChoice(query, 'status', DEAL_STATUSES);
  if (status) {
    list.where.push(`${DEAL_STATUS_SQL} = ?`);
    list.params.push(status);
  }
  for (const column of ['account_id', 'contact_id']) {
    const id = queryText(query, column);
    if (id) {
      list.where.push(`d.${column} = ?`);
      list.params.push(id);
    }
  }
  const search = queryText(query, 'search');
  if (search) {
    const match = containsAny(['d.name'], search);
    list.where.push(match.sql);
    list.params.push(...match.params);
  }
  const { rows, total } = listPage(store, list, page);
  return ok({ deals: rows, total });
}

function createDeal({ store, body }: RequestContext): Reply {
  const fields = parseCreate(body, dealFields, DEAL_READ_ONLY);
  const stage = fields.stage === null ? firstStage(store) : resolveStage(store, fields.stage);
  checkReference(store, 'account', 'account_id', fields.account_id);
  checkReference(store, 'contact', 'contact_id', fields.contact_id);
  const id = newId('deal');
  const now = store.nowIso();
  store.run(
    `INSERT INTO deals (id, name, amount, currency, stage, account_id, contact_id, close_date, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    fields.name,
    fields.amount,
    fields.currency,
    stage.id,
    fields.account_id,
    fields.contact_id,
    fields.close_date,
    now,
    now,
  );
  return created(readDeal(store, id));
}

function getDeal({ store, params }: RequestContext): Reply {
  const deal = readDeal(store, params.id);
  const activities = store.all(
    `SELECT ${ACTIVITY_COLUMNS} FROM deal_activities WHERE deal_id = ? ORDER BY created_at DESC, rowid DESC`,
    params.id,
  );
  return ok({ ...deal, activities });
}

function updateDeal({ store, params, body }: RequestContext): Reply {
  const deal = readDeal(store, params.id);
  const { stage: stageName, ...columns } = parseUpdate(body, dealFields, DEAL_READ_ONLY);
  const stage = stageName ? resolveStage(store, stageName) : undefined;
  checkReference(store, 'account', 'account_id', columns.account_id);
  checkReference(store, 'contact', 'contact_id', columns.contact_id);
  updateRow(store, 'deal', params.id, columns);
  if (stage && stage.id !== deal.stage) moveDeal(store, params.id, deal.stage, stage.id);
  return ok(readDeal(store, params.id));
}

function deleteDeal({ store, params }: RequestContext): Reply {
  return softDelete(store, 'deal', params.id);
}

const stageMoveFields = { stage: required(requiredText(100)) };

function moveDealStage({ store, params, body }: RequestContext): Reply {
  const deal = readDeal(store, params.id);
  const stage = resolveStage(store, parseCreate(body, stageMoveFields).stage);
  if (stage.id === deal.stage) throw conflict(`Deal ${params.id} is already in stage ${stage.id}`);
  const activity = moveDeal(store, params.id, deal.stage, stage.id);
  return ok({ ...readDeal(store, params.id), activity });
}

export const dealRoutes: Route[] = [
  { method: 'GET', path: '/deals', handler: listDeals },
  { method: 'POST', path: '/deals', handler: createDeal },
  { method: 'GET', path: '/deals/:id', handler: getDeal },
  { method: 'PATCH', path: '/deals/:id', handler: updateDeal },
  { method: 'DELETE', path: '/deals/:id', handler: deleteDeal },
  { method: 'POST', path: '/deals/:id/stage', handler: moveDealStage },
];
