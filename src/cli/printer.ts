// The one place where results become text on stdout: table, tsv, json, ndjson or csv. Commands
// return a Result (./result.ts); nothing else writes data to stdout.

import { isObject } from '../registry/values.js';
import { OUTPUT_FORMATS } from '../registry/global.js';
import type { PlannedRequest } from '../transport/recording.js';
import { cellText, colorJson, escapeForTerminal, flatten, formatNumber, getPath, humanize, isTimestamp, relativeTime, safeLine, safeLines, safeText, tsvCell } from './format.js';
import { displayWidth, pad, truncate } from './width.js';
import type { IOStreams } from './io.js';
import type { PageInfo, Result, View } from './result.js';

export const FORMATS = OUTPUT_FORMATS;
export type Format = (typeof FORMATS)[number];

interface PrinterOptions {
  io: IOStreams;
  format: Format;
  fields?: readonly string[];
  quiet: boolean;
  /** csv: prefix ' to cells a spreadsheet would run as formulas. */
  escapeFormulas?: boolean;
  now?: () => number;
}

type Row = Record<string, unknown>;
type Table = { push(row: unknown[]): void; toString(): string };

const GAP = 2;
/** How much of an in-memory list is written at once. */
const BATCH_CHARS = 64 * 1024;

export class Printer {
  readonly format: Format;
  private readonly io: IOStreams;
  private readonly fields?: readonly string[];
  private readonly quiet: boolean;
  private readonly escapeFormulas: boolean;
  /** csv cells a spreadsheet would run as formulas, left as they are (the warning counts them). */
  private formulaCells = 0;
  private readonly now: () => number;
  /** --fields names seen in at least one record, for the warning about the others. */
  private readonly fieldsFound = new Set<string>();
  private readonly keysSeen = new Set<string>();
  private recordsSeen = 0;
  /** Output held back while an in-memory list is written (see list()). */
  private batch: string[] | undefined;
  private batchLength = 0;

  constructor(options: PrinterOptions) {
    this.io = options.io;
    this.format = options.format;
    this.fields = options.fields;
    this.quiet = options.quiet;
    this.escapeFormulas = Boolean(options.escapeFormulas);
    this.now = options.now ?? Date.now;
  }

  async print(result: Result): Promise<void> {
    switch (result.kind) {
      case 'list':
        await this.list(result.items, result.view ?? {}, result.page);
        if (result.view?.summary && !this.quiet && this.io.stderrIsTTY) this.io.stderr.write(`${safeLine(result.view.summary)}\n`);
        break;
      case 'record':
        await this.record(result.record, result.view ?? {}, Boolean(result.quietId));
        break;
      case 'done':
        await this.done(result.message, result.data);
        break;
      case 'value':
        this.value(result.value);
        break;
      case 'none':
        break;
    }
    this.warnAboutFields();
    this.warnAboutFormulas();
  }

