// The one place where results become text on stdout: commands return a Result (./result.ts), and
// the printer hands it to its format's writer (./output/: table, tsv, json, ndjson, csv, each a
// small module). It also prints what --dry-run would have sent, ids for -q, and the warnings about
// --fields and CSV formulas. Nothing else writes data to stdout.

import { OUTPUT_FORMATS } from '../registry/global.js';
import type { PlannedRequest } from '../transport/recording.js';
import { isObject } from '../registry/values.js';
import { cellText, getPath, safeLine, safeLines, safeText } from './format.js';
import type { IOStreams } from './io.js';
import type { JqFilter } from './jq.js';
import { csvWriter } from './output/csv.js';
import { jqWriter } from './output/jq.js';
import { jsonWriter } from './output/json.js';
import { ndjsonWriter } from './output/ndjson.js';
import { Output, type FormatWriter } from './output/output.js';
import { tableWriter } from './output/table.js';
import { tsvWriter } from './output/tsv.js';
import type { Result } from './result.js';

export const FORMATS = OUTPUT_FORMATS;
export type Format = (typeof FORMATS)[number];

interface PrinterOptions {
  io: IOStreams;
  format: Format;
  fields?: readonly string[];
  quiet: boolean;
  /** csv: prefix ' to cells a spreadsheet would run as formulas. */
  escapeFormulas?: boolean;
  /** --jq: filters what the format (json or ndjson) would print. */
  jq?: JqFilter;
  now?: () => number;
}

const WRITERS: Record<Format, (out: Output, options: { escapeFormulas: boolean }) => FormatWriter> = {
  table: tableWriter,
  tsv: tsvWriter,
  json: jsonWriter,
  ndjson: ndjsonWriter,
  csv: csvWriter,
};

export class Printer {
  readonly format: Format;
  private readonly out: Output;
  private readonly writer: FormatWriter;
  private readonly quiet: boolean;

  constructor(options: PrinterOptions) {
    this.format = options.format;
    this.quiet = options.quiet;
    this.out = new Output(options);
    this.writer = options.jq ? jqWriter(this.out, options.jq, options.format === 'ndjson') : WRITERS[options.format](this.out, { escapeFormulas: Boolean(options.escapeFormulas) });
  }

  async print(result: Result): Promise<void> {
    const { io } = this.out;
    for (const line of result.head ?? []) this.out.write(`${this.out.tty ? safeLine(line) : line}\n`);
    switch (result.kind) {
      case 'list':
        await this.out.batched(result.items, () => (this.quiet ? this.ids(result.items) : this.writer.list(result.items, result.view ?? {}, result.page)));
        if (result.view?.summary && !this.quiet && io.stderrIsTTY) io.stderr.write(`${safeLine(result.view.summary)}\n`);
        break;
      case 'record':
        if (this.quiet) {
          if (result.quietId && !this.printId(result.record, false)) io.stderr.write("crm: warning: the service's answer has no id; -q printed nothing (--json shows it whole)\n");
        } else if (!isObject(result.record)) {
          this.value(result.record);
        } else {
          this.out.note(result.record);
          await this.writer.record(result.record, result.view ?? {});
        }
        break;
      case 'done':
        if (this.quiet) break;
        await this.done(result.message, result.data);
        // For a person watching; a script has the exit code (and --json the data).
        if (io.stderrIsTTY) io.stderr.write(`${safeLine(result.message)}\n`);
        break;
      case 'value':
        this.value(result.value);
        break;
      case 'none':
        break;
    }
    this.out.warnAboutFields();
    this.writer.finish?.();
    if (result.kind === 'list' || result.kind === 'record') for (const notice of result.view?.notices ?? []) io.stderr.write(`${safeLine(notice)}\n`);
  }

  /** --dry-run: the requests a command would send, in order. */
  plan(requests: readonly PlannedRequest[]): void {
    if (this.writer.plan) return this.writer.plan(requests);
    if (requests.length === 0) {
      this.out.io.stderr.write('No requests would be sent.\n');
      return;
    }
    const blocks = requests.map((request) => {
      // An array literal, not push(...): a body's lines (crm api --input) outnumber a call's arguments.
      const body = request.body === null ? [] : ['', ...JSON.stringify(request.body, null, 2).split('\n')];
      const lines = [`${request.method} ${showPlaceholders(request.url)}`, ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`), ...body];
      return lines.map(safeLine).join('\n');
    });
    this.out.write(`${blocks.join('\n\n')}\n`);
  }

  /** What a command did: its data; in the JSON formats, which print JSON whatever was done, its message when it has none (as resultValue says). */
  private async done(message: string, data: Record<string, unknown> | undefined): Promise<void> {
    const shown = data ?? (this.writer.value ? { message } : undefined);
    if (shown) await this.writer.done?.(shown);
  }

  /**
   * A bare value: JSON for structures (and in the JSON formats), else its text. None (a setting not
   * set) is nothing as text, `null` in the JSON formats: what --json prints always parses.
   */
  private value(value: unknown): void {
    if (this.writer.value) return this.writer.value(value ?? null);
    if (value === null || value === undefined) return;
    if (typeof value === 'object') this.out.writeJson(`${JSON.stringify(value)}\n`);
    else this.out.write(`${this.out.tty ? safeLines(String(value)) : String(value)}\n`);
  }

  /** -q: the ids of a list, one a line (a bulk report's failed rows left out). */
  private async ids(items: readonly unknown[] | AsyncIterable<unknown>): Promise<void> {
    let without = 0;
    for await (const item of items) if (!this.printId(item, true)) without++;
    // A workspace whose records spell it otherwise (ID, uuid): a script must not take nothing for no records.
    if (without > 0) this.out.io.stderr.write(`crm: warning: ${without === 1 ? '1 record has' : `${without} records have`} no id; -q printed nothing for ${without === 1 ? 'it' : 'them'} (--json shows ${without === 1 ? 'it' : 'them'} whole)\n`);
  }

  /** Whether the item had an id to print (a failed row of a bulk report is left out on purpose, and counts as printed). */
  private printId(item: unknown, onlyOk: boolean): boolean {
    if (onlyOk && isObject(item) && item.ok === false) return true;
    const id = getPath(item, 'id');
    if (id === undefined || id === null) return false;
    this.out.write(`${safeText(cellText(id))}\n`);
    return true;
  }
}

/** Dry-run placeholders read better unencoded: /contacts/<new contact id>. */
function showPlaceholders(url: string): string {
  return url.replace(/%3C([^%]|%20)*?%3E/gi, (match) => decodeURIComponent(match));
}
