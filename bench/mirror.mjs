// The replica at scale (issue 24), measured against `crm sandbox serve` (called by bench/run.mjs;
// or on its own after `npm run build`). Ratios measured in one run, runs interleaved, medians:
//
// - first sync: `crm sync contacts` into an empty replica against `crm contacts export --format
//   ndjson` of the same 100,000 contacts (target: at most 1.2x the export's wall time); with
//   --rtt MS both go through bench/remote-server.mjs, a round trip on every answer.
// - memory: the first sync's peak RSS for 100,000 contacts against 1,000 (target: at most 1.2x).
// - requests, counted by bench/remote-server.mjs in front of the server: a full re-walk of 100,000
//   contacts with nothing changed (the pages plus a constant), and `crm sync --new` after 100 new
//   contacts (target: at most 3 + 100 / 50).
// - a GROUP BY over 100,000 deals in the replica (target: under 100 ms), timed on the replica file
//   with the same SQLite, and `crm query` as a whole process next to `node -e 0`.
//
// The workspaces are seeded by writing the sandbox's database directly (one INSERT ... SELECT over a
// recursive CTE per table: seconds, where `contacts import` would take minutes).
//
//   node bench/mirror.mjs [--runs N (3)] [--records N (100000)] [--rtt MS (0)]

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { median, scratchSpace, verdict } from './runs.mjs';
import { CRM, serveRemote, serveSandbox } from './serve.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 3);
const RECORDS = option('--records', 100_000);
const RTT = option('--rtt', 0);
const SMALL = 1_000;
const NEW_CONTACTS = 100;
const require = createRequire(import.meta.url);

const space = scratchSpace('crm-bench-mirror-');
const { home } = space;
const measure = (argv, env, options = {}) => space.measure(argv, env, { ...options, stdout: true });

/** The SQLite this Node has: node:sqlite, else the better-sqlite3 crm installs on Node 20. */
function openSqlite(path, readOnly = false) {
  try {
    const { DatabaseSync } = require('node:sqlite');
    return new DatabaseSync(path, { readOnly });
  } catch {
    const BetterSqlite = require('better-sqlite3');
    return new BetterSqlite(path, { readonly: readOnly });
  }
}

/** A sandbox with `contacts` bench contacts and `deals` bench deals besides its demo data, written straight into its database. */
function seededWorkspace(contacts, deals) {
  const env = home();
  measure([CRM, 'sandbox', 'init'], env);
  const db = openSqlite(join(env.XDG_DATA_HOME, 'crm', 'sandbox.db'));
  const at = "strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' seconds')";
  db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${contacts})
    INSERT INTO contacts (id, name, email, company, status, created_at, updated_at)
    SELECT printf('con_bench%08d', i), 'Bench Person ' || i, 'bench-' || i || '@example.com', 'Bench Co', 'lead', ${at}, ${at} FROM n`);
  if (deals > 0) {
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${deals})
      INSERT INTO deals (id, name, amount, currency, stage, created_at, updated_at)
      SELECT printf('deal_bench%08d', i), 'Bench deal ' || i, (i % 97) * 1000 + 500, 'USD',
        CASE i % 6 WHEN 0 THEN 'prospecting' WHEN 1 THEN 'qualification' WHEN 2 THEN 'proposal' WHEN 3 THEN 'negotiation' WHEN 4 THEN 'closed_won' ELSE 'closed_lost' END,
        ${at}, ${at} FROM n`);
  }
  const count = (table) => db.prepare(`SELECT count(*) AS n FROM ${table} WHERE deleted_at IS NULL`).get().n;
  const counts = { contacts: count('contacts'), deals: count('deals') };
  db.close();
  return { env, counts };
}

/** A client's environment for a server (a home of its own: its own replica, of the profile `sandbox`, as nothing is configured). */
const client = (url, key) => ({ ...home(), CRM_BASE_URL: url, CRM_API_KEY: key });
const reportOf = (stdout) => JSON.parse(stdout);