  /** --dry-run: the requests a command would send, in order. */
  plan(requests: readonly PlannedRequest[]): void {
    if (this.format === 'json') return this.writeJson(`${JSON.stringify(requests, null, 2)}\n`);
    if (this.format === 'ndjson') return this.writeJson(requests.map((request) => `${JSON.stringify(request)}\n`).join(''));
    if (requests.length === 0) {
      this.io.stderr.write('No requests would be sent.\n');
      return;
    }
    const blocks = requests.map((request) => {
      const lines = [`${request.method} ${showPlaceholders(request.url)}`, ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`)];
      if (request.body !== null) lines.push('', ...JSON.stringify(request.body, null, 2).split('\n'));
      return lines.map(safeLine).join('\n');
    });
    this.write(`${blocks.join('\n\n')}\n`);
  }

  private write(text: string): void {
    if (!this.batch) return void this.io.stdout.write(text);
    this.batch.push(text);
    this.batchLength += text.length;
    if (this.batchLength >= BATCH_CHARS) this.flush();
  }

  private flush(): void {
    if (!this.batch || this.batch.length === 0) return;
    this.io.stdout.write(this.batch.join(''));
    this.batch = [];
    this.batchLength = 0;
  }

  /** JSON text; on a terminal coloured (as gh and jq do), with what may not reach it escaped (the same JSON). */
  private writeJson(text: string): void {
    if (!this.io.stdoutIsTTY) return this.write(text);
    const safe = escapeForTerminal(text);
    this.write(this.io.colorStdout ? colorJson(safe) : safe);
  }

  /**
   * A list already in memory goes out in a few large writes (each write to a file or pipe is a system
   * call), not one a line. A streamed list is written as it arrives: nothing waits in a buffer.
   */
  private async list(items: readonly unknown[] | AsyncIterable<unknown>, view: View, page?: PageInfo): Promise<void> {
    if (!Array.isArray(items) || this.batch) return this.listItems(items, view, page);
    this.batch = [];
    try {
      await this.listItems(items, view, page);
    } finally {
      this.flush();
      this.batch = undefined;
      this.batchLength = 0;
    }
  }

  private async listItems(items: readonly unknown[] | AsyncIterable<unknown>, view: View, page?: PageInfo): Promise<void> {
    if (this.quiet) {
      for await (const item of items) this.printId(item, true);
      return;
    }
    switch (this.format) {
      case 'json': {
        let first = true;
        for await (const item of items) {
          this.note(item);
          this.writeJson(`${first ? '[\n' : ',\n'}  ${JSON.stringify(this.pick(item), null, 2).replace(/\n/g, '\n  ')}`);
          first = false;
        }
        this.writeJson(first ? '[]\n' : '\n]\n');
        break;
      }
      case 'ndjson':
        for await (const item of items) {
          this.note(item);
          this.writeJson(`${JSON.stringify(this.pick(item))}\n`);
        }
        break;
      case 'csv': {
        // One stringifier for the whole list (it writes each row as it is given one): a stringifier
        // per row made a long export's memory grow with its length.
        const { stringify } = await import('csv-stringify');
        const csv = stringify(CSV_OPTIONS);
        // On a terminal each cell is made safe (line breaks stay: they are quoted); into a pipe it stays exact.
        const shown = this.io.stdoutIsTTY ? safeLines : (text: string) => text;
        csv.on('data', (chunk: Buffer | string) => this.write(String(chunk)));
        const ended = new Promise((resolve, reject) => csv.on('end', resolve).on('error', reject));
        let columns: readonly string[] | undefined = this.fields;
        if (columns) csv.write(columns.map(shown));
        for await (const item of items) {
          this.note(item);
          if (!columns) {
            columns = isObject(item) ? Object.keys(item) : ['value'];
            csv.write(columns.map(shown));
          }
          csv.write(columns.map((column) => shown(this.csvCell(isObject(item) ? getPath(item, column) : item))));
        }
        csv.end();
        await ended;
        break;
      }
      case 'tsv': {
        let columns: readonly string[] | undefined;
        for await (const item of items) {
          this.note(item);
          // The view's columns whatever the first record holds: a report's columns must not depend on which id came first.
          columns ??= this.fields ?? (view.columns?.length ? view.columns : this.columnsFor([item], view));
          this.write(`${(isObject(item) ? columns.map((column) => this.tsv(getPath(item, column))) : [this.tsv(item)]).join('\t')}\n`);
        }
        break;
      }
      case 'table': {
        if (view.stream) {
          await this.streamTable(items, view);
          break;
        }
        const all: unknown[] = [];
        for await (const item of items) {
          this.note(item);
          all.push(item);
        }
        await this.table(all, view);
        // Under the table: what is held back for stdout goes first.
        this.flush();
        this.footer(all.length, view, page);
        break;
      }
    }
  }

  private async record(value: unknown, view: View, quietId: boolean): Promise<void> {
    if (this.quiet) {
      if (quietId) this.printId(value, false);
      return;
    }
    if (!isObject(value)) return this.value(value);
    this.note(value);
    switch (this.format) {
      case 'json':
        return this.writeJson(`${JSON.stringify(this.pick(value), null, 2)}\n`);
      case 'ndjson':
        return this.writeJson(`${JSON.stringify(this.pick(value))}\n`);
      case 'csv':
        return this.list([value], view);
      case 'tsv': {
        const pairs: Array<[string, unknown]> = this.fields ? this.fields.map((field) => [field, getPath(value, field)]) : flatten(value);
        return this.write(pairs.map(([key, cell]) => `${this.tsv(key)}\t${this.tsv(cell)}\n`).join(''));
      }
      case 'table':
        return this.verticalTable(value, view);
    }
  }

  private async done(message: string, data?: Record<string, unknown>): Promise<void> {
    if (this.quiet) return;
    if (data && (this.format === 'json' || this.format === 'ndjson')) this.writeJson(`${JSON.stringify(this.pick(data), null, this.format === 'json' ? 2 : undefined)}\n`);
    else if (data && this.format === 'csv') await this.list([data], {});
    // For a person watching; a script has the exit code (and --json the data).
    if (this.io.stderrIsTTY) this.io.stderr.write(`${safeLine(message)}\n`);
  }

  private value(value: unknown): void {
    if (value === null || value === undefined) return;
    if (this.format === 'json' || this.format === 'ndjson' || typeof value === 'object') {
      this.writeJson(`${JSON.stringify(value, null, this.format === 'json' ? 2 : undefined)}\n`);
    } else {
      this.write(`${this.io.stdoutIsTTY ? safeLines(String(value)) : String(value)}\n`);
    }
  }

  /**
   * A csv cell. Text that begins with = + - @, a tab or CR is a formula to a spreadsheet (OWASP's
   * "CSV injection"): kept exact, since exports are imported again, unless --escape-formulas asks for
   * the usual guard, a leading '. Numbers stay numbers.
   */
  private csvCell(value: unknown): string {
    const text = cellText(value);
    if (typeof value !== 'string' || !FORMULA_START.test(text)) return text;
    if (this.escapeFormulas) return `'${text}`;
    this.formulaCells++;
    return text;
  }

  private warnAboutFormulas(): void {
    if (this.formulaCells === 0) return;
    const cells = this.formulaCells === 1 ? '1 cell begins' : `${this.formulaCells} cells begin`;
    this.io.stderr.write(`crm: warning: ${cells} with = + - @ (or a tab or CR): a spreadsheet opening this CSV may run ${this.formulaCells === 1 ? 'it' : 'them'} as formulas; --escape-formulas prefixes such cells with '\n`);
    this.formulaCells = 0;
  }

  /** A tsv cell; on a terminal also without bidi and invisible characters. */
  private tsv(value: unknown): string {
    return this.io.stdoutIsTTY ? safeText(tsvCell(value)) : tsvCell(value);
  }

  /** Remembers which fields the records have, for the --fields warning. */
  private note(item: unknown): void {
    if (!this.fields || !isObject(item)) return;
    this.recordsSeen++;
    if (this.keysSeen.size < 200) for (const key of Object.keys(item)) this.keysSeen.add(key);
    for (const field of this.fields) if (getPath(item, field) !== undefined) this.fieldsFound.add(field);
  }

  private warnAboutFields(): void {
    if (!this.fields || this.recordsSeen === 0) return;
    const missing = this.fields.filter((field) => !this.fieldsFound.has(field));
    if (missing.length === 0) return;
    const names = missing.map((field) => `"${safeLine(field)}"`).join(', ');
    const known = [...this.keysSeen].map(safeLine).join(', ');
    this.io.stderr.write(`crm: warning: no record has the field${missing.length > 1 ? 's' : ''} ${names}; fields: ${known}\n`);
  }

  private printId(item: unknown, onlyOk: boolean): void {
    if (onlyOk && isObject(item) && item.ok === false) return;
    const id = getPath(item, 'id');
    if (id !== undefined && id !== null) this.write(`${safeText(cellText(id))}\n`);
  }

  private pick(value: unknown): unknown {
    if (!this.fields || !isObject(value)) return value;
    return Object.fromEntries(this.fields.map((field) => [field, getPath(value, field) ?? null]));
  }

  /** Columns for tsv and tables: --fields, else the view's that the records have, else their scalar keys. */
  private columnsFor(items: readonly unknown[], view: View): readonly string[] {
    if (this.fields) return this.fields;
    const present = (column: string) => items.some((item) => getPath(item, column) !== undefined);
    const wanted = (view.columns ?? []).filter(present);
    if (wanted.length > 0) return wanted;
    const keys = [...new Set(items.flatMap((item) => (isObject(item) ? Object.keys(item) : [])))];
    return keys.filter((key) => items.some((item) => isScalar(getPath(item, key)))).slice(0, 8);
  }

  /** On a terminal: relative times, 12,500 for numbers, one line a cell. Into a pipe: everything as sent. */
  private cell(value: unknown, column: string): string {
    const tty = this.io.stdoutIsTTY;
    if (isTimestamp(value) && tty) return relativeTime(value, this.now());
    if (typeof value === 'number' && tty) return formatNumber(value, column);
    return safeText(cellText(value).replace(tty ? /\s+/g : /[\t\r\n]+/g, ' '));
  }

  private async table(items: unknown[], view: View): Promise<void> {
    if (items.length === 0) return;
    if (view.title) this.write(`${safeLine(view.title)}\n`);
    if (view.groupBy) {
      const groups = new Map<string, unknown[]>();
      for (const item of items) {
        const key = cellText(getPath(item, view.groupBy));
        groups.set(key, [...(groups.get(key) ?? []), item]);
      }
      const columns = (view.columns ?? []).filter((column) => column !== view.groupBy);
      let first = true;
      for (const [name, members] of groups) {
        this.write(`${first ? '' : '\n'}${safeLine(plural(name).toUpperCase())} (${members.length})\n`);
        await this.grid(members, { ...view, columns });
        first = false;
      }
    } else {
      await this.grid(items, view);
    }
    for (const note of view.notes ?? []) this.write(`${safeLine(note)}\n`);
  }

  private async grid(items: unknown[], view: View): Promise<void> {
    let columns = [...this.columnsFor(items, view)];
    let cells = items.map((item) => columns.map((column) => this.cell(getPath(item, column), column)));
    const chart = view.chart && (this.io.stdoutIsTTY || this.io.colorStdout) ? bars(items.map((item) => Number(getPath(item, view.chart!)) || 0)) : undefined;
    if (chart) {
      columns = [...columns, 'chart'];
      cells = cells.map((row, index) => [...row, chart[index]!]);
    }
    const numeric = columns.map((column) => column !== 'chart' && items.some((item) => typeof getPath(item, column) === 'number'));
    const head = columns.map((column) => safeText(column.toUpperCase()));
    let keep = columns.map((_, index) => index);
    let widths = columns.map((_, index) => Math.max(displayWidth(head[index]!), ...cells.map((row) => displayWidth(row[index]!))));
    if (this.io.stdoutIsTTY && !this.fields) {
      const fitted = fitColumns(columns, widths, numeric, this.io.stdout.columns ?? 80);
      keep = fitted.keep;
      widths = fitted.widths;
    }
    const table = await this.newTable(
      keep.map((index) => head[index]!),
      keep.map((index) => (numeric[index] ? 'right' : 'left')),
    );
    for (const row of cells) table.push(keep.map((index, at) => truncate(row[index]!, widths[at]!)));
    this.write(`${trimLines(table.toString())}\n`);
  }

  /** One line a record, as it arrives; header and widths from the first record and the terminal. */
  private async streamTable(items: AsyncIterable<unknown> | readonly unknown[], view: View): Promise<void> {
    let layout: StreamLayout | undefined;
    for await (const item of items) {
      this.note(item);
      if (!layout) {
        const columns = this.columnsFor([item], view);
        const numeric = columns.map((column) => typeof getPath(item, column) === 'number');
        // Text gets room to spare (ids, numbers and empty cells do not): later records are cut to
        // these widths, never re-flowed.
        const natural = columns.map((column, index) => {
          const width = displayWidth(this.cell(getPath(item, column), column));
          const exact = numeric[index] || width === 0 || column === 'id' || column.endsWith('_id');
          return Math.max(displayWidth(safeText(column)), width, exact ? 0 : width > CUTTABLE_OVER ? STREAM_TEXT_WIDTH : CUTTABLE_OVER);
        });
        const { keep, widths } = this.io.stdoutIsTTY && !this.fields ? fitColumns(columns, natural, numeric, this.io.stdout.columns ?? 80) : { keep: columns.map((_, index) => index), widths: natural };
        layout = { columns: keep.map((index) => columns[index]!), widths, numeric: keep.map((index) => numeric[index]!) };
        await this.loadStyle();
        this.write(`${this.style.head(streamLine(layout.columns.map((column) => safeText(column.toUpperCase())), layout))}\n`);
      }
      this.write(`${streamLine(layout.columns.map((column) => this.cell(getPath(item, column), column)), layout)}\n`);
    }
  }

  private async verticalTable(record: Row, view: View): Promise<void> {
    if (view.title) this.write(`${safeLine(view.title)}\n`);
    const keys = this.fields ?? view.keys ?? Object.keys(record);
    const width = this.io.stdoutIsTTY ? (this.io.stdout.columns ?? 80) : Infinity;
    const scalars = keys.filter((key) => !isObject(getPath(record, key)) && !isObjectList(getPath(record, key)));
    const nested = this.fields ? [] : keys.filter((key) => !scalars.includes(key));
    const pairs = (entries: Array<[string, unknown]>, indent: string) => {
      const keyWidth = Math.max(0, ...entries.map(([key]) => displayWidth(safeText(key))));
      return entries.map(([key, value]) => {
        const text = Array.isArray(value) && value.every(isScalar) ? value.map(cellText).join(', ') : this.cell(value, key);
        return `${indent}${this.style.bold(pad(safeText(key), keyWidth))}  ${truncate(text, width - indent.length - keyWidth - GAP)}`.trimEnd();
      });
    };
    const lines = pairs(scalars.map((key) => [key, getPath(record, key)]), '');
    for (const key of nested) {
      const value = getPath(record, key);
      lines.push('', this.style.bold(safeText(humanize(key))));
      if (isObject(value)) {
        lines.push(...pairs(flatten(value), '  '));
      } else if (Array.isArray(value) && value.length > 0) {
        const rows = value.filter(isObject);
        const columns = [...new Set(rows.flatMap((row) => Object.keys(row).filter((name) => isScalar(row[name]))))];
        const table = await this.newTable(columns.map((column) => safeText(column.toUpperCase())), []);
        for (const row of rows) table.push(columns.map((column) => truncate(this.cell(row[column], column), Math.max(10, Math.floor(width / columns.length)))));
        lines.push(...trimLines(table.toString()).split('\n').map((line) => `  ${line}`));
      } else {
        lines.push('  (none)');
      }
    }
    this.write(`${lines.join('\n')}\n`);
    for (const note of view.notes ?? []) this.write(`${safeLine(note)}\n`);
  }

  /** Under a table, on stderr: where this page sits in the list, and how to get more. */
  private footer(count: number, view: View, page?: PageInfo): void {
    if (!this.io.stderrIsTTY) return;
    const noun = view.noun ?? 'records';
    if (!page) {
      if (count === 0) this.io.stderr.write(`No ${noun}.\n`);
      return;
    }
    const { offset, total } = page;
    if (count === 0) {
      this.io.stderr.write(offset > 0 ? `No ${noun} at offset ${offset}${total !== undefined ? ` (${total} in all)` : ''}.\n` : `No ${noun}.\n`);
      return;
    }
    const last = offset + count;
    const more = total !== undefined ? last < total : page.full;
    const range = `Showing ${offset + 1}-${last}${total !== undefined ? ` of ${total}` : ''} ${noun}`;
    this.io.stderr.write(more ? `${range}; more with --offset ${last}, or --all.\n` : `${range}.\n`);
  }

  private styler?: { bold(text: string): string; head(text: string): string };

  private get style(): { bold(text: string): string; head(text: string): string } {
    return this.styler ?? { bold: (text) => text, head: (text) => text };
  }

  /** chalk, only when stdout takes colour (chalk 5 ignores NO_COLOR). */
  private async loadStyle(): Promise<void> {
    if (!this.io.colorStdout || this.styler) return;
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    this.styler = { bold: (text) => chalk.bold(text), head: (text) => chalk.bold.cyan(text) };
  }

  private async newTable(head: string[], aligns: Array<'left' | 'right'>): Promise<Table> {
    const { default: CliTable } = await import('cli-table3');
    // cli-table3 writes ANSI colour codes unless its style colours are emptied.
    await this.loadStyle();
    return new CliTable({
      ...(head.length ? { head: head.map((text) => this.style.head(text)) } : {}),
      colAligns: aligns,
      style: { head: [], border: [], compact: false, 'padding-left': 0, 'padding-right': 0 },
      chars: PLAIN_BORDERS,
    }) as unknown as Table;
  }
}

interface StreamLayout {
  columns: readonly string[];
  widths: number[];
  numeric: boolean[];
}

/** Cells padded to the layout's widths (numbers to the right), two spaces apart. */
function streamLine(cells: readonly string[], layout: StreamLayout): string {
  return cells
    .map((cell, index) => {
      return pad(truncate(cell, layout.widths[index]!), layout.widths[index]!, layout.numeric[index]);
    })
    .join(' '.repeat(GAP))
    .trimEnd();
}

const PLAIN_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: ' '.repeat(GAP),
};

/** The width a long text column of a streamed table starts from, before it is fitted to the terminal. */
const STREAM_TEXT_WIDTH = 24;

/** Text longer than this may be cut; shorter values (a status, a date) never are. */
const CUTTABLE_OVER = 12;
/** Cut text keeps half its width up to this much: an email cut to a dozen characters says little. */
const USEFUL_WIDTH = 30;

/**
 * Columns that fit the terminal. Columns come in priority order: the last ones are dropped first
 * while even their cut-down widths do not fit; then long text is cut, the widest first. Ids,
 * numbers and short values are never cut (a truncated id cannot be pasted into the next command),
 * and an email address is cut only when every column after it is gone: lower-priority columns
 * (company, score) give way to it whole.
 */
export function fitColumns(columns: readonly string[], natural: readonly number[], numeric: readonly boolean[], terminalWidth: number): { keep: number[]; widths: number[] } {
  const cuttable = columns.map((column, index) => !numeric[index] && column !== 'id' && !column.endsWith('_id') && natural[index]! > CUTTABLE_OVER);
  const floor = (index: number) => (cuttable[index] ? Math.max(CUTTABLE_OVER, displayWidth(columns[index]!), Math.min(Math.ceil(natural[index]! / 2), USEFUL_WIDTH)) : natural[index]!);
  const email = columns.indexOf('email');
  const whole = (index: number) => (index === email ? natural[index]! : floor(index));
  const keep = columns.map((_, index) => index);
  const span = (widths: number[]) => widths.reduce((sum, width) => sum + width, 0) + GAP * (widths.length - 1);
  while (keep.length > 1 && keep.at(-1)! > email && email >= 0 && span(keep.map(whole)) > terminalWidth) keep.pop();
  while (keep.length > 1 && span(keep.map(floor)) > terminalWidth) keep.pop();
  const widths = keep.map((index) => natural[index]!);
  let excess = span(widths) - terminalWidth;
  // The email last: cut only what the other columns cannot give.
  for (const lastResort of [false, true]) {
    while (excess > 0) {
      let widest = -1;
      keep.forEach((index, at) => {
        if (cuttable[index] && (index === email) === lastResort && widths[at]! > floor(index) && (widest < 0 || widths[at]! > widths[widest]!)) widest = at;
      });
      if (widest < 0) break;
      widths[widest]!--;
      excess--;
    }
  }
  return { keep, widths };
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

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

function isObjectList(value: unknown): boolean {
  return Array.isArray(value) && value.some(isObject);
}

/** search's `contact` groups as CONTACTS. */
function plural(word: string): string {
  return word.endsWith('s') ? word : `${word}s`;
}

/** Dry-run placeholders read better unencoded: /contacts/<new contact id>. */
function showPlaceholders(url: string): string {
  return url.replace(/%3C([^%]|%20)*?%3E/gi, (match) => decodeURIComponent(match));
}

/** cli-table3 pads the last cell of each line; a terminal does not need the trailing blanks. */
function trimLines(text: string): string {
  return text.replace(/[ ]+$/gm, '');
}

/** The first characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180: CRLF between records; a field holding a line break is quoted too. For every CSV crm writes. */
export const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;
