// What the three table renderers (./table.ts lists, ./table-stream.ts a watch, ./table-record.ts one
// record) share: cells for people, columns fitted to the terminal's width in display columns
// (string-width), and chalk, loaded only when a table is drawn.

import { DATE_FIELDS } from '../../registry/resources.js';
import { timestampText } from '../../registry/values.js';
import { cellText, formatNumber, isTimestamp, relativeTime, safeText } from '../format.js';
import { displayWidth, pad } from '../width.js';
import type { Output } from './output.js';

/** Spaces between columns. */
export const GAP = 2;

interface Style {
  bold(text: string): string;
  head(text: string): string;
}

const PLAIN: Style = { bold: (text) => text, head: (text) => text };
/** Columns that hold an id (`id`, `account_id`, `extra.id`): a number there is shown as sent. */
const ID_COLUMN = /(^|[._])id$/;

export class TableKit {
  private styler?: Style;

  constructor(private readonly out: Output) {}

  /** Bold and heading styles once loadStyle() ran on a stdout that takes colour; plain otherwise. */
  get style(): Style {
    return this.styler ?? PLAIN;
  }

  /** chalk, only when stdout takes colour (chalk 5 ignores NO_COLOR). */
  async loadStyle(): Promise<void> {
    if (!this.out.io.colorStdout || this.styler) return;
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    this.styler = { bold: (text) => chalk.bold(text), head: (text) => chalk.bold.cyan(text) };
  }

  /**
   * Rows under a header as lines of text: each cell padded to its column's width (the widest cell's,
   * or WIDTHS), GAP spaces between columns, no borders, no trailing blanks. Drawn here rather than
   * by a table library: a list (--all) may hold hundreds of thousands of rows, which cli-table3
   * spread into one call (a stack overflow past about 120,000) and laid out at 0.25 ms a row.
   */
  async render(head: readonly string[], aligns: ReadonlyArray<'left' | 'right'>, rows: readonly string[][], widths?: readonly number[]): Promise<string> {
    await this.loadStyle();
    const columns = widths ?? head.map((text, index) => rows.reduce((widest, row) => Math.max(widest, displayWidth(row[index] ?? '')), displayWidth(text)));
    // The last cell is padded too, then the blanks cut: a terminal does not need them.
    const line = (cells: readonly string[]) => cells.map((cell, index) => pad(cell, columns[index]!, aligns[index] === 'right')).join(' '.repeat(GAP)).replace(/ +$/, '');
    const lines = head.length > 0 ? [line(head.map((text) => this.style.head(text)))] : [];
    for (const row of rows) lines.push(line(row));
    return lines.join('\n');
  }

  /**
   * On a terminal: relative times, 12,500 for numbers, one line a cell. Into a pipe: everything as
   * sent. An id that is a number (`id`, `account_id`) stays as sent: it is a name to copy, not a count.
   */
  cell(value: unknown, column: string): string {
    const tty = this.out.tty;
    if (isTimestamp(value) && tty) return relativeTime(value, this.out.now());
    // A timestamp or a date sent as an epoch number (timestampText's rule) is a time too, not a count.
    if (typeof value === 'number' && tty && (column.endsWith('_at') || DATE_FIELDS.has(column))) return relativeTime(timestampText(value) ?? String(value), this.out.now());
    if (typeof value === 'number' && tty && !ID_COLUMN.test(column)) return formatNumber(value, column);
    return safeText(cellText(value).replace(tty ? /\s+/g : /[\t\r\n]+/g, ' '));
  }

  /** Fitting applies on a terminal when --fields did not choose the columns. */
  get fits(): boolean {
    return this.out.tty && !this.out.fields;
  }

  /** 80 when the terminal says none, or 0 (a pty nobody sized: `script` from a pipe, some CI runners), as help does. */
  get width(): number {
    return this.out.io.stdout.columns || 80;
  }
}


/** Text longer than this may be cut; shorter values (a status, a date) never are. */
export const CUTTABLE_OVER = 12;
/** Cut text keeps half its width up to this much: an email cut to a dozen characters says little. */
const USEFUL_WIDTH = 30;

/**
 * Columns that fit the terminal. Columns come in priority order: the last ones are dropped first
 * while even their cut-down widths do not fit; then long text is cut, the widest first. Ids,
 * numbers, times (`*_at`: "11 minutes …" says nothing) and short values are never cut (a truncated
 * id cannot be pasted into the next command), and an email address is cut only when every column
 * after it is gone: lower-priority columns (company, score) give way to it whole.
 */
export function fitColumns(columns: readonly string[], natural: readonly number[], numeric: readonly boolean[], terminalWidth: number): { keep: number[]; widths: number[] } {
  const neverCut = (column: string) => column === 'id' || column.endsWith('_id') || column.endsWith('_at');
  const cuttable = columns.map((column, index) => !numeric[index] && !neverCut(column) && natural[index]! > CUTTABLE_OVER);
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
