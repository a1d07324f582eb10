// What a command returns: data, plus hints for the human view. The printer (./printer.ts) renders
// a result as table, tsv, json, ndjson or csv; MCP tools return the same data as JSON and `watch`
// streams it. No command renders for itself.

import type { Walk } from '../http/paginate.js';
import type { CliError } from './errors.js';

export interface View {
  /** Table columns in priority order: the last ones give way first on a narrow terminal. */
  columns?: readonly string[];
  /** One record under a table: the fields shown (default: every field). */
  keys?: readonly string[];
  /** Every field a record of the list may have, in order: what a CSV's header names when there is no record. */
  fields?: readonly string[];
  /** Tables: one titled block per value of this field (search results by type). */
  groupBy?: string;
  /** Tables: a bar chart of this numeric field in an extra column. */
  chart?: string;
  /** Tables: a line above the data. */
  title?: string;
  /** Tables: lines below the data (totals, what a move logged, why a score). */
  notes?: readonly string[];
  /** What the records are called in messages: "contacts". */
  noun?: string;
  /** A line for people on stderr after the data (a bulk command's counts). */
  summary?: string;
  /** Lines on stderr after the data, in every format: how the data was found (crm status: what crm filtered itself). */
  notices?: readonly string[];
  /**
   * Records that match but were left out by the limit, in a list with no next page (crm sorted it
   * itself): an agent's has_more is true, and it is told to ask for more at once.
   */
  leftOut?: number;
  /**
   * crm keeps only some of the records the service lists (a filter the service does not have: tasks
   * due): the service's total counts the others too, so an agent's list says no total.
   */
  filteredByCrm?: boolean;
  /** Tables, one record: its members as titled blocks (crm status, a record's view) instead of key/value lines. */
  sections?: readonly Section[];
  /**
   * Tables: the records keep coming (crm watch), so each is printed as one line when it arrives,
   * under a header written with the first; column widths are fixed by that first record.
   */
  stream?: boolean;
}

/** One titled block of a record under a table. */
export interface Section {
  title: string;
  /** The record's member it shows (a dotted path): records as a table, or one record as key/value lines. */
  path: string;
  /** Table columns in priority order; for one record, the keys shown (default: its scalar fields). */
  columns?: readonly string[];
  /** Lines under it: how many more, what was read. */
  notes?: readonly string[];
  /** What it says when the member is empty or absent. */
  empty?: string;
}

/** Where a page sits in the whole list: for the footer people see under a table. */
export interface PageInfo {
  offset: number;
  total?: number;
  /** The page ended because of the page size, not the end of the list. */
  full: boolean;
  /** Rows the service sent (a record it repeated counts each time; printed once): where the next page starts. */
  rows?: number;
}

/** One item of a bulk command: what happened to it. */
export interface ReportRow {
  id: string;
  /** Succeeded (completed, enrolled, created...) or not (failed, not_found, invalid...). */
  ok: boolean;
  /** One word: completed, accepted, enrolled, already_enrolled, not_found, failed, ... */
  result: string;
  error?: string | null;
  record?: unknown;
}

export type Result = (
  /**
   * Records: a page, a walk streamed as it arrives, or the rows of a bulk command's report. `walk`:
   * the walk behind the items, which says where it stands once they are read (an MCP cursor).
   */
  | { kind: 'list'; items: readonly unknown[] | AsyncIterable<unknown>; view?: View; page?: PageInfo; walk?: Walk }
  /**
   * One record. `quietId`: -q prints its id (create). `afterPrint`: work that goes on once the
   * record is out (a server announces its address, then serves until stopped). `outcome`: what an
   * action did to the record, in one word as a bulk report says it (moved, already_in_stage).
   */
  | { kind: 'record'; record: unknown; view?: View; quietId?: boolean; afterPrint?: () => Promise<CliError | undefined>; outcome?: string }
  /** Something done that has no data worth a table (delete, logout): a line on a terminal's stderr, data for JSON. */
  | { kind: 'done'; message: string; data?: Record<string, unknown> }
  /** A bare value, printed as it is (`crm config get`); JSON with --json. */
  | { kind: 'value'; value: unknown }
  /** Nothing to print. */
  | { kind: 'none' }
) & {
  /** The command failed after producing this (a partial bulk run): printed first, then reported. */
  failure?: CliError;
  /** Lines on stdout before the data, in every format, --jq included (crm api -i: the status line and headers). */
  head?: readonly string[];
};

export const list = (items: readonly unknown[] | AsyncIterable<unknown>, view?: View, page?: PageInfo, walk?: Walk): Result => ({ kind: 'list', items, view, page, walk });
export const record = (value: unknown, view?: View): Extract<Result, { kind: 'record' }> => ({ kind: 'record', record: value, view });
export const done = (message: string, data?: Record<string, unknown>): Result => ({ kind: 'done', message, data });
export const NOTHING: Result = { kind: 'none' };

/**
 * A list's items in an array, without the printer, each as `map` makes it: at most `max` of them
 * and, past the first, no more than `maxChars` of JSON. `cut`: items were left out; a stream is not
 * read past the first one.
 */
export async function collectItems(
  items: readonly unknown[] | AsyncIterable<unknown>,
  { max = Number.POSITIVE_INFINITY, maxChars = Number.POSITIVE_INFINITY, map = (item: unknown) => item }: { max?: number; maxChars?: number; map?: (item: unknown) => unknown } = {},
): Promise<{ items: unknown[]; cut: boolean }> {
  const kept: unknown[] = [];
  let chars = 0;
  for await (const item of items) {
    const mapped = map(item);
    const size = JSON.stringify(mapped)?.length ?? 0;
    if (kept.length >= max || (kept.length > 0 && chars + size > maxChars)) return { items: kept, cut: true };
    kept.push(mapped);
    chars += size;
  }
  return { items: kept, cut: false };
}

/** The data of a result that is not a list, as `--json` prints it (a done command without data: its message). */
export function resultValue(result: Exclude<Result, { kind: 'list' }>): unknown {
  switch (result.kind) {
    case 'record':
      return result.record;
    case 'done':
      return result.data ?? { message: result.message };
    case 'value':
      return result.value;
    case 'none':
      return null;
  }
}
