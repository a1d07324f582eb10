import { newId } from '../ids.js';
import {
  containsAny,
  created,
  listPage,
  notFound,
  ok,
  queryText,
  readPage,
  type ListQuery,
  type Reply,
  type RequestContext,
  type Route,
} from '../http.js';
import { requireLive, softDelete, updateRow } from '../records.js';
import type { Store } from '../store.js';
import { optional, optionalCount, optionalText, parseCreate, parseUpdate, required, requiredText } from '../validation.js';

const accountFields = {
  name: required(requiredText(200)),
  domain: optional(optionalText(253), null),
  industry: optional(optionalText(100), null),
  employees: optional(optionalCount, null),
};

const ACCOUNT_COLUMNS = 'id, name, domain, industry, employees, created_at, updated_at';

function readAccount(store: Store, id: string): unknown {
  const account = store.get(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ? AND deleted_at IS NULL`, id);
  if (!account) throw notFound('Account');
  return account;
}

function listAccounts({ store, query }: RequestContext): Reply {
  const page = readPage(query);
  const list: ListQuery = { from: 'accounts', columns: ACCOUNT_COLUMNS, where: ['deleted_at IS NULL'], params: [], orderBy: 'created_at DESC, rowid DESC' };
  const search = queryText(query, 'search');
  if (search) {
    const match = containsAny(['name', 'domain'], search);
    list.where.push(match.sql);
    list.params.push(...match.params);
  }
  const industry = queryText(query, 'industry');
  if (industry) {
    list.where.push('lower(industry) = lower(?)');
    list.params.push(industry);
  }
  const { rows, total } = listPage(store, list, page);
  return ok({ accounts: rows, total });
}

function createAccount({ store, body }: RequestContext): Reply {
  const fields = parseCreate(body, accountFields);
  const id = newId('acc');
  const now = store.nowIso();
  store.run(
    'INSERT INTO accounts (id, name, domain, industry, employees, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    id,
    fields.name,
    fields.domain,
    fields.industry,
    fields.employees,
    now,
    now,
  );
  return created(readAccount(store, id));
}

function getAccount({ store, params }: RequestContext): Reply {
  return ok(readAccount(store, params.id));
}

function updateAccount({ store, params, body }: RequestContext): Reply {
  requireLive(store, 'account', params.id);
  updateRow(store, 'account', params.id, parseUpdate(body, accountFields));
  return ok(readAccount(store, params.id));
}

function deleteAccount({ store, params }: RequestContext): Reply {
  return softDelete(store, 'account', params.id);
}

export const accountRoutes: Route[] = [
  { method: 'GET', path: '/accounts', handler: listAccounts },
  { method: 'POST', path: '/accounts', handler: createAccount },
  { method: 'GET', path: '/accounts/:id', handler: getAccount },
  { method: 'PATCH', path: '/accounts/:id', handler: updateAccount },
  { method: 'DELETE', path: '/accounts/:id', handler: deleteAccount },
];
