// -o tsv (the default into a pipe): one record a line (the view's columns, else every field of the first
// record), no header, ISO times; one record as
// key<TAB>value lines. Tabs, line breaks and backslashes are escaped, so a line is always a record.

import { flatten, getPath, safeText, tsvCell } from '../format.js';
import { isObject } from '../../registry/values.js';
import type { FormatWriter, Output } from './output.js';

export function tsvWriter(out: Output): FormatWriter {
  /** On a terminal also without bidi and invisible characters. */
  const cell = (value: unknown) => (out.tty ? safeText(tsvCell(value)) : tsvCell(value));
  return {
    async list(items, view) {
      let columns: readonly string[] | undefined;
      for await (const item of items) {
        out.note(item);
        // The view's columns whatever the first record holds: a report's columns must not depend on which id came first.
        // Without any (crm api): every field of the first record, nested ones as JSON text, as csv writes them; never the few a table fits.
        columns ??= out.fields ?? (view.columns?.length ? view.columns : isObject(item) ? Object.keys(item) : []);
        out.write(`${(isObject(item) ? columns.map((column) => cell(getPath(item, column))) : [cell(item)]).join('\t')}\n`);
      }
    },
    async record(value) {
      const pairs: Array<[string, unknown]> = out.fields ? out.fields.map((field) => [field, getPath(value, field)]) : flatten(value);
      out.write(pairs.map(([key, value]) => `${cell(key)}\t${cell(value)}\n`).join(''));
    },
  };
}
