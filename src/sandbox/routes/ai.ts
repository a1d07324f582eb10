import { STATUS } from '../../registry/resources.js';
import { ApiError, conflict, notFound, ok, type Reply, type RequestContext, type Route } from '../http.js';
import { declareFilters, equals, listReply, endpointAt } from '../lists.js';
import { clockOf, scoreContact, suggestNextAction, type SuggestionAction } from '../scoring.js';
import type { Store } from '../store.js';
import { SCORE_CALLS_PER_WINDOW, SCORE_WINDOW_MS } from '../../registry/service.js';
import { EMPTY_ACTION, actionSchema, parseCreate, requiredText } from '../validation.js';
import { tasks } from './tasks.js';

const SUGGESTION_COLUMNS = 'g.id, g.type, g.contact_id, g.deal_id, g.title, g.reason, g.action, g.status, g.created_at, g.accepted_at, g.task_id';
/** A suggestion about a deleted contact or deal is hidden with it (table alias g). */
export const SUGGESTION_VISIBLE = `(g.contact_id IS NULL OR EXISTS (SELECT 1 FROM contacts c WHERE c.id = g.contact_id AND c.deleted_at IS NULL))
  AND (g.deal_id IS NULL OR EXISTS (SELECT 1 FROM deals d WHERE d.id = g.deal_id AND d.deleted_at IS NULL))`;

interface SuggestionRow {
  id: string;
  type: string;
  contact_id: string | null;
  deal_id: string | null;
  title: string;
  reason: string;
  action: string | null;
  status: string;
}

function toSuggestion(row: SuggestionRow): Omit<SuggestionRow, 'action'> & { action: SuggestionAction | null } {
  return { ...row, action: row.action === null ? null : (JSON.parse(row.action) as SuggestionAction) };
}

function readSuggestion(store: Store, id: string): SuggestionRow {
  const row = store.get<SuggestionRow>(`SELECT ${SUGGESTION_COLUMNS} FROM suggestions g WHERE g.id = ? AND ${SUGGESTION_VISIBLE}`, id);
  if (!row) throw notFound('Suggestion');
  return row;
}

const suggestionsOp = endpointAt('GET', '/ai/suggestions');
const suggestionFilters = declareFilters(suggestionsOp, { type: equals('g.type'), contact_id: equals('g.contact_id'), deal_id: equals('g.deal_id') });

function listSuggestions(context: RequestContext): Reply {
  return listReply(context, {
    op: suggestionsOp,
    base: { from: 'suggestions g', columns: SUGGESTION_COLUMNS, where: [`g.status = 'pending'`, SUGGESTION_VISIBLE], orderBy: 'g.created_at DESC, g.rowid DESC' },
    filters: suggestionFilters,
    key: 'suggestions',
    toRecord: (row) => toSuggestion(row as unknown as SuggestionRow),
  });
}

function acceptSuggestion({ store, params, body }: RequestContext): Reply {
  const suggestion = toSuggestion(readSuggestion(store, params.id!));
  parseCreate(body, EMPTY_ACTION);
  if (suggestion.status !== STATUS.suggestion.pending) throw conflict(`Suggestion ${params.id} is already ${suggestion.status}`);
  const task = suggestion.action
    ? tasks.insert(store, {
        title: suggestion.action.title,
        description: suggestion.reason,
        status: STATUS.task.open,
        priority: suggestion.type === 'deal_risk' ? 'high' : 'normal',
        due_date: suggestion.action.due_date,
        contact_id: suggestion.contact_id,
        deal_id: suggestion.deal_id,
      })
    : undefined;
  store.run(
    `UPDATE suggestions SET status = 'accepted', accepted_at = ?, task_id = ? WHERE id = ?`,
    store.nowIso(),
    task?.id ?? null,
    params.id,
  );
  return ok(toSuggestion(readSuggestion(store, params.id!)));
}

const TRIGGER_BUCKET = 'ai_trigger';

/**
 * A sliding window of accepted triggers kept in the database, so every process sharing the
 * sandbox shares the limit. A hit is recorded in the request's transaction: a call that fails
 * later (400, 404) rolls it back and does not count.
 */
function takeTriggerSlot(store: Store): void {
  const nowMs = store.now().getTime();
  const windowStart = nowMs - SCORE_WINDOW_MS;
  store.run('DELETE FROM rate_limit_hits WHERE bucket = ? AND at_ms <= ?', TRIGGER_BUCKET, windowStart);
  const window = store.get<{ hits: number; oldest: number | null }>(
    'SELECT COUNT(*) AS hits, MIN(at_ms) AS oldest FROM rate_limit_hits WHERE bucket = ?',
    TRIGGER_BUCKET,
  );
  if (window && window.oldest !== null && window.hits >= SCORE_CALLS_PER_WINDOW) {
    const retryAfterSeconds = Math.max(1, Math.ceil((window.oldest + SCORE_WINDOW_MS - nowMs) / 1000));
    throw new ApiError(429, 'Too many requests. Try again in a minute.', { 'retry-after': String(retryAfterSeconds) });
  }
  store.run('INSERT INTO rate_limit_hits (bucket, at_ms) VALUES (?, ?)', TRIGGER_BUCKET, nowMs);
}

const triggerSchema = actionSchema({ contact_id: requiredText(100) });

function triggerScoring({ store, body }: RequestContext): Reply {
  const contactId = parseCreate(body, triggerSchema).contact_id as string;
  takeTriggerSlot(store);
  const clock = clockOf(store);
  const scored = scoreContact(store, contactId, clock);
  if (!scored) throw notFound('Contact');
  const suggestion = suggestNextAction(store, scored, clock);
  return ok({
    contact_id: scored.contact_id,
    score: scored.score,
    factors: scored.factors,
    next_best_action: scored.next_best_action,
    suggestion_id: suggestion.id,
    scored_at: scored.scored_at,
  });
}

export const aiRoutes: Route[] = [
  { method: 'GET', path: '/ai/suggestions', handler: listSuggestions },
  { method: 'POST', path: '/ai/suggestions/:id/accept', handler: acceptSuggestion },
  { method: 'POST', path: '/ai/trigger', handler: triggerScoring },
];
