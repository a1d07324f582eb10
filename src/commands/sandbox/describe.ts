// What crm sandbox init and status print about the local database.

import { existsSync } from 'node:fs';
import { describeSandbox } from '../../transport/sandbox.js';

/** Path, SQLite binding, key and counts; opening creates and seeds the database unless `seed` is false. */
export async function describeDatabase(dbPath: string, seed = false): Promise<Record<string, unknown>> {
  if (!seed && !existsSync(dbPath)) return { path: dbPath, exists: false };
  return { path: dbPath, exists: true, ...(await describeSandbox(dbPath, seed)) };
}
