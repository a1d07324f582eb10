// The replica's file: one SQLite database per profile, owner-only (0600 in a 0700 directory; SQLite
// gives its -wal and -shm files the database's mode), in WAL mode so that `crm query` reads the last
// committed sync while another sync writes. It remembers the workspace it holds (the base URL, and a
// digest of the API key: two workspaces of one service share the base URL): a sync of another
// workspace into it is refused rather than mixing two workspaces' records, and reading it under
// another workspace's key is refused too (commands/mirror/replica.ts).

import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { recordCreatedAt, recordId } from '../http/envelope.js';
import { cannotUseFile } from '../registry/values.js';
import { openDatabase, type Database } from '../sqlite/database.js';
import { MirrorError } from './errors.js';
import { replicaFiles, replicaSize } from './files.js';
import { CHANGE_COLUMNS, CHANGES_TABLE, RECORD_COLUMN, SYNCED_COLUMN, TABLES, VIEWS, quoteName, replicaSchema, storedColumns, type TableSpec } from './schema.js';

/** A sync's apply step holds the write lock for a second or two: another sync waits that long. */
const BUSY_TIMEOUT_MS = 60_000;
const LABEL = 'the local replica';
const PAGE_SIZE = 16_384;
/** The page cache of a sync's connection, and of its staging tables (sync.ts). */
export const CACHE_KIB = 2_048;
const MMAP_BYTES = 256 * 1_048_576;

/** The workspace a replica holds: the service's base URL and which key read it (the service names no workspace). */
export interface ReplicaWorkspace {
  baseUrl: string;
  /** keyFingerprint() of the key the syncs used. */
  key: string;
}

interface ReplicaInfo {
  /** Random, made when the replica is created: change events of another replica are another sequence. */
  id: string;
  baseUrl: string;
  /** keyFingerprint() of the syncs' key; undefined in a replica of a crm that did not keep it. */
  key?: string;
}

/**
 * Which key reads a workspace, as a replica remembers it: a digest (SHA-256, 128 bits of it) of the
 * base URL and the key, from which the key cannot be had back. Never shown: it only tells two keys apart.
 */
export function keyFingerprint(baseUrl: string, apiKey: string | undefined): string {
  return createHash('sha256').update(`crm replica\n${baseUrl}\n${apiKey ?? ''}`).digest('hex').slice(0, 32);
}

interface ResourceStatus {
  resource: string;
  records: number;
  /** Last full walk: updates and deletions are known as of then. */
  fullAt: string | null;
  /** Last walk of new records only (`--new`). */
  newAt: string | null;
  requests: number;
}

export class Replica {
  private closed = false;
  /** Ends what reads the connection before it closes (better-sqlite3 refuses to close while a statement is read). */
  private readonly beforeClose: Array<() => void> = [];
  /** This open emptied a replica of an older crm, which did not record the key its records were read with. */
  emptied = false;

  private constructor(
    readonly db: Database,
    readonly path: string,
  ) {}

  /**
   * Opens the replica to write (a sync), creating it for `workspace`, and brings its tables to this
   * crm's schema (rebuilt from `_record` when the registry's fields changed). A replica of another
   * workspace is refused; one of a crm that did not record the key is emptied (see migrate). A
   * `replacedKey` (the key the replica holds, proven to read the same workspace as the new one:
   * ./key.ts) is replaced by the workspace's.
   */
  static openForSync(path: string, workspace: ReplicaWorkspace, { replacedKey }: { replacedKey?: string } = {}): Replica {
    checkReplicaWritable(path);
    const db = damagedSaid(path, () => openDatabase(path, { ownerOnly: true, busyTimeoutMs: BUSY_TIMEOUT_MS, label: LABEL }));
    const replica = new Replica(db, path);
    try {
      // Pages of 16 KiB (for a new file): a table is read in a quarter of the reads, so a GROUP BY
      // over 100,000 deals takes about half the time it takes with SQLite's 4 KiB (bench/mirror.mjs).
      db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
      db.exec('PRAGMA journal_mode = WAL');
      // A sync's staging tables are this connection's own, in a file of their own.
      db.exec('PRAGMA temp_store = FILE');
      // The page cache is SQLite's default size whichever the binding (better-sqlite3's is 16 MiB),
      // so a sync's memory does not grow with the workspace (bench/mirror.mjs: 1,000 against 100,000).
      db.exec(`PRAGMA cache_size = -${CACHE_KIB}`);
      replica.migrate(workspace, replacedKey);
    } catch (error) {
      db.close();
      throw damage(path, error) ?? error;
    }
    return replica;
  }

