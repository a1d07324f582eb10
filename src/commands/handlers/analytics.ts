// crm analytics [--period 7d|30d|90d]: a readable summary on a terminal; the service's data as it
// is with --json; one metric a row (section.key, value) in tsv, csv and ndjson.

import type { Context } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { cellText, formatNumber } from '../../cli/format.js';
import { isObject, type JsonObject } from '../../http/envelope.js';
import type { Handler } from '../run.js';

export const PERIODS = ['7d', '30d', '90d'] as const;
const SECTIONS = ['contacts', 'deals', 'emails', 'tasks'];

export const run: Handler = async (ctx, { op, options }) => {
  const period = typeof options.period === 'string' ? options.period.trim() : '30d';
  if (!(PERIODS as readonly string[]).includes(period)) throw usageError(`invalid --period "${period}" (expected one of: ${PERIODS.join(', ')})`);
  const data = await (await ctx.client()).request('GET', op.path, { query: { period } });
  if (ctx.printer.format === 'json' || !isObject(data)) return ctx.printer.record(data);
  if (ctx.printer.format !== 'table' || ctx.options.quiet) return ctx.printer.rows(metrics(data), ['metric', 'value']);
  printSummary(ctx, data, period);
};

/** Nested rollups as flat metric rows: contacts.new, deals.won_value, ... */
export function metrics(data: JsonObject, prefix = ''): Array<{ metric: string; value: unknown }> {
  return Object.entries(data).flatMap(([key, value]) =>
    isObject(value) ? metrics(value, `${prefix}${key}.`) : [{ metric: `${prefix}${key}`, value }],
  );
}

function printSummary(ctx: Context, data: JsonObject, period: string): void {
  const lines = [`Analytics for the last ${period.replace('d', ' days')}${data.from ? ` (${cellText(data.from).slice(0, 10)} to ${cellText(data.to).slice(0, 10)})` : ''}`];
  const sections = [...SECTIONS.filter((name) => isObject(data[name])), ...Object.keys(data).filter((name) => !SECTIONS.includes(name) && isObject(data[name]))];
  for (const name of sections) {
    lines.push('', name.charAt(0).toUpperCase() + name.slice(1));
    const rows = metrics(data[name] as JsonObject);
    const width = Math.max(...rows.map((row) => row.metric.length));
    for (const row of rows) lines.push(`  ${humanize(row.metric).padEnd(width + 2)}${display(row.metric, row.value)}`);
  }
  ctx.printer.write(`${lines.join('\n')}\n`);
}

function humanize(metric: string): string {
  return metric.replace(/[._]/g, ' ');
}

/** Rates (0..1) as percentages; everything numeric with thousands separators. */
function display(metric: string, value: unknown): string {
  if (typeof value === 'number' && /rate$/.test(metric) && value <= 1) return `${(value * 100).toFixed(1)}%`;
  return formatNumber(value);
}
