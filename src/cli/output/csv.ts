// -o csv: RFC 4180 with a header row (an empty list's too, its fields or columns as the view knows them), nested values
// as JSON text. A cell a spreadsheet would run as a formula is kept exact (exports are imported
// again) and counted for a warning, unless --escape-formulas asks for the usual guard.

import { cellText, getPath, safeLines, safeText } from '../format.js';
import { isObject } from '../../registry/values.js';
import type { View } from '../result.js';
import type { FormatWriter, Items, Output } from './output.js';

/** RFC 4180: CRLF between records; a field holding a line break is quoted too. For every CSV crm writes. */
export const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/** The first characters that make a spreadsheet read a cell as a formula (OWASP's "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * What --escape-formulas prefixes with ': a formula, and a text that already begins with ' before
 * one (`'=x` is written `''=x`), so that taking one ' off again (`contacts import
 * --unescape-formulas`) gives every cell back exactly.
 */
const ESCAPED_START = /^'*[=+\-@\t\r]/;
const UNESCAPE = /^'(?='*[=+\-@\t\r])/;

/** A cell of a CSV written with --escape-formulas, as it was before: one leading ' taken off what that flag prefixed. */
export const unescapeFormula = (cell: string): string => cell.replace(UNESCAPE, '');

export function csvWriter(out: Output, { escapeFormulas }: { escapeFormulas: boolean }): FormatWriter {
  /** Cells left as they are that a spreadsheet would run (the warning counts them). */
  let formulaCells = 0;
  /** Fields of later records that the header (the first record's fields) lacks, and how many records had some: not written, so warned. */
  const unheaded = new Set<string>();
  let unheadedRecords = 0;

  /** A cell: text, numbers stay numbers; a formula guarded with a leading ' when asked. */
  const cell = (value: unknown): string => {
    const text = cellText(value);
    if (typeof value !== 'string') return text;
    if (escapeFormulas) return ESCAPED_START.test(text) ? `'${text}` : text;
    if (FORMULA_START.test(text)) formulaCells++;
    return text;
  };

  const list = async (items: Items, view?: View): Promise<void> => {
    // One stringifier for the whole list (it writes each row as it is given one): a stringifier
    // per row made a long export's memory grow with its length.
    const { stringify } = await import('csv-stringify');
    const csv = stringify(CSV_OPTIONS);
    // On a terminal each cell is made safe (line breaks stay: they are quoted); into a pipe it stays exact.
    const shown = out.tty ? safeLines : (text: string) => text;
    csv.on('data', (chunk: Buffer | string) => out.write(String(chunk)));
    const ended = new Promise((resolve, reject) => csv.on('end', resolve).on('error', reject));
    // Header cells are cells too: a field's name comes from the service, and a spreadsheet runs it as readily.
    const header = (names: readonly string[]) => csv.write(names.map((name) => shown(cell(name))));
    let columns: readonly string[] | undefined = out.fields;
    if (columns) header(columns);
    // Only a header taken from the first record can lack a field; columns named with --fields are what was asked for.
    let headed: Set<string> | undefined;
    for await (const item of items) {
      out.note(item);
      if (!columns) {
        columns = isObject(item) ? Object.keys(item) : ['value'];
        headed = new Set(columns);
        header(columns);
      } else if (headed && isObject(item)) {
        const missing = Object.keys(item).filter((key) => !headed!.has(key));
        for (const key of missing) unheaded.add(key);
        if (missing.length > 0) unheadedRecords++;
      }
      csv.write(columns.map((column) => shown(cell(isObject(item) ? getPath(item, column) : item))));
    }
    // No record: the header alone, so that a reader of an empty list still finds its columns (its
    // records' fields, else the columns the view shows: search, crm sync --status).
    const known = view?.fields ?? (view?.columns?.length ? view.columns : undefined);
    if (!columns && known) header(known);
    csv.end();
    await ended;
  };

  return {
    list,
    record: (value) => list([value]),
    done: (data) => list([data]),
    finish() {
      if (unheaded.size > 0) {
        const records = unheadedRecords === 1 ? '1 record has' : `${unheadedRecords} records have`;
        out.io.stderr.write(`crm: warning: ${records} fields the CSV's header (the first record's fields) lacks, not written: ${safeText([...unheaded].join(', '))}; -o ndjson writes every field, --fields names the columns\n`);
        unheaded.clear();
        unheadedRecords = 0;
      }
      if (formulaCells === 0) return;
      const cells = formulaCells === 1 ? '1 cell begins' : `${formulaCells} cells begin`;
      out.io.stderr.write(`crm: warning: ${cells} with = + - @ (or a tab or CR): a spreadsheet opening this CSV may run ${formulaCells === 1 ? 'it' : 'them'} as formulas; --escape-formulas prefixes such cells with '\n`);
      formulaCells = 0;
    },
  };
}
