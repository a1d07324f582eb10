// The one place where results become text on stdout: table, tsv, json, ndjson or csv.

import { isObject } from '../http/envelope.js';
import { usageError } from './errors.js';
import { cellText, csvCell, formatNumber, getPath, isTimestamp, relativeTime, truncate, tsvCell } from './format.js';
import type { IOStreams } from './io.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string, source: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw usageError(`invalid ${source} "${value}" (expected one of: ${FORMATS.join(', ')})`);
}

export interface View {
  /** Columns for table and tsv when --fields is not given. */
  columns?: readonly string[];
}

export interface PrinterOptions {
  io: IOStreams;
  format: Format;
  fields?: string[];
  quiet: boolean;
  now?: () => number;
}

type Row = Record<string, unknown>;

export class Printer {
  readonly format: Format;
  private readonly io: IOStreams;
  private readonly fields?: string[];
  private readonly quiet: boolean;
  private readonly now: () => number;

  constructor(options: PrinterOptions) {
    this.io = options.io;
    this.format = options.format;
    this.fields = options.fields;
    this.quiet = options.quiet;
    this.now = options.now ?? Date.now;
  }

  get isMachineReadable(): boolean {
    return this.format !== 'table';
  }

  write(text: string): void {
    this.io.stdout.write(text);
  }

  /** One record (get, create, update). With -q, create prints its id; others print nothing. */
  async record(value: unknown, view: View = {}, options: { quietId?: boolean } = {}): Promise<void> {
    if (this.quiet) {
      if (options.quietId) this.printIds([value]);
      return;
    }
    if (!isObject(value)) return this.scalar(value);
    switch (this.format) {
      case 'json':
        return this.write(`${JSON.stringify(this.pick(value), null, 2)}\n`);
      case 'ndjson':
        return this.write(`${JSON.stringify(this.pick(value))}\n`);
      case 'table':
        return this.verticalTable(value);
      default:
        return this.records([value], view);
    }
  }

  /** A whole list at once. */
  async records(items: unknown[], view: View = {}): Promise<void> {
    await this.stream(toAsync(items), view);
  }

  /** A list whose records arrive page by page: ndjson, tsv, csv, json and -q print as they come. */
  async stream(items: AsyncIterable<unknown>, view: View = {}): Promise<void> {
    if (this.quiet) {
      for await (const item of items) this.printIds([item]);
      return;
    }
    switch (this.format) {
      case 'json': {
        let first = true;
        for await (const item of items) {
          const text = JSON.stringify(this.pick(item), null, 2).replace(/\n/g, '\n  ');
          this.write(`${first ? '[\n' : ',\n'}  ${text}`);
          first = false;
        }
        this.write(first ? '[]\n' : '\n]\n');
        return;
      }
      case 'ndjson':
        for await (const item of items) this.write(`${JSON.stringify(this.pick(item))}\n`);
        return;
      case 'tsv':
      case 'csv': {
        let columns: string[] | undefined;
        for await (const item of items) {
          if (!columns) {
            columns = this.format === 'csv' ? this.fields ?? keysOf(item) : this.columnsFor([item], view);
            if (this.format === 'csv') this.write(`${columns.map(csvCell).join(',')}\r\n`);
          }
          const cells = columns.map((column) => getPath(item, column));
          this.write(this.format === 'csv' ? `${cells.map(csvCell).join(',')}\r\n` : `${cells.map(tsvCell).join('\t')}\n`);
        }
        if (!columns && this.format === 'csv' && this.fields) this.write(`${this.fields.map(csvCell).join(',')}\r\n`);
        return;
      }
      case 'table': {
        const all: unknown[] = [];
        for await (const item of items) all.push(item);
        return this.table(all, view);
      }
    }
  }

  /** Rows that the caller has already shaped (summaries, reports), with explicit columns. */
  async rows(rows: Row[], columns: string[]): Promise<void> {
    await this.records(rows, { columns });
  }

  private columnsFor(items: unknown[], view: View): string[] {
    if (this.fields) return this.fields;
    const present = new Set(items.flatMap((item) => (isObject(item) ? Object.keys(item) : [])));
    const wanted = (view.columns ?? []).filter((column) => present.has(column.split('.')[0]!));
    if (wanted.length > 0) return wanted;
    return [...present].filter((key) => items.some((item) => !isObject(getPath(item, key)) && !Array.isArray(getPath(item, key)))).slice(0, 8);
  }

  private pick(value: unknown): unknown {
    if (!this.fields || !isObject(value)) return value;
    return Object.fromEntries(this.fields.map((field) => [field, getPath(value, field) ?? null]));
  }

