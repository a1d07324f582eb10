// A sync: each table's list walked (src/http/paginate.ts, several pages in flight) into a staging
// table of this connection, then applied to the replica in one transaction, which also writes the
// change log. So a sync commits per table: interrupted (Ctrl-C, a failure, a killed process) it leaves
// every table it had not finished as the previous sync left it, and the next sync finds all that
// changed since then, nothing lost.
//
// - The first sync of a table takes every record (no events: it is the baseline).
// - A full sync reads the whole list again, from its head: new records come first, then every other
//   (the spec orders lists by creation only, so an update or a deletion can be anywhere). A record
//   not in the walk was deleted: a walk gives every record that exists for all of it.
// - `--new` reads from the head until a run of records it holds, matched by id and creation time
//   (src/http/head.ts, as crm watch reads): the cheap frequent sync. It sees no update and no
//   deletion, but a record given a deleted record's id is found new (the one held is then deleted).
// - Lists read per parent (notes per contact, enrolments per sequence) are walked for every parent
//   the replica holds, a few at a time; a parent gone since (404) has no children left.

import pMap from 'p-map';
import type { ApiClient } from '../http/core.js';
import type { ListPage } from '../http/envelope.js';
import { recordCreatedAt, recordId } from '../http/envelope.js';
import { isObject, type JsonObject } from '../registry/values.js';
import { HttpError } from '../http/errors.js';
import { NewAtHead } from '../http/head.js';
import { PAGES_IN_FLIGHT, Walk } from '../http/paginate.js';
import { fillPath } from '../http/url.js';
import type { Database, SqlValue, Statement } from '../sqlite/database.js';
import { changesObject, fieldChanges } from './diff.js';
import { CACHE_KIB, damage, type Replica } from './replica.js';
import { CHANGES_KEPT_DAYS, CHANGES_TABLE, RECORD_COLUMN, SYNCED_COLUMN, keyColumns, quoteName, storedColumns, tableSpec, type Column, type TableSpec } from './schema.js';

export type SyncMode = 'full' | 'new';
/** What a table's sync did: its first (the baseline), a full walk, or the new records only. */
type TableMode = 'first' | SyncMode;

export interface TableReport {
  resource: string;
  mode: TableMode;
  added: number;
  changed: number;
  removed: number;
  /** Records the table holds after the sync. */
  records: number;
  /** Pages asked for (each list page is one request; retries of a page are the HTTP core's). */
  requests: number;
  /** Records without an id, which cannot be told apart: left out. */
  skipped: number;
  /** Why this table was not synced (the key may not read it): the others were. */
  error?: string;
  /** That failure as it was thrown. */
  failure?: unknown;
}

interface SyncProgress {
  resource: string;
  /** Records read so far (for lists read per parent: parents done). */
  done: number;
  /** How many there are, when the service said (its `total`) or the replica knows (parents). */
  total?: number;
}

export interface SyncOptions {
  client: ApiClient;
  replica: Replica;
  /** Table names, in the order to sync them (parents before the lists read under them). */
  tables: readonly string[];
  mode: SyncMode;
  signal?: AbortSignal;
  /** The clock (the machine's when absent): when each table was synced, and which change events are old enough to prune. */
  now?: () => Date;
  onProgress?: (progress: SyncProgress) => void;
  /** Told about records left out (no id) and parents skipped. */
  onWarning?: (message: string) => void;
}

export interface SyncOutcome {
  reports: TableReport[];
  /** The failure that stopped the sync; the tables reported before it were committed. */
  failure?: unknown;
}

/** Records staged per transaction of the staging table. */
const STAGE_BATCH = 50;
/** Updated records diffed at a time while a table is applied. */
const DIFF_BATCH = 500;
const STAGE = 'temp._stage';

/** Failures of one table that leave the others worth syncing: the key may not read it, or the workspace has no such list. */
function tableOnly(error: unknown): boolean {
  return error instanceof HttpError && error.kind === 'status' && (error.status === 403 || error.status === 404);
}

