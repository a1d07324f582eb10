import { collection, type Fields } from '../collection.js';
import { badRequest, conflict, ok, type RequestContext, type Route } from '../http.js';
import { equals, matchesAny } from '../lists.js';
import { newId } from '../ids.js';
import type { Store } from '../store.js';
import { actionSchema, currencyCode, parseCreate, requiredText } from '../validation.js';

/** A deal's status follows its stage (table alias s). */
export const DEAL_STATUS_SQL = `CASE WHEN s.is_won THEN 'won' WHEN s.is_closed THEN 'lost' ELSE 'open' END`;

const ACTIVITY_COLUMNS = 'id, deal_id, type, from_stage, to_stage, created_at';

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

/** Logs the stage_change activity of a move, and returns it. */
function logMove(store: Store, dealId: string, fromStage: string, toStage: string): unknown {
  const id = newId('act');
  store.run(`INSERT INTO deal_activities (id, deal_id, type, from_stage, to_stage, created_at) VALUES (?, ?, 'stage_change', ?, ?, ?)`, id, dealId, fromStage, toStage, store.nowIso());
  return store.get(`SELECT ${ACTIVITY_COLUMNS} FROM deal_activities WHERE id = ?`, id);
}

const deals = collection({
  resource: 'deal',
  table: 'deals',
  prefix: 'deal',
  alias: 'd',
  from: 'deals d JOIN stages s ON s.id = d.stage',
  columns: `d.id, d.name, d.amount, d.currency, d.stage, ${DEAL_STATUS_SQL} AS status, d.account_id, d.contact_id, d.close_date, d.created_at, d.updated_at`,
  orderBy: 'd.created_at DESC, d.rowid DESC',
  overrides: { currency: currencyCode },
  filters: {
    search: matchesAny(['d.name']),
    stage: (value, store) => ({ sql: 'd.stage = ?', params: [resolveStage(store, value).id] }),
    status: equals(DEAL_STATUS_SQL),
    account_id: equals('d.account_id'),
    contact_id: equals('d.contact_id'),
  },
  // A stage is named by id or name; a new deal without one starts in the first stage.
  prepare: (store, fields: Fields, current) => {
    if (typeof fields.stage === 'string') return { ...fields, stage: resolveStage(store, fields.stage).id };
    if (current) return fields;
    return { ...fields, stage: firstStage(store).id };
  },
  // A change of stage by PATCH logs the same activity as a move.
  afterWrite: (store, id, { columns }, current) => {
    if (current && typeof columns.stage === 'string' && columns.stage !== current.stage) logMove(store, id, String(current.stage), columns.stage);
  },
  detail: (store, deal) => ({ ...deal, activities: store.all(`SELECT ${ACTIVITY_COLUMNS} FROM deal_activities WHERE deal_id = ? ORDER BY created_at DESC, rowid DESC`, deal.id) }),
});

const moveSchema = actionSchema({ stage: requiredText(100) });

function moveDealStage({ store, params, body }: RequestContext) {
  const deal = deals.read(store, params.id!);
  const stage = resolveStage(store, parseCreate(body, moveSchema).stage as string);
  if (stage.id === deal.stage) throw conflict(`Deal ${params.id} is already in stage ${stage.id}`);
  store.run('UPDATE deals SET stage = ?, updated_at = ? WHERE id = ?', stage.id, store.nowIso(), params.id);
  const activity = logMove(store, params.id!, String(deal.stage), stage.id);
  return ok({ ...deals.read(store, params.id!), activity });
}

export const dealRoutes: Route[] = [...deals.routes, { method: 'POST', path: '/deals/:id/stage', handler: moveDealStage }];