  /** Opens an existing replica read-only (crm query, --status): any write fails. Undefined when there is none (or an empty file, one being made). */
  static openForReading(path: string): Replica | undefined {
    if (!existsSync(path)) return undefined;
    // SQLite reads a database in WAL mode through its -shm file, which it makes beside it when it is not there.
    if (!existsSync(`${path}-shm`) && !writable(dirname(path))) {
      throw new MirrorError(cannotUseFile('read', `the replica ${path}`, `SQLite needs to make its -shm file in ${dirname(path)}, which crm cannot write`), {
        code: 'replica_unreadable',
        hint: 'let your user write that folder, or set CRM_DATA_DIR to a folder crm can write and sync again',
      });
    }
    const db = damagedSaid(path, () => openDatabase(path, { readOnly: true, busyTimeoutMs: BUSY_TIMEOUT_MS, label: LABEL }));
    try {
      db.exec('PRAGMA query_only = ON');
      // Read through a memory map: no copy of each page a scan reads.
      db.exec(`PRAGMA mmap_size = ${MMAP_BYTES}`);
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_meta'").get()) {
        // No table at all: a replica another crm is making (its first sync has not committed), or
        // the empty file of one killed while it made it. None yet: the next sync makes it.
        if (!db.prepare('SELECT 1 FROM sqlite_master').get()) {
          db.close();
          return undefined;
        }
        throw new MirrorError(`${path} is not a replica of crm`, { usage: true, hint: 'remove it, or run `crm sync --forget`' });
      }
    } catch (error) {
      db.close();
      throw damage(path, error) ?? error;
    }
    return new Replica(db, path);
  }

  /** Closes the file; again is nothing (a command's cleanup after its own). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const end of this.beforeClose.splice(0)) end();
    this.db.close();
  }

  /** `end` is called when the replica closes, before its connection: rows still being read (a query whose output was closed, `| head`) are ended first. */
  onClose(end: () => void): void {
    this.beforeClose.push(end);
  }

  info(): ReplicaInfo {
    const read = (key: string) => (this.db.prepare('SELECT value FROM _meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
    return { id: read('replica_id') ?? '', baseUrl: read('base_url') ?? '', key: read('workspace_key') };
  }

  /** What each resource holds, and when it was last synced. */
  status(): ResourceStatus[] {
    const rows = this.db.prepare('SELECT resource, records, full_at, new_at, requests FROM _syncs').all() as Array<{ resource: string; records: number; full_at: string | null; new_at: string | null; requests: number }>;
    const byName = new Map(rows.map((row) => [row.resource, row]));
    return TABLES.flatMap((table) => {
      const row = byName.get(table.name);
      return row ? [{ resource: table.name, records: row.records, fullAt: row.full_at, newAt: row.new_at, requests: row.requests }] : [];
    });
  }

  /**
   * Up to `count` of the newest records held of the tables whose records the service gives one by
   * one, with their id and creation time: what a new key must read the same (./key.ts).
   */
  newestRecords(count: number): Array<{ table: TableSpec; id: string; createdAt: string }> {
    const found: Array<{ table: TableSpec; id: string; createdAt: string }> = [];
    const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    for (const table of TABLES) {
      if (found.length >= count) break;
      if (table.getPath === undefined || !exists.get(table.name)) continue;
      const rows = this.db
        .prepare(`SELECT ${RECORD_COLUMN} AS record FROM ${quoteName(table.name)} ORDER BY json_extract(${RECORD_COLUMN}, '$.created_at') DESC LIMIT ?`)
        .all(count - found.length) as Array<{ record: string }>;
      for (const { record } of rows) {
        const parsed: unknown = JSON.parse(record);
        const id = recordId(parsed);
        const createdAt = recordCreatedAt(parsed);
        if (id !== undefined && createdAt !== undefined) found.push({ table, id, createdAt });
      }
    }
    return found;
  }

  /** The file's size in bytes, with its write-ahead log. */
  size(): number {
    return replicaSize(this.path);
  }

  private migrate(workspace: ReplicaWorkspace, replacedKey: string | undefined): void {
    const schema = replicaSchema();
    this.db.transaction(() => {
      this.db.exec(schema.bookkeeping);
      const meta = this.db.prepare('SELECT key, value FROM _meta').all() as Array<{ key: string; value: string }>;
      const stored = new Map(meta.map((row) => [row.key, row.value]));
      const held = stored.get('base_url');
      const heldKey = stored.get('workspace_key');
      const keyReplaced = heldKey !== undefined && heldKey === replacedKey;
      if (held !== undefined && (held !== workspace.baseUrl || (heldKey !== undefined && heldKey !== workspace.key && !keyReplaced))) {
        throw otherWorkspace(this.path, held, workspace.baseUrl);
      }
      const set = this.db.prepare('INSERT OR REPLACE INTO _meta (key, value) VALUES (?, ?)');
      if (keyReplaced) set.run('workspace_key', workspace.key);
      // A replica of an older crm, which kept the base URL only: its records may be another
      // workspace's of the same service. It is emptied, and this sync is its first (no change events),
      // under a new id: a crm watch --changes that followed it is told so, not fed the difference.
      if (held !== undefined && heldKey === undefined) {
        const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
        for (const table of TABLES) if (exists.get(table.name)) this.db.exec(`DELETE FROM ${quoteName(table.name)}`);
        this.emptied = true;
        this.db.exec(`DELETE FROM ${CHANGES_TABLE}; DELETE FROM _syncs; DELETE FROM _meta WHERE key LIKE 'applied:%' OR key = 'pruned_through'`);
      }
      if (heldKey === undefined) {
        set.run('base_url', workspace.baseUrl);
        set.run('workspace_key', workspace.key);
        set.run('replica_id', randomBytes(6).toString('hex'));
      }
      if (stored.get('schema') === schema.fingerprint) return;
      for (const view of this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'view'").all() as Array<{ name: string }>) {
        this.db.exec(`DROP VIEW ${quoteName(view.name)}`);
      }
      for (const { table, create, indexes } of schema.tables) rebuild(this.db, table, create, indexes);
      for (const view of schema.views) this.db.exec(view);
      set.run('schema', schema.fingerprint);
    }, 'immediate');
  }
}

/** Whether this process may write the file or folder. */
function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A replica that exists can be written, with its -wal and -shm files and its folder (where SQLite
 * makes them): else a sync is refused before anything is sent. SQLite would open it read-only without
 * a word, and the sync would read every list and fail at the first table it applies ('attempt to
 * write a readonly database', no file named).
 */
export function checkReplicaWritable(path: string): void {
  if (!existsSync(path)) return;
  const files = replicaFiles(path).filter((file) => existsSync(file)).map((file) => [file, `the replica ${file}`] as const);
  for (const [file, what] of [...files, [dirname(path), `the replica's folder ${dirname(path)}`] as const]) {
    try {
      accessSync(file, constants.W_OK);
    } catch (error) {
      throw new MirrorError(cannotUseFile('write', what, error), {
        code: 'replica_unwritable',
        hint: '`crm query` still reads it; let your user write it and its folder, or set CRM_DATA_DIR to a folder crm can write',
      });
    }
  }
}

/** The replica holds the records of another workspace than the one the command is for. */
export function otherWorkspace(path: string, held: string, baseUrl: string): MirrorError {
  const sameUrl = held === baseUrl;
  const what = sameUrl ? `the records another API key of ${held} reads (another workspace, or this one before its key was replaced)` : `${held}, not ${baseUrl}`;
  const others = 'one replica per profile: use a profile for each workspace, or `crm sync --forget` this one first';
  return new MirrorError(`the replica at ${path} holds ${what}`, {
    usage: true,
    code: 'replica_workspace',
    hint: sameUrl ? `a replaced key: \`crm sync\` keeps the replica once the key reads its records; ${others}` : others,
  });
}

/** SQLite's SQLITE_CORRUPT (11) and SQLITE_NOTADB (26), as either binding gives them. */
function isDamaged(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || (typeof errcode === 'number' && [11, 26].includes(errcode & 0xff));
}

/**
 * A file SQLite cannot read as a database said as the replica's, with the way out; undefined for any
 * other failure. At opening, or later: damage inside a table is met only when a sync or a query reads it.
 */
export function damage(path: string, error: unknown): MirrorError | undefined {
  if (!isDamaged(error)) return undefined;
  const why = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  return new MirrorError(`the replica ${path} is damaged (${why})`, { usage: true, code: 'replica_damaged', hint: 'delete it with `crm sync --forget` and sync again: the service holds every record' });
}

function damagedSaid<T>(path: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    throw damage(path, error) ?? notAFile(path) ?? error;
  }
}

/** A directory where the replica should be: SQLite says only 'disk I/O error'. */
function notAFile(path: string): MirrorError | undefined {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  return new MirrorError(cannotUseFile('read', `the replica ${path}`, 'it is a directory'), { code: 'replica_unusable', hint: 'remove that directory; the next `crm sync` makes the replica there' });
}

/** Creates the table, or defines it anew keeping its rows: what crm stores itself is copied, the rest is generated again. */
function rebuild(db: Database, table: TableSpec, create: string, indexes: string[]): void {
  const name = quoteName(table.name);
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table.name) !== undefined;
  if (!exists) {
    db.exec(create);
  } else {
    const previous = quoteName(`_previous_${table.name}`);
    const copied = [...storedColumns(table).map((col) => quoteName(col.name)), RECORD_COLUMN, SYNCED_COLUMN].join(', ');
    db.exec(`ALTER TABLE ${name} RENAME TO ${previous}`);
    db.exec(create);
    try {
      db.transaction(() => db.exec(`INSERT INTO ${name} (${copied}) SELECT ${copied} FROM ${previous}`));
    } catch {
      // Held by a crm whose keys were other columns: the next sync of the table is a first one.
      db.prepare('DELETE FROM _syncs WHERE resource = ?').run(table.name);
    }
    db.exec(`DROP TABLE ${previous}`);
  }
  for (const index of indexes) db.exec(index);
}