export async function sync(options: SyncOptions): Promise<SyncOutcome> {
  const reports: TableReport[] = [];
  const now = options.now ?? (() => new Date());
  for (const name of options.tables) {
    const table = tableSpec(name);
    try {
      reports.push(await new TableSync(table, options, now).run());
    } catch (error) {
      // Damage inside the file is met only where a sync reads it: said as the replica's, with the way out.
      if (options.signal?.aborted || !tableOnly(error)) return { reports, failure: damage(options.replica.path, error) ?? error };
      reports.push({ resource: name, mode: 'full', added: 0, changed: 0, removed: 0, records: countRows(options.replica.db, table), requests: 0, skipped: 0, error: (error as Error).message, failure: error });
    }
  }
  try {
    pruneChanges(options.replica.db, now());
  } catch (error) {
    return { reports, failure: damage(options.replica.path, error) ?? error };
  }
  return { reports };
}

function countRows(db: Database, table: TableSpec): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${quoteName(table.name)}`).get() as { n: number }).n;
}

/** One record as the table stores it: its key (and parent) columns, and its JSON. */
interface StagedRow {
  values: SqlValue[];
  json: string;
}

class TableSync {
  private readonly db: Database;
  private readonly stored: Column[];
  private readonly keys: Column[];
  private readonly mode: TableMode;
  private requests = 0;
  private skipped = 0;
  private batch: StagedRow[] = [];
  private stageInsert?: Statement;
  private heldLookup?: Statement;
  /** Records in the list (its `total`), or parents to read under. */
  private total?: number;
  /** How many syncs had applied the table when this one began to read it. */
  private readonly appliedBefore: number;

  constructor(
    private readonly table: TableSpec,
    private readonly options: SyncOptions,
    private readonly now: () => Date,
  ) {
    this.db = options.replica.db;
    this.stored = storedColumns(table);
    this.keys = keyColumns(table);
    const synced = this.db.prepare('SELECT 1 FROM _syncs WHERE resource = ?').get(table.name) !== undefined;
    this.mode = !synced ? 'first' : options.mode === 'new' && table.newestFirst ? 'new' : 'full';
    this.appliedBefore = appliedCount(this.db, table);
  }

  async run(): Promise<TableReport> {
    this.createStage();
    try {
      if (this.mode === 'new') this.heldLookup = this.db.prepare(`SELECT ${createdAtOf(RECORD_COLUMN)} AS created FROM ${quoteName(this.table.name)} WHERE ${this.keys.map((col) => `${quoteName(col.name)} = ?`).join(' AND ')}`);
      if (this.table.parent) await this.walkParents();
      // A bar's end is the list's size for a whole walk; --new reads a few of them, without a bar.
      else await this.walkList(this.table.path, undefined, this.mode === 'new' ? this.options.client : observePages(this.options.client, (page) => (this.total = page.total ?? this.total)));
      this.flush();
      this.checkStopped();
      return this.apply();
    } finally {
      this.db.exec(`DROP TABLE IF EXISTS ${STAGE}`);
    }
  }

  private checkStopped(): void {
    if (this.options.signal?.aborted) throw this.options.signal.reason;
  }

  private createStage(): void {
    const columns = this.stored.map((col) => `${quoteName(col.name)} ${col.type} NOT NULL`);
    this.db.exec(`DROP TABLE IF EXISTS ${STAGE}`);
    this.db.exec(`CREATE TABLE ${STAGE} (pos INTEGER PRIMARY KEY, ${columns.join(', ')}, json TEXT NOT NULL)`);
    // The temporary database exists from its first table on: its cache is set then, as the replica's.
    this.db.exec(`PRAGMA temp.cache_size = -${CACHE_KIB}`);
    this.db.exec(`CREATE UNIQUE INDEX temp._stage_key ON _stage (${this.keys.map((col) => quoteName(col.name)).join(', ')})`);
    const names = [...this.stored.map((col) => quoteName(col.name)), 'json'];
    this.stageInsert = this.db.prepare(`INSERT OR REPLACE INTO ${STAGE} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
  }

  /** Held: a row with the record's key and creation time (one with its key only is a record whose id was given again). */
  private isHeld(record: unknown, parentId: string | undefined): boolean {
    const values = this.storedValues(record, parentId);
    if (!values) return false;
    const keys = this.stored.flatMap((col, index) => (col.key ? [values[index]!] : []));
    const row = this.heldLookup!.get(...keys) as { created: string | null } | undefined;
    return row !== undefined && row.created === (recordCreatedAt(record) ?? null);
  }

  /** The stored columns' values of a record (its key and parent), or undefined when it lacks a key (no id). */
  private storedValues(record: unknown, parentId: string | undefined): SqlValue[] | undefined {
    if (!isObject(record)) return undefined;
    const values: SqlValue[] = [];
    for (const col of this.stored) {
      const value = col.parent ? parentId : memberText(record, col.member!);
      if (value === undefined) return undefined;
      values.push(value);
    }
    return values;
  }

  /** The row of a record, or undefined when it lacks a key (no id). */
  private row(record: unknown, parentId: string | undefined): StagedRow | undefined {
    const values = this.storedValues(record, parentId);
    return values && { values, json: JSON.stringify(record) };
  }

  /** Walks one list (the table's, or one parent's) into the staging table: whole, or with --new its new records. */
  private async walkList(path: string, parentId: string | undefined, client: ApiClient): Promise<void> {
    const key = this.table.listKey;
    const walk =
      this.mode === 'new'
        ? new NewAtHead(client, path, { key, held: { has: (record) => this.isHeld(record, parentId) }, skip: (record) => this.unusable(record, parentId) })
        : new Walk(client, path, {}, { key, concurrency: PAGES_IN_FLIGHT });
    let read = 0;
    try {
      for await (const record of walk) {
        this.checkStopped();
        const row = this.row(record, parentId);
        if (!row) {
          this.skip(record);
          continue;
        }
        this.stage(row);
        if (!parentId) this.progress(++read);
      }
    } finally {
      this.requests += walk.requests;
    }
  }

  private progress(done: number): void {
    this.options.onProgress?.({ resource: this.table.name, done, total: this.total });
  }

  /** Each parent's list, a few parents at a time; a parent that is gone (404) has nothing left under it. */
  private async walkParents(): Promise<void> {
    const parent = tableSpec(this.table.parent!);
    const ids = (this.db.prepare(`SELECT id FROM ${quoteName(parent.name)} ORDER BY rowid`).all() as Array<{ id: string }>).map((row) => row.id);
    this.total = ids.length;
    let done = 0;
    await pMap(
      ids,
      async (id) => {
        this.checkStopped();
        let path: string;
        try {
          path = fillPath(this.table.path, { id });
        } catch {
          this.options.onWarning?.(`${parent.name}: the id ${JSON.stringify(id)} cannot be sent in a path; its ${this.table.name} are left out`);
          return;
        }
        try {
          await this.walkList(path, id, this.options.client);
        } catch (error) {
          if (!(error instanceof HttpError && error.kind === 'status' && error.status === 404)) throw error;
        }
        this.progress(++done);
      },
      { concurrency: PAGES_IN_FLIGHT, signal: this.options.signal },
    );
  }

  /** A record without a key: counted and passed over (true). */
  private unusable(record: unknown, parentId: string | undefined): boolean {
    if (this.storedValues(record, parentId)) return false;
    this.skip(record);
    return true;
  }

  private skip(record: unknown): void {
    this.skipped++;
    if (this.skipped === 1) this.options.onWarning?.(`the service sent ${this.table.name} without ${recordId(record) === undefined ? 'an id' : 'a key'}; they cannot be told apart and are left out`);
  }

  private stage(row: StagedRow): void {
    this.batch.push(row);
    if (this.batch.length >= STAGE_BATCH) this.flush();
  }

  /** Writes the staged rows (a transaction of the staging table only: the replica is not locked). */
  private flush(): void {
    if (this.batch.length === 0) return;
    const rows = this.batch;
    this.batch = [];
    this.db.transaction(() => {
      for (const row of rows) this.stageInsert!.run(...row.values, row.json);
    });
  }

  /** The table brought to what was walked, and the change log written, in one transaction. */
  private apply(): TableReport {
    const { db, table } = this;
    const name = quoteName(table.name);
    const at = this.now().toISOString();
    const match = this.keys.map((col) => `m.${quoteName(col.name)} = s.${quoteName(col.name)}`).join(' AND ');
    const eventId = (alias: string) => this.keys.map((col) => `${alias}.${quoteName(col.name)}`).join(` || '/' || `);
    const columns = [...this.stored.map((col) => quoteName(col.name)), RECORD_COLUMN, SYNCED_COLUMN].join(', ');
    const fromStage = `${this.stored.map((col) => `s.${quoteName(col.name)}`).join(', ')}, s.json, @at`;
    const missing = `NOT EXISTS (SELECT 1 FROM ${name} m WHERE ${match})`;
    const gone = `NOT EXISTS (SELECT 1 FROM ${STAGE} s WHERE ${match})`;
    // A record walked with the key of one held but created at another time: the service gave a deleted record's id again.
    const replaced = `EXISTS (SELECT 1 FROM ${STAGE} s WHERE ${match} AND ${createdAtOf('s.json')} IS NOT ${createdAtOf(`m.${RECORD_COLUMN}`)})`;
    return db.transaction(() => {
      // Another sync applied the table while this one read it: its walk may be the newer, and this
      // one applied over it would bring back what it found deleted and undo what it found updated.
      if (appliedCount(db, table) !== this.appliedBefore) {
        this.options.onWarning?.(`${table.name}: another sync applied it while this one read it; that sync's result stands (the next sync finds what changed since)`);
        return { resource: table.name, mode: this.mode, added: 0, changed: 0, removed: 0, records: countRows(db, table), requests: this.requests, skipped: this.skipped };
      }
      db.prepare('INSERT OR REPLACE INTO _meta (key, value) VALUES (?, ?)').run(appliedKey(table), String(this.appliedBefore + 1));
      let added: number;
      let changed = 0;
      let removed = 0;
      if (this.mode === 'first') {
        // Rows of an earlier schema's rebuild that the walk did not find.
        db.prepare(`DELETE FROM ${name} AS m WHERE ${gone}`).run();
        added = Number(db.prepare(`INSERT OR REPLACE INTO ${name} (${columns}) SELECT ${fromStage} FROM ${STAGE} s ORDER BY s.pos DESC`).run({ at }).changes);
      } else {
        // The record held went: deleted, and the one walked is created (below).
        db.prepare(`INSERT INTO ${CHANGES_TABLE} (event, resource, id, record, detected_at) SELECT 'deleted', @resource, ${eventId('m')}, m.${RECORD_COLUMN}, @at FROM ${name} m WHERE ${replaced} ORDER BY m.rowid`).run({ resource: table.name, at });
        removed = Number(db.prepare(`DELETE FROM ${name} AS m WHERE ${replaced}`).run().changes);
        // Oldest first, as they were created.
        db.prepare(`INSERT INTO ${CHANGES_TABLE} (event, resource, id, record, detected_at) SELECT 'created', @resource, ${eventId('s')}, s.json, @at FROM ${STAGE} s WHERE ${missing} ORDER BY s.pos DESC`).run({ resource: table.name, at });
        added = Number(db.prepare(`INSERT INTO ${name} (${columns}) SELECT ${fromStage} FROM ${STAGE} s WHERE ${missing} ORDER BY s.pos DESC`).run({ at }).changes);
        if (this.mode === 'full') {
          changed = this.applyUpdates(match, at);
          db.prepare(`INSERT INTO ${CHANGES_TABLE} (event, resource, id, record, detected_at) SELECT 'deleted', @resource, ${eventId('m')}, m.${RECORD_COLUMN}, @at FROM ${name} m WHERE ${gone} ORDER BY m.rowid`).run({ resource: table.name, at });
          removed += Number(db.prepare(`DELETE FROM ${name} AS m WHERE ${gone}`).run().changes);
        }
      }
      const records = countRows(db, table);
      const when = this.mode === 'new' ? 'new_at' : 'full_at';
      db.prepare(
        `INSERT INTO _syncs (resource, records, ${when}, requests) VALUES (@resource, @records, @at, @requests)
         ON CONFLICT (resource) DO UPDATE SET records = excluded.records, ${when} = excluded.${when}, requests = excluded.requests`,
      ).run({ resource: table.name, records, at, requests: this.requests });
      return { resource: table.name, mode: this.mode, added, changed, removed, records, requests: this.requests, skipped: this.skipped };
    }, 'immediate');
  }

  /**
   * Records held whose JSON differs from what was walked, oldest first, a batch at a time: each
   * becomes an `updated` event with the fields that changed (none when only the order of their keys
   * did), and the row takes the new record.
   */
  private applyUpdates(match: string, at: string): number {
    const { db, table } = this;
    const name = quoteName(table.name);
    const keyList = this.keys.map((col) => `s.${quoteName(col.name)}`).join(', ');
    const candidates = db.prepare(
      `SELECT s.pos AS pos, s.json AS json, m.${RECORD_COLUMN} AS held, ${keyList} FROM ${STAGE} s JOIN ${name} m ON ${match}
       WHERE m.${RECORD_COLUMN} <> s.json AND s.pos < @before ORDER BY s.pos DESC LIMIT ${DIFF_BATCH}`,
    );
    const update = db.prepare(`UPDATE ${name} SET ${RECORD_COLUMN} = ?, ${SYNCED_COLUMN} = ? WHERE ${this.keys.map((col) => `${quoteName(col.name)} = ?`).join(' AND ')}`);
    const log = db.prepare(`INSERT INTO ${CHANGES_TABLE} (event, resource, id, changed, changes, record, detected_at) VALUES ('updated', ?, ?, ?, ?, ?, ?)`);
    let changed = 0;
    let before = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = candidates.all({ before }) as Array<Record<string, SqlValue>>;
      if (rows.length === 0) return changed;
      for (const row of rows) {
        before = Number(row.pos);
        const keys = this.keys.map((col) => row[col.name]!);
        const diff = fieldChanges(parseRecord(String(row.held)), parseRecord(String(row.json)));
        update.run(String(row.json), at, ...keys);
        if (diff.length === 0) continue;
        log.run(table.name, keys.map(String).join('/'), JSON.stringify(diff.map(([field]) => field)), JSON.stringify(changesObject(diff)), String(row.json), at);
        changed++;
      }
    }
  }
}

