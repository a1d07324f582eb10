// The sandbox: a local implementation of the service on SQLite (./handler.ts answers its requests),
// opened on a database file that is created, upgraded or reseeded when it needs to be (./schema.ts).

import { existsSync, rmSync } from 'node:fs';
import { handleRequest, sameSecret, sameString } from './handler.js';
import type { SandboxRequest, SandboxResponse } from './http.js';

export type { SandboxResponse };
import { SUGGESTION_VISIBLE } from './routes/ai.js';
import { catchUpScoringAgent, runScoringAgent } from './scoring.js';
import { isBusyError, openDatabase, type Database, type Driver } from '../sqlite/database.js';
import { pauseForOtherProcess } from '../registry/pause.js';
import { Store } from './store.js';

export interface Sandbox {
  /** The local key this sandbox issued and enforces. */
  readonly apiKey: string;
  readonly dbPath: string;
  /** The SQLite binding it runs on. */
  readonly driver: Driver;
  handle(req: SandboxRequest): SandboxResponse;
  /** One run of the hourly agent, now. */
  runScoringAgent(): { scored: number; suggestions: number };
  /** Runs the agent if its last run is an hour old or more (or never happened); true if it ran. */
  catchUpScoringAgent(): boolean;
  /** Replaces every record with fresh demo data, in one transaction; the key stays. */
  reseed(): Promise<void>;
  /** Live (not deleted) rows per resource; each equals the total of that resource's list. */
  counts(): Record<string, number>;
  close(): void;
}

interface OpenOptions {
  dbPath: string;
  now?: () => Date;
  /** Seed demo data when the database is new; default true. */
  seed?: boolean;
  /** The SQLite binding (tests of each); by default the one src/sqlite picks. */
  driver?: Driver;
  /**
   * Requests come from this process (the embedded transport), not over a network: the key is
   * compared as a string, not in constant time (src/sandbox/handler.ts, sameString). The answers
   * are the same.
   */
  inProcess?: boolean;
}

const BUSY_TIMEOUT_MS = 10_000;

/**
 * Switching a new database to WAL needs the file to itself, and SQLite answers SQLITE_BUSY at once
 * instead of using the busy timeout when another process is opening it too; so retry until the
 * timeout. Once the file is in WAL mode (it stays so) this returns at the first try.
 */
function enableWal(db: Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusyError(error) || Date.now() > deadline) throw error;
      pauseForOtherProcess();
    }
  }
}

function openSandboxDatabase(path: string, driver: Driver | undefined): Database {
  const db = openDatabase(path, { busyTimeoutMs: BUSY_TIMEOUT_MS, driver, label: 'the sandbox', ownerOnly: true });
  try {
    enableWal(db);
    db.exec('PRAGMA synchronous = NORMAL');
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

/** The schema's creation, migrations and demo data: loaded only when the database needs them. */
const schema = () => import('./schema.js');
/** The schema version this code reads and writes: the number of migrations in ./schema.ts (which checks it). */
const SCHEMA_VERSION = 2;

export async function openSandbox(options: OpenOptions): Promise<Sandbox> {
  const dbPath = options.dbPath;
  const db = openSandboxDatabase(dbPath, options.driver);
  const store = new Store(db, options.now ?? (() => new Date()));
  let apiKey: string;
  try {
    // When the database is current (every open but the first after an upgrade), one PRAGMA read.
    if (store.userVersion() !== SCHEMA_VERSION) (await schema()).migrate(store, SCHEMA_VERSION, options.seed ?? true);
    apiKey = store.meta('api_key') ?? '';
    if (!apiKey) throw new Error(`The sandbox database ${dbPath} has no API key; reset the sandbox`);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    apiKey,
    dbPath,
    driver: db.driver,
    handle: (request) => handleRequest(store, apiKey, request, options.inProcess ? sameString : sameSecret),
    runScoringAgent: () => runScoringAgent(store),
    catchUpScoringAgent: () => catchUpScoringAgent(store),
    reseed: async () => (await schema()).reseed(store),
    counts: () => store.get<Record<string, number>>(COUNT_SQL) ?? {},
    close: () => db.close(),
  };
}

export type ResetOutcome = 'reseeded' | 'deleted' | 'absent';

/**
 * Starts the sandbox again from fresh demo data, keeping its key. The data is replaced inside the
 * database (see reseed), not by deleting the file: a server or another crm that has it open would
 * go on writing to the deleted file, and every record it confirmed afterwards would be lost. Only a
 * database that cannot be opened at all (damaged, or from a newer crm) is deleted instead.
 */
export async function resetSandbox(dbPath: string): Promise<ResetOutcome> {
  if (!existsSync(dbPath)) return 'absent';
  let sandbox: Sandbox;
  try {
    sandbox = await openSandbox({ dbPath, seed: false });
  } catch (error) {
    // Busy is not broken: someone is using it, and deleting it would lose their writes.
    if (isBusyError(error)) throw error;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
    return 'deleted';
  }
  try {
    await sandbox.reseed();
    return 'reseeded';
  } finally {
    sandbox.close();
  }
}
