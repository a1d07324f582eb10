// Reading an import file into contact bodies, every row checked before anything is sent. CSV (a
// header row; comma, semicolon or tab; a UTF-8 BOM tolerated; csv-parse), NDJSON (one JSON object
// a line) or a JSON array of objects (what `-o json` writes). Columns are matched to contact fields by name (`Email`, `account-id`), by
// another CRM's name for one (IMPORT_COLUMNS: `First Name` and `Last Name` make the name), or by --map
// COLUMN=FIELD, which may also name a field the registry does not know (a workspace's own: sent as
// given). Other columns are ignored with a warning, so an export can be imported as it is. A row is
// checked as `contacts create` checks its flags: required fields, the email rule, typed values.

import { usageError } from '../../../cli/errors.js';
import { safeLine } from '../../../cli/format.js';
import { unescapeFormula } from '../../../cli/output/csv.js';
import { checkJsonInput, checkName, parseValue } from '../../../cli/input.js';
import { isObject, type JsonObject } from '../../../registry/values.js';
import { IMPORT_COLUMNS, type IMPORT_FORMATS } from '../../../registry/local.js';
import { writableFields } from '../../../registry/resources.js';
import type { FieldSpec } from '../../../registry/types.js';

export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportRow {
  /** Where the row starts in the file (1 is the first line; the CSV header is line 1). */
  line: number;
  /** The row as read (CSV cells; for NDJSON the line itself): what the errors file repeats. */
  cells: string[];
  /** What would be sent, when the row is valid. */
  body?: JsonObject;
  /** Why the row cannot be sent. */
  problem?: string;
  /** The line of an earlier row with this row's email (without --upsert): only --upsert imports this row. */
  emailOf?: number;
}

export interface ImportFile {
  rows: ImportRow[];
  /** The names of `cells`: the CSV header, or `json` for NDJSON. */
  columns: string[];
  /** Columns (or keys) that match no contact field and were not mapped: left out of every body. */
  ignored: string[];
  /**
   * What a row's number (its `line`) counts: the line the row begins on, or, in a JSON array whose
   * items do not each begin a line of their own (jq -c, a one-line array), the item's place in it.
   * Each row's number is its own either way: the checkpoint knows rows by it.
   */
  numberedBy: RowNumbering;
}

export type RowNumbering = 'line' | 'item';

const CONTACT_FIELDS = writableFields('contact');
const REQUIRED_FIELDS = CONTACT_FIELDS.filter((field) => field.required);

/** Format from --format, else the file name, else the first character (`{`: NDJSON). */
export function detectFormat(text: string, source: string, asked: ImportFormat | undefined): ImportFormat {
  if (asked) return asked;
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  // `.json` is an array (`-o json`), or NDJSON by another name.
  if (/\.json$/i.test(source)) return first === '[' ? 'json' : 'ndjson';
  if (/\.(ndjson|jsonl)$/i.test(source)) return 'ndjson';
  if (/\.(csv|txt)$/i.test(source)) return 'csv';
  return first === '{' ? 'ndjson' : first === '[' ? 'json' : 'csv';
}

/** How the columns are read: --map COLUMN=FIELD, and --unescape-formulas (a CSV export's --escape-formulas undone). */
interface ReadOptions {
  maps: readonly string[];
  unescapeFormulas: boolean;
}

export async function readImportFile(text: string, format: ImportFormat, options: ReadOptions, source: string): Promise<ImportFile> {
  const mapping = parseMaps(options.maps);
  if (format === 'csv') return readCsv(text, mapping, source, options.unescapeFormulas);
  if (format === 'ndjson') return objectRows(ndjsonLines(text), mapping, 'line');
  const { entries, numberedBy } = jsonArrayItems(text, source);
  return objectRows(entries, mapping, numberedBy);
}

