// Records as a table whose columns fit the terminal: what a list (./table.ts) and a record's
// sections (./table-sections.ts) show. On a terminal the least useful columns give way first; a
// numeric column of the view can also be drawn as a bar chart.

import { getPath, safeText } from '../format.js';
import type { View } from '../result.js';
import { displayWidth, truncate } from '../width.js';
import type { Output } from './output.js';
import { fitColumns, type TableKit } from './table-kit.js';

/** Records as a table whose columns fit the terminal (a chart column when the view asks for one). */
export async function grid(out: Output, kit: TableKit, items: unknown[], view: View): Promise<void> {
  out.write(`${await gridText(out, kit, items, view, kit.width)}\n`);
}

/** The lines of grid(), fitted to WIDTH columns (a table indented under a record's heading has less). */
export async function gridText(out: Output, kit: TableKit, items: unknown[], view: View, width: number): Promise<string> {
  let columns = [...out.columnsFor(items, view)];
  let cells = items.map((item) => columns.map((column) => kit.cell(getPath(item, column), column)));
  const chart = view.chart && (out.tty || out.io.colorStdout) ? bars(items.map((item) => Number(getPath(item, view.chart!)) || 0)) : undefined;
  if (chart) {
    columns = [...columns, 'chart'];
    cells = cells.map((row, index) => [...row, chart[index]!]);
  }
  const numeric = columns.map((column) => column !== 'chart' && items.some((item) => typeof getPath(item, column) === 'number'));
  const head = columns.map((column) => safeText(column.toUpperCase()));
  let keep = columns.map((_, index) => index);
  // Folded, not Math.max(...cells): a list (--all) may have more rows than a call takes arguments.
  let widths = columns.map((_, index) => cells.reduce((widest, row) => Math.max(widest, displayWidth(row[index]!)), displayWidth(head[index]!)));
  if (kit.fits) ({ keep, widths } = fitColumns(columns, widths, numeric, width));
  const rows = cells.map((row) => keep.map((index, at) => truncate(row[index]!, widths[at]!)));
  return kit.render(
    keep.map((index) => head[index]!),
    keep.map((index) => (numeric[index] ? 'right' : 'left')),
    rows,
    widths,
  );
}

const BAR_WIDTH = 30;

/** Horizontal bars in eighths of a cell, scaled to the largest value. */
function bars(values: number[]): string[] {
  const max = values.reduce((largest, value) => Math.max(largest, value), 0);
  return values.map((value) => {
    if (max <= 0 || value <= 0) return '';
    const eighths = Math.max(1, Math.round((value / max) * BAR_WIDTH * 8));
    return '█'.repeat(Math.floor(eighths / 8)) + (eighths % 8 ? '▏▎▍▌▋▊▉'[(eighths % 8) - 1] : '');
  });
}
