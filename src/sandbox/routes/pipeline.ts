import { ok, type Reply, type RequestContext, type Route } from '../http.js';

interface StageRow {
  id: string;
  name: string;
  position: number;
  probability: number;
  is_closed: number;
  is_won: number;
}

function listStages({ store }: RequestContext): Reply {
  const stages = store
    .all<StageRow>('SELECT id, name, position, probability, is_closed, is_won FROM stages ORDER BY position')
    .map((stage) => ({ ...stage, is_closed: stage.is_closed === 1, is_won: stage.is_won === 1 }));
  return ok({ stages, total: stages.length });
}

/** Every stage, including empty ones, with the count and summed amount of its live deals. */
function dealsByStage({ store }: RequestContext): Reply {
  const stages = store.all(
    `SELECT s.id, s.name, s.position, COUNT(d.id) AS count, TOTAL(d.amount) AS total_value
     FROM stages s LEFT JOIN deals d ON d.stage = s.id AND d.deleted_at IS NULL
     GROUP BY s.id ORDER BY s.position`,
  );
  return ok({ stages, total: stages.length });
}

export const pipelineRoutes: Route[] = [
  { method: 'GET', path: '/pipeline/stages', handler: listStages },
  { method: 'GET', path: '/pipeline/deals', handler: dealsByStage },
];
