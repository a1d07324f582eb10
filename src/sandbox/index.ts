import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { handleRequest } from './handler.js';
import type { SandboxRequest, SandboxResponse } from './http.js';

export type { SandboxRequest, SandboxResponse };
import { SUGGESTION_VISIBLE } from './routes/ai.js';
import { migrate } from './schema.js';
import { catchUpScoringAgent, runScoringAgent } from './scoring.js';
import { Store, isBusyError } from './store.js';

export interface Sandbox {
  /** The local key this sandbox issued and enforces. */
  readonly apiKey: string;
  readonly dbPath: string;
  handle(req: SandboxRequest): SandboxResponse;
  /** One run of the hourly agent, now. */
  runScoringAgent(): { scored: number; suggestions: number };
  /** Runs the agent if its last run is an hour old or more (or never happened); true if it ran. */
  catchUpScoringAgent(): boolean;
  /** Live (not deleted) rows per resource; each equals the total of that resource's list. */
  counts(): Record<string, number>;
  close(): void;
}

export interface OpenOptions {
  dbPath: string;
  now?: () => Date;
  /** Seed demo data when the database is new; default true. */
  seed?: boolean;
}

const BUSY_TIMEOUT_MS = 10_000;


/** Creates the file owner-only before SQLite sees it; SQLite gives -wal and -shm the same mode. */
function createPrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Switching a new database to WAL needs the file to itself, and SQLite answers SQLITE_BUSY at once
 * instead of using the busy timeout when another process is opening it too; so retry until the
 * timeout. Once the file is in WAL mode (it stays so) this returns at the first try.
 */
function enableWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusyError(error) || Date.now() > deadline) throw error;
      sleepSync(5 + Math.random() * 20);
    }
  }
}

function openDatabase(path: string): Database.Database {
  createPrivateFile(path);
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    enableWal(db);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

const COUNT_SQL = `SELECT
  (SELECT COUNT(*) FROM contacts WHERE deleted_at IS NULL) AS contacts,
  (SELECT COUNT(*) FROM accounts WHERE deleted_at IS NULL) AS accounts,
  (SELECT COUNT(*) FROM deals WHERE deleted_at IS NULL) AS deals,
  (SELECT COUNT(*) FROM sequences WHERE deleted_at IS NULL) AS sequences,
  (SELECT COUNT(*) FROM tasks WHERE deleted_at IS NULL) AS tasks,
  (SELECT COUNT(*) FROM notes n JOIN contacts c ON c.id = n.contact_id WHERE c.deleted_at IS NULL) AS notes,
  (SELECT COUNT(*) FROM suggestions g WHERE g.status = 'pending' AND ${SUGGESTION_VISIBLE}) AS suggestions`;

export function openSandbox(options: OpenOptions): Sandbox {
  const dbPath = options.dbPath;
  const db = openDatabase(dbPath);
  const store = new Store(db, options.now ?? (() => new Date()));
  let apiKey: string;
  try {
    migrate(store, options.seed ?? true);
    apiKey = store.meta('api_key') ?? '';
    if (!apiKey) throw new Error(`The sandbox database ${dbPath} has no API key; reset the sandbox`);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    apiKey,
    dbPath,
    handle: (request) => handleRequest(store, apiKey, request),
    runScoringAgent: () => runScoringAgent(store),
    catchUpScoringAgent: () => catchUpScoringAgent(store),
    counts: () => store.get<Record<string, number>>(COUNT_SQL) ?? {},
    close: () => db.close(),
  };
}

/** Deletes the sandbox database and its WAL files; the next open creates and seeds a new one. */
export function resetSandbox(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
}
