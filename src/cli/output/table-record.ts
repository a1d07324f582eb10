// One record under -o table: its fields as key/value lines, nested objects as indented sections
// and lists of objects as small tables, each cut to the terminal's width.

import { cellText, flatten, getPath, humanize, safeLine, safeText } from '../format.js';
import type { View } from '../result.js';
import { displayWidth, pad, truncate } from '../width.js';
import { isObject } from '../../registry/values.js';
import { isScalar, type Output } from './output.js';
import { gridText } from './table-grid.js';
import { GAP, type TableKit } from './table-kit.js';

/** What a record's nested members are indented by, under their heading. */
const INDENT = '  ';

export async function verticalTable(out: Output, kit: TableKit, record: Record<string, unknown>, view: View): Promise<void> {
  if (view.title) out.write(`${safeLine(view.title)}\n`);
  const keys = out.fields ?? view.keys ?? Object.keys(record);
  const width = out.tty ? kit.width : Infinity;
  // --fields: each asked for on its line, in the order asked (an object as JSON text, as tsv writes it).
  const scalars = out.fields ? keys : keys.filter((key) => !isObject(getPath(record, key)) && !isObjectList(getPath(record, key)));
  const nested = keys.filter((key) => !scalars.includes(key));
  const pairs = (entries: Array<[string, unknown]>, indent: string) => keyValueLines(kit, entries, indent, width);
  const lines = pairs(scalars.map((key) => [key, getPath(record, key)]), '');
  for (const key of nested) {
    const value = getPath(record, key);
    lines.push('', kit.style.bold(safeText(humanize(key))));
    if (isObject(value)) {
      for (const line of pairs(flatten(value), INDENT)) lines.push(line);
    } else if (Array.isArray(value) && value.length > 0) {
      // Fitted as a list's table is, to the width left of the indent: no row wraps.
      const table = await gridText(out, kit, value.filter(isObject), {}, width - INDENT.length);
      for (const line of table.split('\n')) lines.push(`${INDENT}${line}`);
    } else {
      lines.push('  (none)');
    }
  }
  out.write(`${lines.join('\n')}\n`);
  for (const note of view.notes ?? []) out.write(`${safeLine(note)}\n`);
}

function isObjectList(value: unknown): boolean {
  return Array.isArray(value) && value.some(isObject);
}

/** key  value lines, the keys aligned, each line cut to the width. */
export function keyValueLines(kit: TableKit, entries: Array<[string, unknown]>, indent: string, width: number): string[] {
  // A loop, not Math.max(...): a record from the service may have more keys than a call takes arguments.
  const keyWidth = entries.reduce((widest, [key]) => Math.max(widest, displayWidth(safeText(key))), 0);
  return entries.map(([key, value]) => {
    const text = Array.isArray(value) && value.every(isScalar) ? value.map(cellText).join(', ') : kit.cell(value, key);
    return `${indent}${kit.style.bold(pad(safeText(key), keyWidth))}  ${truncate(text, width - indent.length - keyWidth - GAP)}`.trimEnd();
  });
}
