// Speed where the network is the limit (called by bench/run.mjs; or on its own after `npm run
// build`), against bench/remote-server.mjs: a workspace a round trip away (--rtt, 40 ms) that takes
// at most 50 POSTs a second (token bucket, 429 + Retry-After). Runs interleaved, medians, ratios
// measured in the same run:
//
// - import: `crm contacts import` of 300 rows (default settings), whole process included, as a
//   share of the POST limit (target: at least 0.9), and the share of its POSTs answered 429
//   (target: at most 10 %).
// - export: `crm contacts export --format ndjson` of 3,000 contacts against a sequential loop over
//   the same pages (bench/fetch-pages.mjs: one page of 50 after the other), wall time (target: at
//   most 0.3).
// - bulk: `crm tasks update - --priority ...` of 40 tasks (ids on stdin) against one `crm tasks
//   update ID` process a task, one after the other (what `xargs -n1` does), against a `crm sandbox
//   serve` behind the same round trip; wall time (target: at most 0.2).
//
//   node bench/network.mjs [--runs N (5)] [--rtt MS (40)] [--post-rate N (50)] [--skip-import] [--skip-export] [--skip-bulk]

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, scratchSpace, verdict } from './runs.mjs';
import { CRM, serveRemote, serveSandbox } from './serve.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 5);
const RTT = option('--rtt', 40);
const POST_RATE = option('--post-rate', 50);
const IMPORT_ROWS = 300;
const EXPORT_RECORDS = 3_000;
const BULK_RECORDS = 40;
const FETCH_LOOP = fileURLToPath(new URL('./fetch-pages.mjs', import.meta.url));

const space = scratchSpace('crm-bench-network-');

/** A user's environment pointed at the server (no proxy: the server is on this machine). */
function envFor(server) {
  const env = Object.fromEntries(Object.entries(space.home()).filter(([key]) => !/^(https?|no)_proxy$/i.test(key)));
  return { ...env, CRM_BASE_URL: server.url, CRM_API_KEY: server.api_key };
}

const wall = (argv, env, input) => space.measure(argv, env, { input }).ms;

async function benchImport() {
  const server = await serveRemote(['--rtt', String(RTT), '--post-rate', String(POST_RATE)]);
  try {
    const env = envFor(server);
    const shares = [];
    const refusals = [];
    for (let run = 0; run < RUNS; run++) {
      const file = space.path(`import-${run}.csv`);
      const rows = Array.from({ length: IMPORT_ROWS }, (_, index) => `Remote Row ${index},row-${run}-${index}@example.com,Bench Co`);
      writeFileSync(file, `name,email,company\n${rows.join('\n')}\n`);
      // The bucket full again, as a user's first import finds it.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await server.reset();
      const ms = wall([CRM, 'contacts', 'import', file, '-q'], env);
      const stats = await server.stats();
      if (stats.accepted !== IMPORT_ROWS) throw new Error(`run ${run}: ${stats.accepted} rows created, not ${IMPORT_ROWS}`);
      shares.push(IMPORT_ROWS / (ms / 1000) / POST_RATE);
      refusals.push(stats.refused / stats.posts);
    }
    const share = median(shares);
    const refused = Math.max(...refusals);
    console.log(`Import of ${IMPORT_ROWS} rows, ${RTT} ms away, POSTs limited to ${POST_RATE}/s, ${RUNS} runs (whole process):`);
    console.log(`  rows a second to the limit (median)   ${share.toFixed(2)}  (min ${Math.min(...shares).toFixed(2)}, max ${Math.max(...shares).toFixed(2)})  target >= 0.9: ${verdict(share >= 0.9)}`);
    console.log(`  POSTs answered 429 (worst run)        ${(refused * 100).toFixed(1)} %  (median ${(median(refusals) * 100).toFixed(1)} %)  target <= 10 %: ${verdict(refused <= 0.1)}`);
  } finally {
    await server.stop();
  }
}

async function benchExport() {
  const server = await serveRemote(['--rtt', String(RTT), '--post-rate', String(POST_RATE), '--contacts', String(EXPORT_RECORDS)]);
  try {
    const env = envFor(server);
    const crm = [];
    const loop = [];
    for (let run = 0; run < RUNS; run++) {
      crm.push(wall([CRM, 'contacts', 'export', '--format', 'ndjson'], env));
      loop.push(wall([FETCH_LOOP, server.url, server.api_key], env));
    }
    const ratio = median(crm) / median(loop);
    console.log(`\nExport of ${EXPORT_RECORDS} contacts, ${RTT} ms away, ${RUNS} interleaved runs (medians):`);
    console.log(`  sequential page loop (bench/fetch-pages.mjs)   ${(median(loop) / 1000).toFixed(2)} s`);
    console.log(`  crm contacts export --format ndjson            ${(median(crm) / 1000).toFixed(2)} s   ratio ${ratio.toFixed(2)}  target <= 0.3: ${verdict(ratio <= 0.3)}`);
  } finally {
    await server.stop();
  }
}

async function benchBulk() {
  const sandbox = await serveSandbox(space.home());
  const server = await serveRemote(['--rtt', String(RTT), '--post-rate', String(POST_RATE), '--upstream', sandbox.url]);
  try {
    const env = { ...envFor(server), CRM_API_KEY: sandbox.api_key };
    const ids = space.measure([CRM, 'tasks', 'list', '--limit', String(BULK_RECORDS), '-q'], env, { stdout: true }).stdout.trim().split('\n');
    if (ids.length !== BULK_RECORDS) throw new Error(`${ids.length} tasks listed, not ${BULK_RECORDS}`);
    const bulk = [];
    const loop = [];
    for (let run = 0; run < RUNS; run++) {
      bulk.push(wall([CRM, 'tasks', 'update', '-', '--priority', 'high'], env, `${ids.join('\n')}\n`));
      loop.push(ids.reduce((total, id) => total + wall([CRM, 'tasks', 'update', id, '--priority', 'low'], env), 0));
    }
    const ratio = median(bulk) / median(loop);
    console.log(`\nUpdate of ${BULK_RECORDS} tasks, ${RTT} ms away, ${RUNS} interleaved runs (medians):`);
    console.log(`  one crm process a task, one after the other (xargs -n1)   ${(median(loop) / 1000).toFixed(2)} s`);
    console.log(`  crm tasks update - (the ids on stdin)                     ${(median(bulk) / 1000).toFixed(2)} s   ratio ${ratio.toFixed(2)}  target <= 0.2: ${verdict(ratio <= 0.2)}`);
  } finally {
    await Promise.all([server.stop(), sandbox.stop()]);
  }
}

try {
  if (!args.includes('--skip-import')) await benchImport();
  if (!args.includes('--skip-export')) await benchExport();
  if (!args.includes('--skip-bulk')) await benchBulk();
} finally {
  space.remove();
}
