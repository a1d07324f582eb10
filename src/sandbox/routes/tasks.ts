import { newId } from '../ids.js';
import {
  containsAny,
  created,
  listPage,
  notFound,
  ok,
  queryBoolean,
  queryChoice,
  queryText,
  readPage,
  type ListQuery,
  type Reply,
  type RequestContext,
  type Route,
} from '../http.js';
import { checkReference, softDelete, updateRow, utcDate } from '../records.js';
import type { Store } from '../store.js';
import {
  oneOf,
  optional,
  optionalDate,
  optionalId,
  optionalText,
  parseCreate,
  parseUpdate,
  required,
  requiredText,
  type Fields,
} from '../validation.js';

const TASK_STATUSES = ['open', 'completed'] as const;
const TASK_PRIORITIES = ['low', 'normal', 'high'] as const;

export const taskFields = {
  title: required(requiredText(200)),
  description: optional(optionalText(10_000), null),
  status: optional(oneOf(TASK_STATUSES), 'open'),
  priority: optional(oneOf(TASK_PRIORITIES), 'normal'),
  due_date: optional(optionalDate, null),
  contact_id: optional(optionalId, null),
  deal_id: optional(optionalId, null),
};
export const TASK_READ_ONLY = ['completed_at'];
export type TaskFields = Fields<typeof taskFields>;

/** Open with a due date before today (UTC); never NULL, so NOT works. Parameter: today. */
const OVERDUE = `(status = 'open' AND due_date IS NOT NULL AND due_date < ?)`;

const TASK_COLUMNS = 'id, title, description, status, priority, due_date, contact_id, deal_id, completed_at, created_at, updated_at';

function readTask(store: Store, id: string): Record<string, unknown> {
  const task = store.get<Record<string, unknown>>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ? AND deleted_at IS NULL`, id);
  if (!task) throw notFound('Task');
  return task;
}

/** Inserts a task after checking its references; shared by POST /tasks, /contacts/{id}/tasks and suggestion accept. */
export function createTask(store: Store, fields: TaskFields): Record<string, unknown> {
  checkReference(store, 'contact', 'contact_id', fields.contact_id);
  checkReference(store, 'deal', 'deal_id', fields.deal_id);
  const id = newId('task');
  const now = store.nowIso();
  store.run(
    `INSERT INTO tasks (id, title, description, status, priority, due_date, contact_id, deal_id, completed_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    fields.title,
    fields.description,
    fields.status,
    fields.priority,
    fields.due_date,
    fields.contact_id,
    fields.deal_id,
    fields.status === 'completed' ? now : null,
    now,
    now,
  );
  return readTask(store, id);
}

function listTasks({ store, query }: RequestContext): Reply {
  const page = readPage(query);
  const list: ListQuery = { from: 'tasks', columns: TASK_COLUMNS, where: ['deleted_at IS NULL'], params: [], orderBy: 'created_at DESC, rowid DESC' };
  const status = queryChoice(query, 'status', TASK_STATUSES);
  if (status) {
    list.where.push('status = ?');
    list.params.push(status);
  }
  const priority = queryChoice(query, 'priority', TASK_PRIORITIES);
  if (priority) {
    list.where.push('priority = ?');
    list.params.push(priority);
  }
  for (const column of ['contact_id', 'deal_id']) {
    const id = queryText(query, column);
    if (id) {
      list.where.push(`${column} = ?`);
      list.params.push(id);
    }
  }
  const overdue = queryBoolean(query, 'overdue');
  if (overdue !== undefined) {
    list.where.push(overdue ? OVERDUE : `NOT ${OVERDUE}`);
    list.params.push(utcDate(store.now()));
  }
  const search = queryText(query, 'search');
  if (search) {
    const match = containsAny(['title', 'description'], search);
    list.where.push(match.sql);
    list.params.push(...match.params);
  }
  const { rows, total } = listPage(store, list, page);
  return ok({ tasks: rows, total });
}

function postTask({ store, body }: RequestContext): Reply {
  return created(createTask(store, parseCreate(body, taskFields, TASK_READ_ONLY)));
}

function getTask({ store, params }: RequestContext): Reply {
  return ok(readTask(store, params.id));
}

function updateTask({ store, params, body }: RequestContext): Reply {
  const current = readTask(store, params.id);
  const fields = parseUpdate(body, taskFields, TASK_READ_ONLY);
  checkReference(store, 'contact', 'contact_id', fields.contact_id);
  checkReference(store, 'deal', 'deal_id', fields.deal_id);
  const columns: Record<string, unknown> = { ...fields };
  if (fields.status && fields.status !== current.status) {
    columns.completed_at = fields.status === 'completed' ? store.nowIso() : null;
  }
  updateRow(store, 'task', params.id, columns);
  return ok(readTask(store, params.id));
}

function deleteTask({ store, params }: RequestContext): Reply {
  return softDelete(store, 'task', params.id);
}

function completeTask({ store, params, body }: RequestContext): Reply {
  parseCreate(body, {});
  const task = readTask(store, params.id);
  // Completing twice is harmless: the task keeps its first completion time.
  if (task.status === 'completed') return ok(task);
  updateRow(store, 'task', params.id, { status: 'completed', completed_at: store.nowIso() });
  return ok(readTask(store, params.id));
}

export const taskRoutes: Route[] = [
  { method: 'GET', path: '/tasks', handler: listTasks },
  { method: 'POST', path: '/tasks', handler: postTask },
  { method: 'GET', path: '/tasks/:id', handler: getTask },
  { method: 'PATCH', path: '/tasks/:id', handler: updateTask },
  { method: 'DELETE', path: '/tasks/:id', handler: deleteTask },
  { method: 'POST', path: '/tasks/:id/complete', handler: completeTask },
];