interface SchemaRow {
  table: string;
  column: string;
  type: string;
  description: string;
}

/** A database in memory with a replica's tables and views and no row, read-only: what a query is checked against before any replica is opened. */
export function emptyReplica(): Database {
  const schema = replicaSchema();
  const db = openDatabase(':memory:', { label: LABEL });
  try {
    db.exec(schema.bookkeeping);
    for (const { create } of schema.tables) db.exec(create);
    for (const view of schema.views) db.exec(view);
    db.exec('PRAGMA query_only = ON');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Every table and view a replica has, with its columns: what `crm query --schema` lists (no replica needed). */
export function describeReplica(): SchemaRow[] {
  const db = emptyReplica();
  try {
    const columnsOf = (name: string) => db.prepare(`PRAGMA table_xinfo(${quoteName(name)})`).all() as Array<{ name: string; type: string }>;
    const own: Record<string, string> = { [RECORD_COLUMN]: 'the record as the service sent it, whole (JSON): fields the spec does not show too', [SYNCED_COLUMN]: 'when crm last wrote the row' };
    const rows: SchemaRow[] = [];
    const describe = (table: TableSpec, column: string) => table.columns.find((col) => col.name === column)?.description ?? own[column] ?? '';
    for (const table of TABLES) {
      for (const col of columnsOf(table.name)) rows.push({ table: table.name, column: col.name, type: col.type, description: describe(table, col.name) });
    }
    for (const view of VIEWS) {
      const base = TABLES.find((table) => table.name === view.base)!;
      for (const col of columnsOf(view.name)) rows.push({ table: view.name, column: col.name, type: col.type, description: view.added[col.name] ?? describe(base, col.name) });
    }
    for (const [column, type, description] of CHANGE_COLUMNS) rows.push({ table: CHANGES_TABLE, column, type, description });
    return rows;
  } finally {
    db.close();
  }
}
