// Creating, upgrading and reseeding the sandbox's database: loaded only when one of these is due
// (src/sandbox/index.ts), so that a command on a current database does not load the schema and the
// demo data.

import { seedDemoData } from './seed.js';
import { newApiKey } from './ids.js';
import type { Store } from './store.js';

/**
 * Schema migrations: step N (0-based) takes the database from user_version N to N + 1. Append new
 * steps (and raise SCHEMA_VERSION in ./index.ts with them); never edit a released one.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    domain TEXT,
    industry TEXT,
    employees INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX accounts_created ON accounts (created_at);

  CREATE TABLE lists (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);

  CREATE TABLE contacts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    company TEXT,
    phone TEXT,
    title TEXT,
    status TEXT NOT NULL,
    account_id TEXT REFERENCES accounts (id),
    score INTEGER,
    next_best_action TEXT,
    scored_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX contacts_created ON contacts (created_at);
  -- Email is unique among live contacts only: a deleted contact's address can be reused.
  CREATE UNIQUE INDEX contacts_live_email ON contacts (lower(email)) WHERE deleted_at IS NULL;

  CREATE TABLE list_members (
    list_id TEXT NOT NULL REFERENCES lists (id),
    contact_id TEXT NOT NULL REFERENCES contacts (id),
    PRIMARY KEY (contact_id, list_id)
  ) WITHOUT ROWID;

  CREATE TABLE stages (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    position INTEGER NOT NULL UNIQUE,
    probability INTEGER NOT NULL,
    is_closed INTEGER NOT NULL,
    is_won INTEGER NOT NULL
  );
  INSERT INTO stages (id, name, position, probability, is_closed, is_won) VALUES
    ('prospecting', 'Prospecting', 1, 10, 0, 0),
    ('qualification', 'Qualification', 2, 25, 0, 0),
    ('proposal', 'Proposal', 3, 50, 0, 0),
    ('negotiation', 'Negotiation', 4, 75, 0, 0),
    ('closed_won', 'Closed Won', 5, 100, 1, 1),
    ('closed_lost', 'Closed Lost', 6, 0, 1, 0);

  CREATE TABLE deals (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    amount REAL NOT NULL,
    currency TEXT NOT NULL,
    stage TEXT NOT NULL REFERENCES stages (id),
    account_id TEXT REFERENCES accounts (id),
    contact_id TEXT REFERENCES contacts (id),
    close_date TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX deals_created ON deals (created_at);
  CREATE INDEX deals_contact ON deals (contact_id);

  CREATE TABLE deal_activities (
    id TEXT PRIMARY KEY,
    deal_id TEXT NOT NULL REFERENCES deals (id),
    type TEXT NOT NULL,
    from_stage TEXT REFERENCES stages (id),
    to_stage TEXT REFERENCES stages (id),
    created_at TEXT NOT NULL
  );
  CREATE INDEX deal_activities_deal ON deal_activities (deal_id, created_at);

  CREATE TABLE sequences (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL,
    steps TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX sequences_created ON sequences (created_at);

  CREATE TABLE enrollments (
    id TEXT PRIMARY KEY,
    contact_id TEXT NOT NULL REFERENCES contacts (id),
    sequence_id TEXT NOT NULL REFERENCES sequences (id),
    status TEXT NOT NULL,
    enrolled_at TEXT NOT NULL,
    UNIQUE (sequence_id, contact_id)
  );
  CREATE INDEX enrollments_contact ON enrollments (contact_id);

  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL,
    priority TEXT NOT NULL,
    due_date TEXT,
    contact_id TEXT REFERENCES contacts (id),
    deal_id TEXT REFERENCES deals (id),
    completed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX tasks_created ON tasks (created_at);
  CREATE INDEX tasks_contact ON tasks (contact_id);
  CREATE INDEX tasks_deal ON tasks (deal_id);

  CREATE TABLE notes (
    id TEXT PRIMARY KEY,
    contact_id TEXT NOT NULL REFERENCES contacts (id),
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX notes_contact ON notes (contact_id, created_at);

  CREATE TABLE emails (
    id TEXT PRIMARY KEY,
    contact_id TEXT NOT NULL REFERENCES contacts (id),
    sequence_id TEXT REFERENCES sequences (id),
    subject TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    opened_at TEXT,
    replied_at TEXT
  );
  CREATE INDEX emails_contact ON emails (contact_id);
  CREATE INDEX emails_sent ON emails (sent_at);

  CREATE TABLE suggestions (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    contact_id TEXT REFERENCES contacts (id),
    deal_id TEXT REFERENCES deals (id),
    title TEXT NOT NULL,
    reason TEXT NOT NULL,
    action TEXT,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    accepted_at TEXT,
    task_id TEXT REFERENCES tasks (id)
  );
  CREATE INDEX suggestions_created ON suggestions (created_at);
  -- At most one pending suggestion per contact (contact-level ones) and per deal (deal risks).
  CREATE UNIQUE INDEX suggestions_pending_contact ON suggestions (contact_id) WHERE status = 'pending' AND deal_id IS NULL;
  CREATE UNIQUE INDEX suggestions_pending_deal ON suggestions (deal_id) WHERE status = 'pending' AND deal_id IS NOT NULL;

  -- Accepted POST /ai/trigger calls, shared by every process that opens the database.
  CREATE TABLE rate_limit_hits (bucket TEXT NOT NULL, at_ms INTEGER NOT NULL);
  CREATE INDEX rate_limit_hits_bucket ON rate_limit_hits (bucket, at_ms);
  `,
  // Fields the spec does not show, kept whole as a JSON object (src/sandbox/validation.ts).
  `
  ALTER TABLE accounts ADD COLUMN extra_fields TEXT;
  ALTER TABLE contacts ADD COLUMN extra_fields TEXT;
  ALTER TABLE deals ADD COLUMN extra_fields TEXT;
  ALTER TABLE sequences ADD COLUMN extra_fields TEXT;
  ALTER TABLE tasks ADD COLUMN extra_fields TEXT;
  `,
];

/**
 * Brings the database to `target`, the version the sandbox's code reads and writes, which must be
 * the number of migrations. The version is re-read under the write lock, so of several processes
 * opening a new database at once exactly one migrates (and seeds); the others find the work done.
 */
