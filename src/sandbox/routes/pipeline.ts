import { listPage, ok, readPage, type Reply, type RequestContext, type Route } from '../http.js';

interface StageRow {
  id: string;
  name: string;
  position: number;
  probability: number;
  is_closed: number;
  is_won: number;
}

// Both lists are paged as every list is (limit, default 20, at most 50; offset), in pipeline order:
// a workspace with more stages than a page holds answers them over several pages.

function listStages({ store, query }: RequestContext): Reply {
  const { rows, total } = listPage<StageRow>(store, { from: 'stages', columns: 'id, name, position, probability, is_closed, is_won', where: [], params: [], orderBy: 'position' }, readPage(query));
  return ok({ stages: rows.map((stage) => ({ ...stage, is_closed: stage.is_closed === 1, is_won: stage.is_won === 1 })), total });
}

/** Every stage, including empty ones, with the count and summed amount of its live deals. */
function dealsByStage({ store, query }: RequestContext): Reply {
  const totals = `(SELECT s.id, s.name, s.position, COUNT(d.id) AS count, TOTAL(d.amount) AS total_value
     FROM stages s LEFT JOIN deals d ON d.stage = s.id AND d.deleted_at IS NULL
     GROUP BY s.id)`;
  const { rows, total } = listPage(store, { from: totals, columns: 'id, name, position, count, total_value', where: [], params: [], orderBy: 'position' }, readPage(query));
  return ok({ stages: rows, total });
}

export const pipelineRoutes: Route[] = [
  { method: 'GET', path: '/pipeline/stages', handler: listStages },
  { method: 'GET', path: '/pipeline/deals', handler: dealsByStage },
];
