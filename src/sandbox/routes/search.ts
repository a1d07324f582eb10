import { SEARCH_TYPES } from '../../registry/resources.js';
import { badRequest, containsAny, listPage, ok, queryText, readPage, type Reply, type RequestContext, type Route } from '../http.js';
import { DEAL_STATUS_SQL } from './deals.js';

/**
 * One SELECT per searchable type, all with the columns type, id, title, subtitle, created_at and a
 * tiebreak; `columns` are the ones the search text is matched against.
 */
const SEARCHABLE: Record<SearchType, { select: string; columns: readonly string[] }> = {
  contacts: {
    select: `SELECT 'contact' AS type, c.id, c.name AS title, c.email || COALESCE(' · ' || c.company, '') AS subtitle, c.created_at, c.rowid AS tiebreak
      FROM contacts c WHERE c.deleted_at IS NULL`,
    columns: ['c.name', 'c.email', 'c.company'],
  },
  deals: {
    select: `SELECT 'deal' AS type, d.id, d.name AS title,
        s.name || ' · ' || ${DEAL_STATUS_SQL} || ' · ' || d.currency || ' ' || printf('%,d', CAST(d.amount AS INTEGER)) AS subtitle,
        d.created_at, d.rowid AS tiebreak
      FROM deals d JOIN stages s ON s.id = d.stage WHERE d.deleted_at IS NULL`,
    columns: ['d.name'],
  },
  accounts: {
    select: `SELECT 'account' AS type, a.id, a.name AS title, concat_ws(' · ', a.domain, a.industry) AS subtitle, a.created_at, a.rowid AS tiebreak
      FROM accounts a WHERE a.deleted_at IS NULL`,
    columns: ['a.name', 'a.domain', 'a.industry'],
  },
  tasks: {
    select: `SELECT 'task' AS type, t.id, t.title, t.status || COALESCE(' · due ' || t.due_date, '') AS subtitle, t.created_at, t.rowid AS tiebreak
      FROM tasks t WHERE t.deleted_at IS NULL`,
    columns: ['t.title', 't.description'],
  },
};

type SearchType = (typeof SEARCH_TYPES)[number];

function readTypes(text: string | undefined): SearchType[] {
  if (text === undefined) return [...SEARCH_TYPES];
  const types = new Set<SearchType>();
  for (const name of text.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean)) {
    const type = SEARCH_TYPES.find((candidate) => candidate === name);
    if (!type) throw badRequest(`Unknown type '${name}'. Valid types: ${SEARCH_TYPES.join(', ')}`);
    types.add(type);
  }
  return types.size > 0 ? [...types] : [...SEARCH_TYPES];
}

function search({ store, query }: RequestContext): Reply {
  const text = queryText(query, 'q');
  if (!text) throw badRequest('q is required: the text to search for');
  const types = readTypes(queryText(query, 'types'));
  const page = readPage(query);
  const parts = types.map((type) => {
    const match = containsAny(SEARCHABLE[type].columns, text);
    return { sql: `${SEARCHABLE[type].select} AND ${match.sql}`, params: match.params };
  });
  const { rows, total } = listPage(
    store,
    {
      from: `(${parts.map((part) => part.sql).join(' UNION ALL ')}) AS results`,
      columns: 'type, id, title, subtitle, created_at',
      where: [],
      params: parts.flatMap((part) => part.params),
      orderBy: 'created_at DESC, type, tiebreak DESC',
    },
    page,
  );
  return ok({ results: rows, total });
}

export const searchRoutes: Route[] = [{ method: 'GET', path: '/search', handler: search }];