export function migrate(store: Store, target: number, seed: boolean): void {
  if (target !== MIGRATIONS.length) throw new Error(`The sandbox's code is at schema version ${target}, its migrations at ${MIGRATIONS.length}: raise SCHEMA_VERSION with each migration`);
  store.write(() => {
    const version = store.userVersion();
    if (version > target) {
      throw new Error(`The sandbox database has schema version ${version}, newer than this crm understands (${target}); upgrade crm or reset the sandbox`);
    }
    for (const step of MIGRATIONS.slice(version)) store.db.exec(step);
    if (version === 0) {
      store.setMeta('api_key', newApiKey());
      store.setMeta('created_at', store.nowIso());
      store.setMeta('seeded', String(seed));
      if (seed) seedDemoData(store);
    }
    store.setMeta('schema_version', String(target));
    store.db.exec(`PRAGMA user_version = ${target}`);
  });
}

/**
 * Fresh demo data in place of everything, in one write transaction: every row goes but the key and
 * the fixed pipeline stages, then the seed runs again. Other connections (a running `crm sandbox
 * serve`, other crm processes) see the old data or the new, never a mix, and keep writing to the
 * same file.
 */
export function reseed(store: Store): void {
  store.write(() => {
    // Rows are deleted table by table; the references between them are checked at commit.
    store.db.exec('PRAGMA defer_foreign_keys = ON');
    const tables = store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('meta', 'stages') AND name NOT LIKE 'sqlite_%'");
    for (const { name } of tables) store.db.exec(`DELETE FROM "${name}"`);
    store.run("DELETE FROM meta WHERE key NOT IN ('api_key', 'schema_version')");
    store.setMeta('created_at', store.nowIso());
    store.setMeta('seeded', 'true');
    seedDemoData(store);
  });
}
