// What every output format shares: stdout (written in a few large writes for a list in memory), JSON
// made safe and coloured for a terminal, the --fields selection and the warning about fields no
// record has, and the columns of a list. Each format (./json.ts, ./table.ts, ...) writes through it.

import { colorJson, escapeForTerminal, getPath, safeLine } from '../format.js';
import type { IOStreams } from '../io.js';
import type { PageInfo, View } from '../result.js';
import { isObject } from '../../registry/values.js';

/** The records of a list: in memory, or arriving (a walk, a watch). */
export type Items = readonly unknown[] | AsyncIterable<unknown>;

/** One format: how it writes a list and a record; the printer's defaults serve what it leaves out. */
export interface FormatWriter {
  list(items: Items, view: View, page?: PageInfo): Promise<void>;
  /** One record (an object). */
  record(value: Record<string, unknown>, view: View): Promise<void>;
  /** The data of a command that did something (delete, logout); formats without it show only the message. */
  done?(data: Record<string, unknown>): Promise<void>;
  /** A bare value (`crm config get`). */
  value?(value: unknown): void;
  /** --dry-run's requests. */
  plan?(requests: readonly unknown[]): void;
  /** After each result: warnings about what was written. */
  finish?(): void;
}

/** How much of an in-memory list is written at once. */
const BATCH_CHARS = 64 * 1024;

interface OutputOptions {
  io: IOStreams;
  fields?: readonly string[];
  now?: () => number;
}

export class Output {
  readonly io: IOStreams;
  readonly fields?: readonly string[];
  readonly now: () => number;
  /** --fields names seen in at least one record, for the warning about the others. */
  private readonly fieldsFound = new Set<string>();
  private readonly keysSeen = new Set<string>();
  private recordsSeen = 0;
  /** Output held back while an in-memory list is written (see batched()). */
  private batch: string[] | undefined;
  private batchLength = 0;

  constructor(options: OutputOptions) {
    this.io = options.io;
    this.fields = options.fields;
    this.now = options.now ?? Date.now;
  }

  get tty(): boolean {
    return Boolean(this.io.stdoutIsTTY);
  }

  write(text: string): void {
    if (!this.batch) return void this.io.stdout.write(text);
    this.batch.push(text);
    this.batchLength += text.length;
    if (this.batchLength >= BATCH_CHARS) this.flush();
  }

  /** What is held back, out now (a table's footer goes under it). */
  flush(): void {
    if (!this.batch || this.batch.length === 0) return;
    this.io.stdout.write(this.batch.join(''));
    this.batch = [];
    this.batchLength = 0;
  }

  /**
   * A list already in memory goes out in a few large writes (each write to a file or pipe is a system
   * call), not one a line. A streamed list is written as it arrives: nothing waits in a buffer.
   */
  async batched(items: Items, write: () => Promise<void>): Promise<void> {
    if (!Array.isArray(items) || this.batch) return write();
    this.batch = [];
    try {
      await write();
    } finally {
      this.flush();
      this.batch = undefined;
      this.batchLength = 0;
    }
  }

  /** JSON text; on a terminal coloured (as gh and jq do), with what may not reach it escaped (the same JSON). */
  writeJson(text: string): void {
    if (!this.tty) return this.write(text);
    const safe = escapeForTerminal(text);
    this.write(this.io.colorStdout ? colorJson(safe) : safe);
  }

  /** Remembers which fields the records have, for the --fields warning. */
  note(item: unknown): void {
    if (!this.fields || !isObject(item)) return;
    this.recordsSeen++;
    if (this.keysSeen.size < 200) for (const key of Object.keys(item)) this.keysSeen.add(key);
    for (const field of this.fields) if (getPath(item, field) !== undefined) this.fieldsFound.add(field);
  }

  warnAboutFields(): void {
    if (!this.fields || this.recordsSeen === 0) return;
    const missing = this.fields.filter((field) => !this.fieldsFound.has(field));
    if (missing.length === 0) return;
    const names = missing.map((field) => `"${safeLine(field)}"`).join(', ');
    const known = [...this.keysSeen].map(safeLine).join(', ');
    this.io.stderr.write(`crm: warning: no record has the field${missing.length > 1 ? 's' : ''} ${names}; fields: ${known}\n`);
  }

  /** The record with only the --fields, in their order (null for one it lacks). */
  pick(value: unknown): unknown {
    if (!this.fields || !isObject(value)) return value;
    return Object.fromEntries(this.fields.map((field) => [field, getPath(value, field) ?? null]));
  }

  /** Columns for tsv and tables: --fields, else the view's that the records have, else their scalar keys. */
  columnsFor(items: readonly unknown[], view: View): readonly string[] {
    if (this.fields) return this.fields;
    const present = (column: string) => items.some((item) => getPath(item, column) !== undefined);
    const wanted = (view.columns ?? []).filter(present);
    if (wanted.length > 0) return wanted;
    const keys = [...new Set(items.flatMap((item) => (isObject(item) ? Object.keys(item) : [])))];
    return keys.filter((key) => items.some((item) => isScalar(getPath(item, key)))).slice(0, 8);
  }
}

export function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}
