// `crm query`: one SQL statement on the replica, read-only three times over: the statement must be
// one that reads (SELECT, WITH, VALUES, EXPLAIN, PRAGMA), the connection is opened read-only, and
// query_only is on. A statement refused or failing is a MirrorError of one line, with where in the
// SQL it went wrong (SQLite's bindings give no offset: a syntax error is located by parsing ever
// shorter prefixes, a name it does not know by finding the name).

import { readBigInts, type Database, type Statement } from '../sqlite/database.js';
import { closestName } from '../registry/values.js';
import { MirrorError } from './errors.js';
import { damage, emptyReplica, type Replica } from './replica.js';

/** The statements that read. WITH may lead to a write: the read-only connection refuses that one. */
const READING = new Set(['SELECT', 'WITH', 'VALUES', 'EXPLAIN', 'PRAGMA']);
/** SQLite's other statements: each writes, or begins or ends a transaction. */
const WRITING = new Set(['ALTER', 'ANALYZE', 'ATTACH', 'BEGIN', 'COMMIT', 'CREATE', 'DELETE', 'DETACH', 'DROP', 'END', 'INSERT', 'REINDEX', 'RELEASE', 'REPLACE', 'ROLLBACK', 'SAVEPOINT', 'UPDATE', 'VACUUM']);
/** Other databases' ways to list tables and columns: what --schema does here. */
const SCHEMA_WORDS = new Set(['SHOW', 'DESCRIBE', 'DESC']);

interface QueryRows {
  /** The result's columns in order (also when no row comes back). */
  columns: string[];
  rows: Iterable<Record<string, unknown>>;
}

/**
 * Checks `sql` against a replica's tables with no row (this crm's schema): a mistake, a write, or a
 * name no table has is refused before any replica is looked for or synced.
 */
export function checkQuery(sql: string): void {
  const db = emptyReplica();
  try {
    prepareQuery(db, sql);
  } finally {
    db.close();
  }
}

/** Prepares the one statement of `sql` on the replica and returns its rows as they are read (errors while reading are MirrorErrors too). */
export function runQuery(replica: Replica, sql: string): QueryRows {
  const { statement, prepared, columns } = prepareQuery(replica.db, sql);
  const rows = rowsOf(prepared, statement, replica);
  // The command may end with rows unread (its output closed): the statement is ended before the connection closes.
  replica.onClose(() => void rows.return(undefined));
  return { columns, rows };
}

