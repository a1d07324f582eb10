import { STATUS } from '../../registry/resources.js';
import { collection, type Fields } from '../collection.js';
import { ok, type RequestContext, type Route } from '../http.js';
import { equals, matchesAny } from '../lists.js';
import { updateRow, utcDate } from '../records.js';
import { EMPTY_ACTION, parseCreate } from '../validation.js';

/** Open with a due date before today (UTC); never NULL, so NOT works. Parameter: today. */
const OVERDUE = `(t.status = 'open' AND t.due_date IS NOT NULL AND t.due_date < ?)`;

export const tasks = collection({
  resource: 'task',
  table: 'tasks',
  prefix: 'task',
  alias: 't',
  from: 'tasks t',
  columns: 't.id, t.title, t.description, t.status, t.priority, t.due_date, t.contact_id, t.deal_id, t.completed_at, t.created_at, t.updated_at',
  orderBy: 't.created_at DESC, t.rowid DESC',
  filters: {
    search: matchesAny(['t.title', 't.description']),
    status: equals('t.status'),
    priority: equals('t.priority'),
    contact_id: equals('t.contact_id'),
    deal_id: equals('t.deal_id'),
    overdue: (value, store) => ({ sql: value === 'true' ? OVERDUE : `NOT ${OVERDUE}`, params: [utcDate(store.now())] }),
  },
  // completed_at follows the status: set when a task becomes completed, cleared when it reopens.
  prepare: (store, fields: Fields, current) => {
    if (fields.status === undefined || fields.status === current?.status) return fields;
    return { ...fields, completed_at: fields.status === STATUS.task.completed ? store.nowIso() : null };
  },
});

function completeTask({ store, params, body }: RequestContext) {
  parseCreate(body, EMPTY_ACTION);
  const task = tasks.read(store, params.id!);
  // Completing twice is harmless: the task keeps its first completion time.
  if (task.status === STATUS.task.completed) return ok(task);
  updateRow(store, 'task', params.id!, { status: STATUS.task.completed, completed_at: store.nowIso() });
  return ok(tasks.read(store, params.id!));
}

export const taskRoutes: Route[] = [...tasks.routes, { method: 'POST', path: '/tasks/:id/complete', handler: completeTask }];