/** --map COLUMN=FIELD (COLUMN=, with no field: leave the column out, quietly). */
function parseMaps(maps: readonly string[]): Map<string, string> {
  const mapping = new Map<string, string>();
  for (const pair of maps) {
    const eq = pair.lastIndexOf('=');
    if (eq <= 0) throw usageError(`invalid --map "${pair}" (expected COLUMN=FIELD)`);
    const column = pair.slice(0, eq).trim();
    const field = pair.slice(eq + 1).trim();
    if (field !== '') checkName(field, '--map');
    if (mapping.has(column)) throw usageError(`--map names column "${column}" twice`);
    mapping.set(column, field);
  }
  return mapping;
}

/**
 * Without --upsert, a valid row whose email an earlier valid row has (in any case) is invalid: both
 * would be sent at once, and which became the contact would depend on which answer came first.
 */
export function refuseRepeatedEmails({ rows, numberedBy }: ImportFile): void {
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    if (typeof row.body?.email !== 'string') continue;
    const email = row.body.email.toLowerCase();
    const earlier = firstLine.get(email);
    if (earlier === undefined) {
      firstLine.set(email, row.line);
      continue;
    }
    row.problem = `email ${row.body.email} is on ${numberedBy} ${earlier} too (--upsert updates that contact with this row)`;
    row.emailOf = earlier;
    delete row.body;
  }
}

/** How import matches a column's name: `Email`, ` account-id `, `List IDs` → email, account_id, list_ids. */
const columnKey = (column: string): string => column.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** The contact field of that name. */
const contactField = (name: string): FieldSpec | undefined => CONTACT_FIELDS.find((field) => field.name === name);

/** What a column fills: a field, or one part of it (`First Name`: the name's first part). */
interface Filler {
  field: FieldSpec;
  part?: number;
}

/**
 * Which field each column fills, checked once for the whole file: every --map names a column of
 * the file, and no two columns fill the same field. A column named as a field (or mapped) comes
 * first; another CRM's name for a field (IMPORT_COLUMNS: `Company Name`, `First Name`) fills it
 * when no such column does, the first column of each name or part.
 */
function resolveColumns(columns: readonly string[], mapping: Map<string, string>): { fillers: Array<Filler | undefined>; ignored: string[] } {
  for (const column of mapping.keys()) {
    if (!columns.includes(column)) throw usageError(`--map: the file has no column "${column}"`, `its columns: ${columns.join(', ')}`);
  }
  const fillers = columns.map((column): Filler | undefined => {
    const mapped = mapping.get(column);
    if (mapped === '') return undefined;
    // A field crm does not know is the workspace's own: its value is sent as given.
    if (mapped !== undefined) return { field: contactField(mapped) ?? { name: mapped, type: 'json', description: 'a field of the workspace' } };
    const field = contactField(columnKey(column));
    return field && { field };
  });
  const filledBy = new Map<string, string>();
  fillers.forEach((filler, index) => {
    if (!filler) return;
    const other = filledBy.get(filler.field.name);
    if (other !== undefined) throw usageError(`columns "${other}" and "${columns[index]}" both fill ${filler.field.name}`, `leave one out with --map "${columns[index]}="`);
    filledBy.set(filler.field.name, columns[index]!);
  });
  /** The field (and part) each of IMPORT_COLUMNS's names filled: the first column of each. */
  const taken = new Set<string>();
  columns.forEach((column, index) => {
    const key = columnKey(column);
    if (fillers[index] || mapping.has(column) || !Object.hasOwn(IMPORT_COLUMNS, key)) return;
    const { field, part } = IMPORT_COLUMNS[key]!;
    const spec = contactField(field);
    if (!spec || filledBy.has(field) || taken.has(`${field}:${part}`)) return;
    taken.add(`${field}:${part}`);
    fillers[index] = { field: spec, part };
  });
  const ignored = columns.filter((column, index) => !fillers[index] && mapping.get(column) !== '');
  return { fillers, ignored };
}