  private printIds(items: unknown[]): void {
    for (const item of items) {
      const id = getPath(item, 'id');
      if (id !== undefined && id !== null) this.write(`${cellText(id)}\n`);
    }
  }

  private scalar(value: unknown): void {
    if (value === null || value === undefined) return;
    if (this.format === 'json' || this.format === 'ndjson' || typeof value !== 'string') {
      this.write(`${JSON.stringify(value, null, this.format === 'ndjson' ? undefined : 2)}\n`);
    } else {
      this.write(`${value}\n`);
    }
  }

  /** On a terminal: relative times, 12,500 for numbers, one line a cell. Into a pipe: everything as sent. */
  private tableCell(value: unknown): string {
    if (isTimestamp(value) && this.io.stdoutIsTTY) return relativeTime(value, this.now());
    if (typeof value === 'number' && this.io.stdoutIsTTY) return formatNumber(value);
    return cellText(value).replace(this.io.stdoutIsTTY ? /\s+/g : /[\t\r\n]+/g, ' ');
  }

  private async table(items: unknown[], view: View): Promise<void> {
    if (items.length === 0) {
      if (this.io.stderrIsTTY) this.io.stderr.write('No results.\n');
      return;
    }
    const columns = this.columnsFor(items, view);
    const head = columns.map((column) => column.toUpperCase());
    const rows = items.map((item) => columns.map((column) => this.tableCell(getPath(item, column))));
    const widths = this.io.stdoutIsTTY ? fitWidths(columns, head, rows, this.io.stdout.columns ?? 120) : undefined;
    const table = await this.newTable({ head });
    for (const row of rows) table.push(widths ? row.map((cell, index) => truncate(cell, widths[index]!)) : row);
    this.write(`${trimLines(table.toString())}\n`);
  }

  private async verticalTable(record: Record<string, unknown>): Promise<void> {
    const keys = this.fields ?? Object.keys(record);
    const valueWidth = Math.max(20, (this.io.stdout.columns ?? 120) - 30);
    const table = await this.newTable({});
    for (const key of keys) {
      const value = this.tableCell(getPath(record, key));
      table.push([this.style.bold(key), this.io.stdoutIsTTY ? truncate(value, valueWidth) : value]);
    }
    this.write(`${trimLines(table.toString())}\n`);
  }

  private styler?: { bold(text: string): string; head(text: string): string };

  private get style(): { bold(text: string): string; head(text: string): string } {
    return this.styler ?? { bold: (text) => text, head: (text) => text };
  }

  private async newTable(options: { head?: string[] }): Promise<{ push(row: string[]): void; toString(): string }> {
    const { default: Table } = await import('cli-table3');
    // cli-table3 writes ANSI colour codes unless its style colours are emptied; chalk 5 ignores NO_COLOR.
    if (this.io.colorStdout && !this.styler) {
      const { Chalk } = await import('chalk');
      const chalk = new Chalk({ level: 1 });
      this.styler = { bold: (text) => chalk.bold(text), head: (text) => chalk.bold.cyan(text) };
    }
    const head = options.head?.map((text) => this.style.head(text));
    return new Table({
      ...(head ? { head } : {}),
      style: { head: [], border: [], compact: false, 'padding-left': 0, 'padding-right': 0 },
      chars: PLAIN_BORDERS,
    });
  }
}

const PLAIN_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: '  ',
};

/**
 * Column widths that fit the terminal: the widest columns give way first, down to a floor; ids are
 * never cut (a truncated id cannot be pasted into the next command).
 */
export function fitWidths(columns: string[], head: string[], rows: string[][], terminalWidth: number): number[] {
  const widths = columns.map((_, index) => Math.max(head[index]!.length, ...rows.map((row) => row[index]!.length)));
  const uncuttable = columns.map((column) => column === 'id' || column.endsWith('_id'));
  const chrome = (columns.length - 1) * 2; // the gaps between cells
  const floor = 8;
  let excess = widths.reduce((sum, width) => sum + width, 0) + chrome - terminalWidth;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((width, index) => {
      if (!uncuttable[index] && width > floor && (widest < 0 || width > widths[widest]!)) widest = index;
    });
    if (widest < 0) break;
    widths[widest]!--;
    excess--;
  }
  return widths;
}

/** cli-table3 pads the last cell of each line; a terminal does not need the trailing blanks. */
function trimLines(text: string): string {
  return text.replace(/[ ]+$/gm, '');
}

function keysOf(item: unknown): string[] {
  return isObject(item) ? Object.keys(item) : [];
}

async function* toAsync<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}