const seedStart = Date.now();
const large = seededWorkspace(RECORDS, RECORDS);
const small = seededWorkspace(SMALL, 0);
console.log(`Replica: seeded ${large.counts.contacts} contacts and ${large.counts.deals} deals (and a workspace of ${small.counts.contacts} contacts) in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);

const largeServer = await serveSandbox(large.env);
const smallServer = await serveSandbox(small.env);
const remote = await serveRemote(['--rtt', String(RTT), '--upstream', largeServer.url, ...(RTT === 0 ? ['--no-connect-rtt'] : [])]);
try {
  // Through the remote server when a round trip is asked for; straight to the sandbox otherwise.
  const walked = RTT > 0 ? { url: remote.url, key: largeServer.api_key } : { url: largeServer.url, key: largeServer.api_key };
  const exportEnv = client(walked.url, walked.key);
  const exports = [];
  const syncs = [];
  const smallSyncs = [];
  for (let run = 0; run < RUNS; run++) {
    exports.push(space.measure([CRM, 'contacts', 'export', '--format', 'ndjson'], exportEnv));
    syncs.push(measure([CRM, 'sync', 'contacts', '--json'], client(walked.url, walked.key), { peak: true }));
    smallSyncs.push(measure([CRM, 'sync', 'contacts', '--json'], client(smallServer.url, smallServer.api_key), { peak: true }));
  }
  const line = (label, value) => console.log(`  ${label.padEnd(58)} ${value}`);
  const wallExport = median(exports.map((r) => r.ms));
  const wallSync = median(syncs.map((r) => r.ms));
  const paired = median(syncs.map((r, run) => r.ms / exports[run].ms));
  console.log(`First sync against contacts export, ${RUNS} interleaved runs (medians)${RTT > 0 ? `, ${RTT} ms round trip` : ', loopback'}:`);
  line(`crm contacts export --format ndjson, ${large.counts.contacts} contacts`, `${(wallExport / 1000).toFixed(1).padStart(7)} s`);
  line(`crm sync contacts (first), ${large.counts.contacts} contacts`, `${(wallSync / 1000).toFixed(1).padStart(7)} s   ratio ${(wallSync / wallExport).toFixed(2)} (median of each run's ${paired.toFixed(2)})  target <= 1.2: ${verdict(wallSync / wallExport <= 1.2)}`);
  const peakSmall = median(smallSyncs.map((r) => r.peakKb)) / 1024;
  const peakLarge = median(syncs.map((r) => r.peakKb)) / 1024;
  line(`peak RSS of the first sync, ${small.counts.contacts} contacts`, `${peakSmall.toFixed(1).padStart(7)} MB`);
  line(`peak RSS of the first sync, ${large.counts.contacts} contacts`, `${peakLarge.toFixed(1).padStart(7)} MB  ratio ${(peakLarge / peakSmall).toFixed(2)}  target <= 1.2: ${verdict(peakLarge / peakSmall <= 1.2)}`);

  // Requests, counted where they arrive.
  const counted = client(remote.url, largeServer.api_key);
  measure([CRM, 'sync', 'contacts'], counted);
  await remote.reset();
  const rewalk = reportOf(measure([CRM, 'sync', 'contacts', '--json'], counted).stdout)[0];
  const rewalkGets = (await remote.stats()).gets;
  const pages = 1 + Math.ceil((large.counts.contacts - 50) / 48);
  console.log(`Requests (counted by the server in front):`);
  line(`full re-walk of ${rewalk.records} contacts, nothing changed`, `${rewalkGets} requests (the walk's pages: ${pages}; constant ${rewalkGets - pages}; crm's report: ${rewalk.requests}); ${rewalk.added + rewalk.changed + rewalk.removed} changes`);
  for (let index = 0; index < NEW_CONTACTS; index++) {
    const response = await fetch(`${largeServer.url}/contacts`, {
      method: 'POST',
      headers: { 'x-service-api-key': largeServer.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `New Person ${index}`, email: `new-${index}@example.com` }),
    });
    if (response.status !== 201) throw new Error(`POST /contacts answered ${response.status}`);
  }
  await remote.reset();
  const fresh = reportOf(measure([CRM, 'sync', 'contacts', '--new', '--json'], counted).stdout)[0];
  const freshGets = (await remote.stats()).gets;
  const bound = 3 + NEW_CONTACTS / 50;
  line(`crm sync --new after ${NEW_CONTACTS} new contacts`, `${freshGets} requests (added ${fresh.added}; crm's report: ${fresh.requests})  target <= ${bound}: ${verdict(freshGets <= bound && fresh.added === NEW_CONTACTS)}`);

  // A GROUP BY over the deals.
  const analyst = client(largeServer.url, largeServer.api_key);
  const dealSync = reportOf(measure([CRM, 'sync', 'deals', '--json'], analyst).stdout)[0];
  const sql = 'SELECT stage, count(*) AS deals, sum(amount) AS total FROM deals GROUP BY stage';
  const replica = openSqlite(join(analyst.XDG_DATA_HOME, 'crm', 'replicas', 'sandbox.db'), true);
  const statement = replica.prepare(sql);
  statement.all();
  const inSqlite = [];
  for (let run = 0; run < 21; run++) {
    const start = process.hrtime.bigint();
    statement.all();
    inSqlite.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  replica.close();
  const processes = [];
  const bare = [];
  for (let run = 0; run < 7; run++) {
    processes.push(measure([CRM, 'query', sql, '-o', 'json'], analyst).ms);
    bare.push(measure(['-e', '0'], analyst).ms);
  }
  console.log(`GROUP BY over ${dealSync.records} deals in the replica:`);
  line('the statement, in SQLite (median of 21)', `${median(inSqlite).toFixed(1).padStart(7)} ms  target < 100: ${verdict(median(inSqlite) < 100)}`);
  line('crm query, the whole process (median of 7)', `${median(processes).toFixed(0).padStart(7)} ms  (node -e 0: ${median(bare).toFixed(0)} ms)`);
} finally {
  await Promise.all([largeServer, smallServer, remote].map((server) => server.stop()));
  space.remove();
}