/** The body of one row: each column's value (`values[i]`) for the field it fills (`fillers[i]`); or why it cannot be sent. */
function toBody(fillers: ReadonlyArray<Filler | undefined>, values: ArrayLike<unknown>): Pick<ImportRow, 'body' | 'problem'> {
  const body: JsonObject = {};
  /** A field's parts given, in the order of their parts. */
  const parts = new Map<FieldSpec, Array<{ part: number; text: string }>>();
  try {
    for (let index = 0; index < fillers.length; index++) {
      const filler = fillers[index];
      const raw = values[index];
      if (!filler) continue;
      const { field, part } = filler;
      const value = typeof raw === 'string' ? raw.trim() : raw;
      if (value === undefined || value === null || value === '') continue;
      // From JSON: a number JSON.parse could not keep (1e400, an id beyond 2^53) is refused as --data's is.
      if (typeof value !== 'string') checkJsonInput(value, 'the row', field.name);
      if (part !== undefined) parts.set(field, [...(parts.get(field) ?? []), { part, text: String(parseValue(value, field, field.name)) }]);
      // A workspace's own field: text from CSV stays text; JSON values stay as they are.
      else body[field.name] = field.type === 'json' ? value : parseValue(value, field, field.name);
    }
    for (const [field, given] of parts) {
      body[field.name] = parseValue(given.sort((one, other) => one.part - other.part).map(({ text }) => text).join(' '), field, field.name);
    }
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const missing = REQUIRED_FIELDS.filter((field) => body[field.name] === undefined).map((field) => field.name);
  if (missing.length > 0) return { problem: `missing ${missing.join(' and ')}` };
  return { body };
}

async function readCsv(text: string, mapping: Map<string, string>, source: string, unescapeFormulas: boolean): Promise<ImportFile> {
  const { parse } = await import('csv-parse/sync');
  // Excel's own first line `sep=;` names the separator (a file made for Excel in many locales); no header.
  const sepLine = /^\uFEFF?sep=([,;\t|])\r?\n/i.exec(text);
  let records: string[][];
  try {
    records = parse(sepLine ? text.slice(sepLine[0].length) : text, { bom: true, relax_column_count: true, relax_quotes: true, delimiter: sepLine?.[1] ?? delimiterOf(text) });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw usageError(`${source}${line ? ` line ${line}` : ''}: not valid CSV: ${(error as Error).message}`);
  }
  const blank = (cells: string[]) => cells.every((cell) => cell.trim() === '');
  const headerAt = records.findIndex((record) => !blank(record));
  if (headerAt < 0) throw usageError(`${source} is empty: a CSV import needs a header row`, 'for example: name,email,company');
  // A header cell is guarded as any (crm's --escape-formulas writes a field's name too).
  const columns = records[headerAt]!.map((column) => (unescapeFormulas ? unescapeFormula(column) : column).trim());
  const { fillers, ignored } = resolveColumns(columns, mapping);
  // A required field no column fills would make every row invalid alike: one line says it instead.
  const missing = REQUIRED_FIELDS.filter((required) => !fillers.some((filler) => filler?.field.name === required.name)).map((field) => field.name);
  if (missing.length > 0) {
    const mapping = missing.map((name) => `--map COLUMN=${name}`).join(' and ');
    throw usageError(`${source}: no column holds a contact's ${missing.join(' or ')}`, `its columns: ${columns.map(safeLine).join(', ')}; name ${missing.length > 1 ? 'them' : 'it'} with ${mapping}`);
  }
  const rows: ImportRow[] = [];
  // A record starts on the line after the records before it: a line each, and one more for each
  // line break inside a quoted value (csv-parse's own byte offsets, its info option, cost a third more).
  let line = sepLine ? 2 : 1;
  for (const [index, cells] of records.entries()) {
    const start = line;
    line += 1 + lineBreaksIn(cells);
    if (index <= headerAt || blank(cells)) continue;
    if (cells.length > columns.length) {
      rows.push({ line: start, cells, problem: `${cells.length} cells, but the header has ${columns.length} columns` });
      continue;
    }
    // The row as read stays in `cells` (what --errors repeats: it reads back with the same flag).
    rows.push({ line: start, cells, ...toBody(fillers, unescapeFormulas ? cells.map(unescapeFormula) : cells) });
  }
  return { rows, columns, ignored, numberedBy: 'line' };
}

function lineBreaksIn(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) count++;
  return count;
}