const appliedKey = (table: TableSpec) => `applied:${table.name}`;

/** How many syncs have applied the table (kept in _meta): a sync applies its walk only if none did since it began. */
function appliedCount(db: Database, table: TableSpec): number {
  const row = db.prepare('SELECT value FROM _meta WHERE key = ?').get(appliedKey(table)) as { value: string } | undefined;
  return row === undefined ? 0 : Number(row.value);
}

/** SQL for a record's created_at (JSON text in `json`) when it is text, else NULL: as recordCreatedAt reads it. */
function createdAtOf(json: string): string {
  return `CASE json_type(${json}, '$.created_at') WHEN 'text' THEN json_extract(${json}, '$.created_at') END`;
}

function parseRecord(text: string): JsonObject {
  const value: unknown = JSON.parse(text);
  return isObject(value) ? value : {};
}

/** A key member as text (ids may be numbers); undefined when absent or not a scalar. */
function memberText(record: JsonObject, member: string): string | undefined {
  if (!Object.hasOwn(record, member)) return undefined;
  const value = record[member];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** Drops change events older than CHANGES_KEPT_DAYS, remembering the last one dropped. */
function pruneChanges(db: Database, now: Date): void {
  const cutoff = new Date(now.getTime() - CHANGES_KEPT_DAYS * 86_400_000).toISOString();
  db.transaction(() => {
    const last = db.prepare(`SELECT max(seq) AS seq FROM ${CHANGES_TABLE} WHERE detected_at < ?`).get(cutoff) as { seq: number | null };
    if (last.seq === null) return;
    db.prepare(`DELETE FROM ${CHANGES_TABLE} WHERE seq <= ?`).run(last.seq);
    db.prepare("INSERT OR REPLACE INTO _meta (key, value) VALUES ('pruned_through', ?)").run(String(last.seq));
  }, 'immediate');
}

/** Observes the pages a walk is answered with (their `total`, for a progress bar), without changing them. */
function observePages(client: ApiClient, onPage: (page: ListPage) => void): ApiClient {
  const observed = Object.create(client) as ApiClient;
  observed.list = async (path, query, key) => {
    const page = await client.list(path, query, key);
    onPage(page);
    return page;
  };
  return observed;
}
