// One small interface over the two SQLite bindings crm can run on: node:sqlite (built into Node 22.13
// and newer: nothing to compile) and better-sqlite3 (an optional dependency, compiled at install,
// for Node 20). Whatever keeps a local database (the sandbox, the replica) opens it here and never
// learns which binding it got.

import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { cannotUseFile } from '../registry/values.js';
import { DatabaseFileError, SqliteUnavailableError } from './errors.js';

export { SqliteUnavailableError };

export type Driver = 'node:sqlite' | 'better-sqlite3';
export const DRIVERS: readonly Driver[] = ['node:sqlite', 'better-sqlite3'];

/** What both bindings bind alike (node:sqlite refuses undefined; better-sqlite3 refuses booleans). */
export type SqlValue = null | number | bigint | string | Uint8Array;
/** Positional values, or one object of named ones (`@name` in the SQL, `{ name }` here: exactly the SQL's names, as node:sqlite refuses others). */
export type SqlParam = SqlValue | Readonly<Record<string, SqlValue>>;

export interface RunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

export interface Statement {
  run(...params: SqlParam[]): RunResult;
  get(...params: SqlParam[]): unknown;
  all(...params: SqlParam[]): unknown[];
  /** Rows one at a time, for results too large to hold. */
  iterate(...params: SqlParam[]): IterableIterator<unknown>;
  /** The result's columns, named as rows name them (both bindings; node:sqlite since Node 22.16). */
  columns?(): Array<{ name: string }>;
}

/**
 * The statement's rows give every integer as a BigInt, exact. By default the bindings differ past
 * JavaScript's exact integers (2^53): better-sqlite3 rounds (9223372036854775807 is read as
 * 9223372036854775808), node:sqlite refuses the row ('Value is too large to be represented as a
 * JavaScript number').
 */
export function readBigInts(statement: Statement): void {
  const native = statement as { setReadBigInts?: (on: boolean) => void; safeIntegers?: (on: boolean) => unknown };
  if (native.setReadBigInts) native.setReadBigInts(true);
  else native.safeIntegers!(true);
}

type TransactionMode = 'deferred' | 'immediate';

export interface Database {
  readonly driver: Driver;
  readonly readOnly: boolean;
  prepare(sql: string): Statement;
  /** Runs one or more statements that return nothing (DDL, PRAGMA settings). */
  exec(sql: string): void;
  /**
   * Runs `work` in a transaction: committed when it returns, rolled back when it throws. Inside
   * another transaction it is a savepoint of it. `immediate` takes the write lock up front.
   */
  transaction<T>(work: () => T, mode?: TransactionMode): T;
  close(): void;
}

interface OpenOptions {
  /** Open an existing database for reading only: any write fails. */
  readOnly?: boolean;
  /** How long to wait for another connection's lock before SQLITE_BUSY (default 5 s). */
  busyTimeoutMs?: number;
  /** The binding to use; by default CRM_SQLITE's, else node:sqlite where Node has it, else better-sqlite3. */
  driver?: Driver;
  /** What the database is, for the one-line error when no SQLite can be loaded. */
  label?: string;
  /** Create the file (and its directory) readable by the owner only; SQLite gives -wal and -shm the same mode. */
  ownerOnly?: boolean;
}

/** SQLITE_BUSY from either binding: another connection held the lock for longer than the busy timeout. */
export function isBusyError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // better-sqlite3 names the code; node:sqlite gives SQLite's number (extended codes keep 5 in the low byte).
  return (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) || (typeof errcode === 'number' && (errcode & 0xff) === 5);
}

