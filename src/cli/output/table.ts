// -o table (the default on a terminal) for lists: columns that fit the terminal, a title and notes,
// blocks grouped by a field (search), a bar chart column (pipeline deals), and a footer on stderr
// saying where the page sits. A streamed list (watch) is ./table-stream.ts, one record ./table-record.ts
// (in titled sections: ./table-sections.ts).

import { cellText, getPath, safeLine } from '../format.js';
import type { PageInfo, View } from '../result.js';
import type { FormatWriter, Output } from './output.js';
import { grid } from './table-grid.js';
import { streamTable } from './table-stream.js';
import { verticalTable } from './table-record.js';
import { sectionsTable } from './table-sections.js';
import { TableKit } from './table-kit.js';

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
    record: (value, view) => (view.sections && !out.fields ? sectionsTable(out, kit, value, view.sections) : verticalTable(out, kit, value, view)),
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
  const last = offset + (page.rows ?? count);
  const more = total !== undefined ? last < total : page.full;
  const range = `Showing ${offset + 1}-${last}${total !== undefined ? ` of ${total}` : ''} ${noun}`;
  stderr.write(more ? `${range}; more with --offset ${last}, or --all.\n` : `${range}.\n`);
}

/** search's `contact` groups as CONTACTS. */
function plural(word: string): string {
  return word.endsWith('s') ? word : `${word}s`;
}
