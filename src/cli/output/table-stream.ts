// A table whose records keep coming (crm watch): one line a record as it arrives, under a header
// written with the first; column widths are fixed by that first record and the terminal.

import { getPath, safeText } from '../format.js';
import type { View } from '../result.js';
import { displayWidth, pad, truncate } from '../width.js';
import type { Items, Output } from './output.js';
import { CUTTABLE_OVER, GAP, type TableKit, fitColumns } from './table-kit.js';

/** The width a long text column starts from, before it is fitted to the terminal. */
const STREAM_TEXT_WIDTH = 24;

interface Layout {
  columns: readonly string[];
  widths: number[];
  numeric: boolean[];
}

export async function streamTable(out: Output, kit: TableKit, items: Items, view: View): Promise<void> {
  let layout: Layout | undefined;
  for await (const item of items) {
    out.note(item);
    if (!layout) {
      layout = layoutOf(out, kit, item, view);
      await kit.loadStyle();
      out.write(`${kit.style.head(line(layout.columns.map((column) => safeText(column.toUpperCase())), layout))}\n`);
    }
    out.write(`${line(layout.columns.map((column) => kit.cell(getPath(item, column), column)), layout)}\n`);
  }
}

function layoutOf(out: Output, kit: TableKit, first: unknown, view: View): Layout {
  const columns = out.columnsFor([first], view);
  const numeric = columns.map((column) => typeof getPath(first, column) === 'number');
  // Text gets room to spare (ids, numbers and empty cells do not): later records are cut to
  // these widths, never re-flowed.
  const natural = columns.map((column, index) => {
    const width = displayWidth(kit.cell(getPath(first, column), column));
    const exact = numeric[index] || width === 0 || column === 'id' || column.endsWith('_id');
    return Math.max(displayWidth(safeText(column)), width, exact ? 0 : width > CUTTABLE_OVER ? STREAM_TEXT_WIDTH : CUTTABLE_OVER);
  });
  const { keep, widths } = kit.fits ? fitColumns(columns, natural, numeric, kit.width) : { keep: columns.map((_, index) => index), widths: natural };
  return { columns: keep.map((index) => columns[index]!), widths, numeric: keep.map((index) => numeric[index]!) };
}

/** Cells padded to the layout's widths (numbers to the right), two spaces apart. */
function line(cells: readonly string[], layout: Layout): string {
  return cells
    .map((cell, index) => pad(truncate(cell, layout.widths[index]!), layout.widths[index]!, layout.numeric[index]))
    .join(' '.repeat(GAP))
    .trimEnd();
}