/** The one statement of `sql` prepared on `db`, with its result's columns; each check's refusal a MirrorError. */
function prepareQuery(db: Database, sql: string): { statement: string; prepared: Statement; columns: string[] } {
  const statement = onlyStatement(sql);
  const keyword = /^[A-Za-z]+/.exec(statement.slice(skipSpace(statement, 0)))?.[0]?.toUpperCase();
  // A word that begins no statement SQLite has (SELEC, SHOW TABLES) is a mistake, not a write.
  if (keyword && !READING.has(keyword) && !WRITING.has(keyword)) throw notAStatement(sql, keyword);
  if (!keyword || !READING.has(keyword)) {
    throw new MirrorError(`the replica is read-only: ${keyword ? `${keyword} statements are refused` : 'this is not a statement that reads'} (only \`crm sync\` changes it)`, { usage: true, code: 'read_only' });
  }
  // `PRAGMA x = v` sets x, always. (`PRAGMA journal_mode(wal)` sets too: it fails as it runs, below.)
  if (keyword === 'PRAGMA' && /^[\w."\s]+=/.test(statement.slice(skipSpace(statement, 0) + keyword.length))) throw wouldWrite();
  let prepared: Statement;
  try {
    prepared = db.prepare(statement);
  } catch (error) {
    throw sqlError(error, statement, db);
  }
  let columns: string[] | undefined;
  try {
    columns = prepared.columns?.().map((column) => column.name);
  } catch (error) {
    // better-sqlite3 has no columns for a statement that returns no rows: one that writes.
    throw sqlError(error, statement, db);
  }
  // node:sqlite gives such a statement no columns rather than an error: refused alike, before any
  // output (WITH ... DELETE gets this far).
  if (columns?.length === 0) throw wouldWrite();
  const duplicate = columns?.find((name, index) => columns.indexOf(name) !== index);
  if (duplicate !== undefined) {
    throw new MirrorError(`two result columns are named "${duplicate}"`, { usage: true, code: 'sql_error', hint: `name them apart with AS, e.g. SELECT d.id AS deal_id, c.id AS contact_id` });
  }
  // The bindings build each row as an object: a member named __proto__ sets its prototype instead, so the column would print as nothing.
  if (columns?.includes('__proto__')) {
    throw new MirrorError('a result column is named "__proto__", which no row can hold as a field', { usage: true, code: 'sql_error', hint: 'name it otherwise with AS, e.g. SELECT json_extract(_record, \'$.__proto__\') AS proto' });
  }
  return { statement, prepared, columns: columns ?? [] };
}

function* rowsOf(prepared: Statement, sql: string, replica: Replica): Generator<Record<string, unknown>> {
  readBigInts(prepared);
  try {
    for (const row of prepared.iterate()) yield alike(row as Record<string, unknown>);
  } catch (error) {
    // A damaged page is the file's fault, not the SQL's.
    throw damage(replica.path, error) ?? sqlError(error, sql, replica.db);
  }
}

/**
 * A row as both bindings give it alike: an integer is a number where JavaScript holds it exactly, else
 * its digits as text (never rounded, never refused); a blob is its bytes in hex, as SQLite's hex()
 * writes them (better-sqlite3 gave a Buffer, printed {"type":"Buffer","data":[...]}, node:sqlite a
 * Uint8Array, printed {"0":...}).
 */
function alike(row: Record<string, unknown>): Record<string, unknown> {
  for (const [column, value] of Object.entries(row)) {
    if (typeof value === 'bigint') row[column] = value >= MIN_EXACT && value <= MAX_EXACT ? Number(value) : String(value);
    else if (value instanceof Uint8Array) row[column] = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex').toUpperCase();
  }
  return row;
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_EXACT = -MAX_EXACT;

/** The statement without trailing semicolons and comments; more than one statement is refused. */
function onlyStatement(sql: string): string {
  const end = statementEnd(sql);
  const statement = sql.slice(0, end).trim();
  if (statement === '' || skipSpace(statement, 0) === statement.length) throw new MirrorError('the query is empty', { usage: true, code: 'sql_error' });
  let rest = end;
  while (rest < sql.length) {
    if (sql[rest] === ';') rest++;
    else if (skipSpace(sql, rest) > rest) rest = skipSpace(sql, rest);
    else {
      const { line, column } = lineAndColumn(sql, rest);
      throw new MirrorError(`crm query runs one statement; another begins at line ${line}, column ${column}`, { usage: true, code: 'sql_error' });
    }
  }
  return statement;
}

/** Where the first statement ends: its first semicolon outside quotes, brackets and comments, or the end. */
function statementEnd(sql: string): number {
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    if (char === ';') return index;
    const closing = char === "'" ? "'" : char === '"' ? '"' : char === '`' ? '`' : char === '[' ? ']' : undefined;
    if (closing) {
      // A doubled quote inside a quoted text is the quote itself.
      index = sql.indexOf(closing, index + 1);
      while (index >= 0 && closing !== ']' && sql[index + 1] === closing) index = sql.indexOf(closing, index + 2);
      if (index < 0) return sql.length;
      index++;
      continue;
    }
    const after = skipSpace(sql, index);
    index = after > index ? after : index + 1;
  }
  return sql.length;
}

/** The index after any whitespace and comments at `from`. */
function skipSpace(sql: string, from: number): number {
  let index = from;
  for (;;) {
    if (index < sql.length && /\s/.test(sql[index]!)) index++;
    else if (sql.startsWith('--', index)) {
      const end = sql.indexOf('\n', index);
      index = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', index)) {
      const end = sql.indexOf('*/', index + 2);
      index = end < 0 ? sql.length : end + 2;
    } else return index;
  }
}

function lineAndColumn(sql: string, index: number): { line: number; column: number } {
  const before = sql.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

const SYNTAX = /^(?:near "([\s\S]*)": syntax error|unrecognized token: "([\s\S]*)")$/;
const NAMED = /^(?:no such (?:table|column|function)|ambiguous column name): (.+)$/;

/** "SELEC 1": where it is, and what it most likely meant (--schema for SHOW and DESCRIBE). */
function notAStatement(sql: string, keyword: string): MirrorError {
  const at = skipSpace(sql, 0);
  const { line, column } = lineAndColumn(sql, at);
  const meant = SCHEMA_WORDS.has(keyword) ? undefined : closestName(keyword, [...READING]);
  const hint = meant ? `did you mean ${meant}?` : SCHEMA_WORDS.has(keyword) ? '`crm query --schema` lists the tables, views and columns' : `a statement that reads begins with ${[...READING].join(', ')}`;
  return new MirrorError(`SQL: near "${sql.slice(at, at + keyword.length)}": syntax error (line ${line}, column ${column})`, { usage: true, code: 'sql_error', hint });
}

const wouldWrite = () => new MirrorError('the replica is read-only: this statement would write (only `crm sync` changes it)', { usage: true, code: 'read_only' });

/** SQLite's failure as one line with its place in the statement; a write refused is said so. */
function sqlError(error: unknown, sql: string, db: Database): MirrorError {
  const message = error instanceof Error ? error.message : String(error);
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  // A PRAGMA that would change the file (the journal mode) fails on the read-only connection with an I/O error.
  const pragmaWrite = /^\s*PRAGMA\b/i.test(sql.slice(skipSpace(sql, 0))) && (code === 'SQLITE_IOERR' || (typeof errcode === 'number' && (errcode & 0xff) === 10) || /disk I\/O error/.test(message));
  const readOnly = pragmaWrite || code === 'SQLITE_READONLY' || (typeof errcode === 'number' && (errcode & 0xff) === 8) || /readonly database|does not return data|only for statements that return data/.test(message);
  if (readOnly) return wouldWrite();
  const at = locate(message, sql, db);
  const where = at === undefined ? '' : (({ line, column }) => ` (line ${line}, column ${column})`)(lineAndColumn(sql, at));
  const hint = /^no such (table|column)/.test(message) ? '`crm query --schema` lists the tables, views and columns' : undefined;
  return new MirrorError(`SQL: ${message.replace(/\s+/g, ' ')}${where}`, { usage: true, code: 'sql_error', hint });
}

/** Where in `sql` SQLite's message points, when it can be told. */
function locate(message: string, sql: string, db: Database): number | undefined {
  if (message === 'incomplete input') return sql.length;
  if (SYNTAX.test(message)) return locateSyntaxError(sql, db);
  const name = NAMED.exec(message)?.[1];
  if (name === undefined) return undefined;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, 'i').exec(sql);
  return found?.index;
}

/**
 * The parser stops at the first token it cannot take, whatever follows it: of the places where that
 * token's text occurs, the first where the statement cut just after it fails at it is the place
 * (each try a prepare, which runs nothing). Cut before that place the statement is only unfinished,
 * cut after it it fails there: the place is found by halving, a few prepares whatever the length
 * (trying each place in turn took 20,000 prepares of up to 100 KB, minutes, for a generated IN list
 * of 20,000 values with a comma too many at its end).
 */
function locateSyntaxError(sql: string, db: Database): number | undefined {
  const failingToken = (text: string): string | undefined => {
    try {
      db.prepare(text);
      return undefined;
    } catch (error) {
      const match = SYNTAX.exec(error instanceof Error ? error.message : '');
      return match ? (match[1] ?? match[2]) : undefined;
    }
  };
  const token = failingToken(sql);
  if (!token) return undefined;
  const places: number[] = [];
  for (let at = sql.indexOf(token); at >= 0; at = sql.indexOf(token, at + 1)) places.push(at);
  const failsThere = (at: number) => failingToken(`${sql.slice(0, at + token.length)} `) === token;
  let low = 0;
  let high = places.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (failsThere(places[middle]!)) high = middle;
    else low = middle + 1;
  }
  if (low < places.length) return places[low];
  // A token that runs to the end (an unclosed quote) changes when cut: it is where it ends.
  return sql.endsWith(token) ? sql.length - token.length : undefined;
}
