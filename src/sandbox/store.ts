import type { Database, RunResult, SqlParam, Statement } from '../sqlite/database.js';

/** The values are validated input (strings, numbers, null), typed `unknown` as parsed JSON is. */
const bindable = (params: unknown[]): SqlParam[] => params as SqlParam[];

/**
 * The sandbox's view of its database: cached prepared statements, the injected clock and the two
 * transaction kinds. Writes always take the write lock up front (IMMEDIATE) so that concurrent
 * processes queue on busy_timeout instead of failing to upgrade a read lock.
 */
export class Store {
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly db: Database,
    private readonly clock: () => Date,
  ) {}

  now(): Date {
    return this.clock();
  }

  nowIso(): string {
    return this.clock().toISOString();
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.statement(sql).get(...bindable(params)) as T | undefined;
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.statement(sql).all(...bindable(params)) as T[];
  }

  run(sql: string, ...params: unknown[]): RunResult {
    return this.statement(sql).run(...bindable(params));
  }

  write<T>(work: () => T): T {
    return this.db.transaction(work, 'immediate');
  }

  /** A read transaction, so that a list's page and its total come from one snapshot. */
  read<T>(work: () => T): T {
    return this.db.transaction(work, 'deferred');
  }

  /** The schema version the database is at (src/sandbox/schema.ts). */
  userVersion(): number {
    return this.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
  }

  meta(key: string): string | undefined {
    return this.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
