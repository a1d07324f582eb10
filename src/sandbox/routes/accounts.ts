import { collection } from '../collection.js';
import { equalsIgnoringCase, matchesAny } from '../lists.js';

const accounts = collection({
  resource: 'account',
  table: 'accounts',
  prefix: 'acc',
  alias: 'a',
  from: 'accounts a',
  columns: 'a.id, a.name, a.domain, a.industry, a.employees, a.created_at, a.updated_at',
  orderBy: 'a.created_at DESC, a.rowid DESC',
  filters: { search: matchesAny(['a.name', 'a.domain']), industry: equalsIgnoringCase('a.industry') },
});

export const accountRoutes = accounts.routes;
