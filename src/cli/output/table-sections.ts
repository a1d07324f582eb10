// One record under -o table as titled sections (crm status, a record's view): each section a member
// of the record, shown as a table of records (columns fitted to the terminal) or as key/value lines,
// with its notes under it. Without --fields: --fields picks members of the record, shown as one record.

import { getPath, safeLine } from '../format.js';
import type { Section } from '../result.js';
import { isObject } from '../../registry/values.js';
import { isScalar, type Output } from './output.js';
import { grid } from './table-grid.js';
import { keyValueLines } from './table-record.js';
import type { TableKit } from './table-kit.js';

export async function sectionsTable(out: Output, kit: TableKit, record: Record<string, unknown>, sections: readonly Section[]): Promise<void> {
  await kit.loadStyle();
  const width = out.tty ? kit.width : Infinity;
  for (const [index, section] of sections.entries()) {
    out.write(`${index > 0 ? '\n' : ''}${kit.style.bold(safeLine(section.title))}\n`);
    const value = getPath(record, section.path);
    if (Array.isArray(value) && value.length > 0) {
      await grid(out, kit, value, { columns: section.columns });
    } else if (isObject(value)) {
      const keys = (section.columns ?? Object.keys(value)).filter((key) => getPath(value, key) !== undefined && (section.columns !== undefined || isScalar(value[key])));
      out.write(`${keyValueLines(kit, keys.map((key) => [key, getPath(value, key)]), '', width).join('\n')}\n`);
    } else {
      out.write(`${safeLine(section.empty ?? 'None.')}\n`);
    }
    for (const note of section.notes ?? []) out.write(`${safeLine(note)}\n`);
  }
}
