// crm pipeline deals: deal count and total value per stage; on a terminal, a bar chart of the totals.

import { formatNumber } from '../../cli/format.js';
import { isObject, unwrapList, type JsonObject } from '../../http/envelope.js';
import { CliError, ExitCode } from '../../cli/errors.js';
import type { Handler } from '../run.js';

const BAR_WIDTH = 30;

export const run: Handler = async (ctx, { op }) => {
  const data = await (await ctx.client()).request('GET', op.path);
  const page = unwrapList(data, op.listKey);
  if (!page) throw new CliError('malformed response from the service (expected per-stage totals)', ExitCode.network, { code: 'malformed_response' });
  const stages = page.items.filter(isObject);
  if (ctx.printer.format !== 'table') return ctx.printer.records(stages, { columns: ['id', 'name', 'count', 'total_value'] });

  const rows = stages.map((stage) => ({ stage: String(stage.name ?? stage.id ?? stage.stage ?? ''), count: countOf(stage), total: totalOf(stage) }));
  const max = Math.max(0, ...rows.map((row) => row.total));
  const chart = ctx.io.stdoutIsTTY || ctx.io.colorStdout;
  await ctx.printer.rows(
    rows.map((row) => ({
      stage: row.stage,
      deals: row.count,
      total_value: formatNumber(row.total),
      ...(chart ? { chart: bar(row.total, max) } : {}),
    })),
    ['stage', 'deals', 'total_value', ...(chart ? ['chart'] : [])],
  );
  const deals = rows.reduce((sum, row) => sum + row.count, 0);
  const value = rows.reduce((sum, row) => sum + row.total, 0);
  ctx.printer.write(`${deals} deals, total value ${formatNumber(value)}\n`);
};

/** Workspaces name these differently: count / deal_count / deals, total_value / value / total / amount. */
function countOf(stage: JsonObject): number {
  return Number(stage.count ?? stage.deal_count ?? (Array.isArray(stage.deals) ? stage.deals.length : stage.deals) ?? 0) || 0;
}

function totalOf(stage: JsonObject): number {
  return Number(stage.total_value ?? stage.value ?? stage.total ?? stage.amount ?? 0) || 0;
}

function bar(value: number, max: number): string {
  if (max <= 0 || value <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * BAR_WIDTH * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + (eighths % 8 ? '▏▎▍▌▋▊▉'[(eighths % 8) - 1] : '');
}
