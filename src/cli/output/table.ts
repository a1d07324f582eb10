// -o table (the default on a terminal) for lists: columns that fit the terminal, a title and notes,
// blocks grouped by a field (search), a bar chart column (pipeline deals), and a footer on stderr
// saying where the page sits. A streamed list (watch) is ./table-stream.ts, one record ./table-record.ts.

import { cellText, getPath, safeLine, safeText } from '../format.js';
import type { PageInfo, View } from '../result.js';
import { displayWidth, truncate } from '../width.js';
import type { FormatWriter, Output } from './output.js';
import { streamTable } from './table-stream.js';
import { verticalTable } from './table-record.js';
import { TableKit, fitColumns, trimLines } from './table-kit.js';

export function tableWriter(out: Output): FormatWriter {
  const kit = new TableKit(out);
  return {
    async list(items, view, page) {
      if (view.stream) return streamTable(out, kit, items, view);
      const all: unknown[] = [];
      for await (const item of items) {
        out.note(item);
        all.push(item);
      }
      await table(out, kit, all, view);
      // Under the table: what is held back for stdout goes first.
      out.flush();
      footer(out, all.length, view, page);
    },
    record: (value, view) => verticalTable(out, kit, value, view),
  };
}

async function table(out: Output, kit: TableKit, items: unknown[], view: View): Promise<void> {
  if (items.length === 0) return;
  if (view.title) out.write(`${safeLine(view.title)}\n`);
  if (view.groupBy) {
    const groups = new Map<string, unknown[]>();
    for (const item of items) {
      const key = cellText(getPath(item, view.groupBy));
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const columns = (view.columns ?? []).filter((column) => column !== view.groupBy);
    let first = true;
    for (const [name, members] of groups) {
      out.write(`${first ? '' : '\n'}${safeLine(plural(name).toUpperCase())} (${members.length})\n`);
      await grid(out, kit, members, { ...view, columns });
      first = false;
    }
  } else {
    await grid(out, kit, items, view);
  }
  for (const note of view.notes ?? []) out.write(`${safeLine(note)}\n`);
}

async function grid(out: Output, kit: TableKit, items: unknown[], view: View): Promise<void> {
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
  let widths = columns.map((_, index) => Math.max(displayWidth(head[index]!), ...cells.map((row) => displayWidth(row[index]!))));
  if (kit.fits) ({ keep, widths } = fitColumns(columns, widths, numeric, kit.width));
  const rendered = await kit.newTable(
    keep.map((index) => head[index]!),
    keep.map((index) => (numeric[index] ? 'right' : 'left')),
  );
  for (const row of cells) rendered.push(keep.map((index, at) => truncate(row[index]!, widths[at]!)));
  out.write(`${trimLines(rendered.toString())}\n`);
}

/** Under a table, on stderr: where this page sits in the list, and how to get more. */
function footer(out: Output, count: number, view: View, page?: PageInfo): void {
  const stderr = out.io.stderr;
  if (!out.io.stderrIsTTY) return;
  const noun = view.noun ?? 'records';
  if (!page) {
    if (count === 0) stderr.write(`No ${noun}.\n`);
    return;
  }
  const { offset, total } = page;
  if (count === 0) {
    stderr.write(offset > 0 ? `No ${noun} at offset ${offset}${total !== undefined ? ` (${total} in all)` : ''}.\n` : `No ${noun}.\n`);
    return;
  }
  const last = offset + count;
  const more = total !== undefined ? last < total : page.full;
  const range = `Showing ${offset + 1}-${last}${total !== undefined ? ` of ${total}` : ''} ${noun}`;
  stderr.write(more ? `${range}; more with --offset ${last}, or --all.\n` : `${range}.\n`);
}

const BAR_WIDTH = 30;

/** Horizontal bars in eighths of a cell, scaled to the largest value. */
function bars(values: number[]): string[] {
  const max = Math.max(0, ...values);
  return values.map((value) => {
    if (max <= 0 || value <= 0) return '';
    const eighths = Math.max(1, Math.round((value / max) * BAR_WIDTH * 8));
    return '█'.repeat(Math.floor(eighths / 8)) + (eighths % 8 ? '▏▎▍▌▋▊▉'[(eighths % 8) - 1] : '');
  });
}

/** search's `contact` groups as CONTACTS. */
function plural(word: string): string {
  return word.endsWith('s') ? word : `${word}s`;
}