/** The separator of the header line: comma, semicolon (spreadsheets in many locales) or tab. */
function delimiterOf(text: string): string {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, header.split(delimiter).length - 1] as const);
  const [best, count] = counts.reduce((top, entry) => (entry[1] > top[1] ? entry : top));
  return count > 0 ? best : ',';
}

/** A record of a JSON or NDJSON input: where it starts, its text, and the object or why it is none. */
interface ObjectEntry {
  line: number;
  text: string;
  object?: JsonObject;
  problem?: string;
}

function entryOf(line: number, text: string, value: unknown): ObjectEntry {
  return isObject(value) ? { line, text, object: value } : { line, text, problem: 'not a JSON object' };
}

function ndjsonLines(text: string): ObjectEntry[] {
  const entries: ObjectEntry[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((lineText, index) => {
    if (lineText.trim() === '') return;
    try {
      entries.push(entryOf(index + 1, lineText, JSON.parse(lineText)));
    } catch (error) {
      entries.push({ line: index + 1, text: lineText, problem: `not valid JSON: ${(error as Error).message}` });
    }
  });
  return entries;
}

/** The items of a JSON array (what `-o json` writes), each with the line it starts on, or its place when items share lines. */
function jsonArrayItems(text: string, source: string): { entries: ObjectEntry[]; numberedBy: RowNumbering } {
  const body = text.replace(/^\uFEFF/, '');
  let items: unknown;
  try {
    items = JSON.parse(body);
  } catch (error) {
    throw usageError(`${source}: not valid JSON: ${(error as Error).message}`, 'give a JSON array of contacts, or one JSON object a line (NDJSON)');
  }
  if (!Array.isArray(items)) throw usageError(`${source}: not a JSON array of contacts`, 'give a JSON array of contacts, or one JSON object a line (NDJSON)');
  const lines = itemLines(body);
  const ownLines = lines.every((line, index) => index === 0 || line > lines[index - 1]!);
  const entries = items.map((item, index) => entryOf(ownLines ? lines[index]! : index + 1, JSON.stringify(item), item));
  return { entries, numberedBy: ownLines ? 'line' : 'item' };
}

/** The line each item of a valid JSON array starts on: a value begun at depth 1, outside strings. */
function itemLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectItem = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '\n') line++;
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
      continue;
    }
    if (/\s/.test(char)) continue;
    if (depth === 1 && expectItem && char !== ']') {
      lines.push(line);
      expectItem = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth++;
      if (depth === 1) expectItem = true;
    } else if (char === ']' || char === '}') depth--;
    else if (char === ',' && depth === 1) expectItem = true;
  }
  return lines;
}

function objectRows(entries: readonly ObjectEntry[], mapping: Map<string, string>, numberedBy: RowNumbering): ImportFile {
  const keys = new Set<string>();
  for (const { object } of entries) if (object) for (const key of Object.keys(object)) keys.add(key);
  const columns = [...keys];
  const { fillers, ignored } = resolveColumns(columns, mapping);
  const rows = entries.map(({ line, text: lineText, object, problem }): ImportRow => {
    if (!object) return { line, cells: [lineText], problem };
    const values = columns.map((key) => (Object.hasOwn(object, key) ? object[key] : undefined));
    return { line, cells: [lineText], ...toBody(fillers, values) };
  });
  return { rows, columns: ['json'], ignored, numberedBy };
}
