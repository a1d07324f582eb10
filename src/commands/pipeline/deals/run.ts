// crm pipeline deals: deal count and total value per stage; on a terminal, a bar chart of the values.

import { noRecordError } from '../../../cli/errors.js';
import { formatNumber } from '../../../cli/format.js';
import { list } from '../../../cli/result.js';
import { unwrapList } from '../../../http/envelope.js';
import { isObject, type JsonObject } from '../../../registry/values.js';
import { viewOf } from '../../endpoint.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { command: op }) => {
  const data = await (await ctx.client()).request('GET', op.path);
  const page = unwrapList(data, op.listKey);
  if (!page) throw noRecordError('per-stage totals');
  // Workspaces name these differently; every stage also gets count and total_value.
  const stages = page.items.filter(isObject).map((stage) => ({ ...stage, name: stage.name ?? stage.id ?? stage.stage, count: countOf(stage), total_value: totalOf(stage) }));
  const deals = stages.reduce((sum, stage) => sum + stage.count, 0);
  const value = stages.reduce((sum, stage) => sum + stage.total_value, 0);
  return list(stages, { ...viewOf(op), chart: 'total_value', notes: [`${formatNumber(deals)} deals, total value ${formatNumber(value)}`] });
};

/** count / deal_count / deals (a number or a list). */
function countOf(stage: JsonObject): number {
  return Number(stage.count ?? stage.deal_count ?? (Array.isArray(stage.deals) ? stage.deals.length : stage.deals) ?? 0) || 0;
}

/** total_value / value / total / amount. */
function totalOf(stage: JsonObject): number {
  return Number(stage.total_value ?? stage.value ?? stage.total ?? stage.amount ?? 0) || 0;
}