/** The native database object each binding gives: prepare, exec and close alike. */
interface NativeDatabase {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

type Opener = (path: string, readOnly: boolean) => NativeDatabase;
/** Why a binding cannot be used, and what would fix that. */
type Unusable = { problem: string; fix: string };

const requireModule = createRequire(import.meta.url);
const NODE_SQLITE_SINCE = '22.13';

/**
 * node:sqlite, or why not. Node 20 has no such module: asked first, as a failed require() costs half
 * a millisecond of its start. Otherwise loading it is the test (Node 22.5 to 22.12 has it behind a
 * flag only). Node 22 warns on first load that it is experimental: crm's users are not that
 * warning's audience.
 */
function loadNodeSqlite(): Opener | Unusable {
  const none: Unusable = { problem: `Node ${process.versions.node} has none built in`, fix: `use Node ${NODE_SQLITE_SINCE} or newer` };
  if (!isBuiltin('node:sqlite')) return none;
  const emitWarning = process.emitWarning;
  process.emitWarning = function quiet(this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    if (String(warning).startsWith('SQLite is an experimental feature')) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const { DatabaseSync } = requireModule('node:sqlite') as { DatabaseSync: new (path: string, options: { readOnly: boolean }) => NativeDatabase };
    return (path, readOnly) => new DatabaseSync(path, { readOnly });
  } catch {
    return none;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** The directory whose node_modules holds better-sqlite3 (its installed directory): where `npm rebuild` fixes it. */
function installRoot(root: string): string {
  const at = root.lastIndexOf('/node_modules/better-sqlite3');
  return at < 0 ? root : root.slice(0, at);
}

type BetterSqliteClass = new (path: string, options: { readonly: boolean; fileMustExist: boolean; nativeBinding?: string | object }) => NativeDatabase;

/**
 * Where better-sqlite3 is installed: the first of the directories require() looks in that holds its
 * package.json. require.resolve finds the same one, at twice the cost (about 1 ms of a Node 20 start):
 * it reads the package's main entry and resolves symbolic links, which crm needs neither of.
 */
function installedBetterSqlite(): string | undefined {
  for (const dir of requireModule.resolve.paths('better-sqlite3') ?? []) {
    const root = join(dir, 'better-sqlite3');
    if (existsSync(join(root, 'package.json'))) return root;
  }
  return undefined;
}

/**
 * The addon as require() would load it, less the module system's work around it (about 1 ms of a
 * Node 20 start): an ES module has no better way to load one.
 */
function loadAddon(path: string): object {
  const addon = { exports: {} };
  process.dlopen(addon, path);
  return addon.exports;
}

/**
 * The installed better-sqlite3's JavaScript and addon. Its JavaScript is also in crm's bundle (the
 * bare require() below is one esbuild follows), which spares a sandbox command on Node 20 resolving
 * and loading a dozen files, and its addon, where npm builds it, is loaded here and handed over as
 * `nativeBinding` instead of being searched for; where the installed package is another version than
 * the bundled one, or its addon is elsewhere, the installed package is used as it is.
 */
function betterSqlite(root: string): { BetterSqlite: BetterSqliteClass; nativeBinding?: object } {
  const addon = join(root, 'build', 'Release', 'better_sqlite3.node');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
  if (version === (require('better-sqlite3/package.json') as { version: string }).version && existsSync(addon)) {
    return { BetterSqlite: require('better-sqlite3') as BetterSqliteClass, nativeBinding: loadAddon(addon) };
  }
  return { BetterSqlite: requireModule(root) as BetterSqliteClass };
}

/**
 * better-sqlite3, or why not: not installed (left out, or its build failed at install), or built
 * for another Node (the user switched Node since).
 */
function loadBetterSqlite(): Opener | Unusable {
  const root = installedBetterSqlite();
  if (root === undefined) return { problem: 'better-sqlite3 is not installed', fix: "reinstall crm where npm can build it (python3, make, a C++ compiler, and nodejs.org reachable for Node's headers)" };
  let BetterSqlite: BetterSqliteClass;
  let nativeBinding: object | undefined;
  try {
    ({ BetterSqlite, nativeBinding } = betterSqlite(root));
    new BetterSqlite(':memory:', { readonly: false, fileMustExist: false, nativeBinding }).close();
  } catch (error) {
    const why = /NODE_MODULE_VERSION/.test(String(error)) ? 'was built for another Node version' : 'does not load';
    return { problem: `better-sqlite3 ${why}`, fix: `run \`npm rebuild better-sqlite3\` in ${installRoot(root)}` };
  }
  return (path, readOnly) => new BetterSqlite(path, { readonly: readOnly, fileMustExist: readOnly, nativeBinding });
}

const LOADERS: Record<Driver, () => Opener | Unusable> = { 'node:sqlite': loadNodeSqlite, 'better-sqlite3': loadBetterSqlite };
const loaded = new Map<Driver, Opener | Unusable>();

function load(driver: Driver): Opener | Unusable {
  let opener = loaded.get(driver);
  if (opener === undefined) {
    opener = LOADERS[driver]();
    loaded.set(driver, opener);
  }
  return opener;
}

/** CRM_SQLITE names the one binding to use (CI runs the suite on each); unset, the first that loads. */
function namedDriver(env: NodeJS.ProcessEnv): Driver | undefined {
  const named = env.CRM_SQLITE;
  if (named === undefined || named === '') return undefined;
  if (!DRIVERS.includes(named as Driver)) throw new SqliteUnavailableError(`CRM_SQLITE is "${named}"; it must be ${DRIVERS.join(' or ')}, or unset`, true);
  return named as Driver;
}

function pick(named: Driver | undefined, label: string): { driver: Driver; open: Opener } {
  const unusable: Unusable[] = [];
  for (const driver of named ? [named] : DRIVERS) {
    const opener = load(driver);
    if (typeof opener === 'function') return { driver, open: opener };
    unusable.push(opener);
  }
  // The binding's own fix first: it keeps the Node the user chose.
  const fixes = unusable.map((reason) => reason.fix).reverse();
  if (named) fixes.push('unset CRM_SQLITE');
  const chosen = named ? ` (CRM_SQLITE=${named})` : '';
  throw new SqliteUnavailableError(`no SQLite for ${label}: ${unusable.map((reason) => reason.problem).join(' and ')}${chosen}; ${fixes.join(', or ')}`);
}

class SqliteDatabase implements Database {
  private depth = 0;

  constructor(
    private readonly native: NativeDatabase,
    readonly driver: Driver,
    readonly readOnly: boolean,
  ) {}

  prepare(sql: string): Statement {
    return this.native.prepare(sql);
  }

  exec(sql: string): void {
    this.native.exec(sql);
  }

  transaction<T>(work: () => T, mode: TransactionMode = 'deferred'): T {
    const savepoint = this.depth > 0 ? `crm_${this.depth}` : undefined;
    this.exec(savepoint ? `SAVEPOINT ${savepoint}` : `BEGIN ${mode.toUpperCase()}`);
    this.depth++;
    try {
      const result = work();
      this.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      this.rollback(savepoint);
      throw error;
    } finally {
      this.depth--;
    }
  }

  close(): void {
    this.native.close();
  }

  private rollback(savepoint: string | undefined): void {
    try {
      this.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
    } catch {
      // SQLite already rolled the transaction back (it does on some errors): nothing is left to undo.
    }
  }
}

/** Creates the file owner-only before SQLite would create it with the umask's mode. */
function createPrivateFile(path: string, label: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DatabaseFileError(cannotUseFile('create', `${label}'s directory ${dirname(path)}`, error));
  }
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new DatabaseFileError(cannotUseFile('create', `${label} ${path}`, error));
  }
}

/**
 * Opens (creating unless read-only) the database at `path`, or ':memory:'. Foreign keys are
 * enforced. Nothing is created when no SQLite can be loaded.
 */
export function openDatabase(path: string, options: OpenOptions = {}): Database {
  const label = options.label ?? "crm's local database";
  const { driver, open } = pick(options.driver ?? namedDriver(process.env), label);
  const readOnly = options.readOnly ?? false;
  if (options.ownerOnly && !readOnly) createPrivateFile(path, label);
  const native = open(path, readOnly);
  try {
    native.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    native.exec('PRAGMA foreign_keys = ON');
  } catch (error) {
    native.close();
    throw error;
  }
  return new SqliteDatabase(native, driver, readOnly);
}
