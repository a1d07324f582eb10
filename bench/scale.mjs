// Scripting at scale, measured against `crm sandbox serve` (called by bench/run.mjs; or on its own
// after `npm run build`). Every figure is a ratio measured in the same run, runs interleaved,
// medians of each side (this machine is shared and noisy):
//
// - import: `crm contacts import` of 2,000 rows against the server's own capacity for the same
//   POST /contacts at the same concurrency, measured with autocannon (target: at least 0.8). Two
//   rates: the sending rate, like the load tool's own (start-up excluded: the time of a 2,000-row
//   import minus that of a 1-row import, run next to it), which the target is about; and the whole
//   process's (start, reading, checking, sending). And, to tell crm's cost from the HTTP client's,
//   a bare node:http loop sending the same POSTs (bench/post-loop.mjs).
// - export: `crm contacts export` (CSV, the default, and NDJSON) of 100,000 records against 1,000
//   records, peak RSS (target: at most 1.2x), and against a bare fetch loop over the same pages,
//   wall time (target: at most 1.0x).
//
//   node bench/scale.mjs [--runs N (export, 5)] [--import-runs N (9)] [--records N] [--skip-import] [--skip-export]

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, scratchSpace, verdict } from './runs.mjs';
import { CRM, serveSandbox } from './serve.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 5);
/** The import's runs are seconds each and noisier than the export's minutes: more of them. */
const IMPORT_RUNS = option('--import-runs', 9);
const RECORDS = option('--records', 100_000);
const SMALL = 1_000;
const IMPORT_ROWS = 2_000;
const CONCURRENCY = 4;
const FETCH_LOOP = fileURLToPath(new URL('./fetch-pages.mjs', import.meta.url));
const POST_LOOP = fileURLToPath(new URL('./post-loop.mjs', import.meta.url));
const node = process.execPath;

const space = scratchSpace('crm-bench-scale-');
const { home, measure } = space;

async function serve(env) {
  const server = await serveSandbox(env);
  return { child: server.child, url: server.url, key: server.api_key, env: { ...home(), CRM_BASE_URL: server.url, CRM_API_KEY: server.api_key } };
}

function csvFile(name, rows, company = () => 'Bench Co') {
  const path = space.path(name);
  const lines = ['name,email,company'];
  for (let index = 0; index < rows; index++) lines.push(`Bench Person ${index},${name}-${index}@example.com,${company(index)}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function benchImport() {
  const server = await serve(home());
  try {
    const { default: autocannon } = await import('autocannon');
    let sent = 0;
    // The server's capacity: requests answered in a fixed time (autocannon ends a run by `amount`
    // only on its next one-second tick, which would understate it).
    const capacity = (seconds) =>
      new Promise((resolve, reject) =>
        autocannon(
          {
            url: `${server.url}/contacts`,
            connections: CONCURRENCY,
            duration: seconds,
            headers: { 'x-service-api-key': server.key, 'content-type': 'application/json' },
            requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: 'Load Person', email: `load-${++sent}@example.com` }) }) }],
          },
          (error, result) => {
            if (error) return reject(error);
            if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors`));
            resolve(result.requests.total / seconds);
          },
        ),
      );
    const loads = [];
    const loops = [];
    const imports = [];
    const sending = [];
    const importCsv = (file) => measure([CRM, 'contacts', 'import', file, '--concurrency', String(CONCURRENCY), '-q'], server.env).ms;
    await capacity(1); // warm-up of the server
    for (let run = 0; run < IMPORT_RUNS; run++) {
      loads.push(await capacity(2));
      loops.push(IMPORT_ROWS / (measure([POST_LOOP, server.url, server.key, String(IMPORT_ROWS), String(CONCURRENCY), `loop-${run}`], server.env).ms / 1000));
      const whole = importCsv(csvFile(`import-${run}`, IMPORT_ROWS));
      const fixed = importCsv(csvFile(`import-one-${run}`, 1));
      imports.push(IMPORT_ROWS / (whole / 1000));
      sending.push((IMPORT_ROWS - 1) / ((whole - fixed) / 1000));
    }
    const line = (label, values, unit) => console.log(`  ${label.padEnd(52)} ${median(values).toFixed(0).padStart(6)} ${unit} (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`);
    console.log(`Import of ${IMPORT_ROWS} rows at concurrency ${CONCURRENCY}, ${IMPORT_RUNS} interleaved runs (medians):`);
    line('server capacity, POST /contacts (autocannon)', loads, 'req/s ');
    line('bare node:http loop, same POSTs (whole process)', loops, 'rows/s');
    line('crm contacts import, sending (start-up excluded)', sending, 'rows/s');
    line('crm contacts import (whole process)', imports, 'rows/s');
    const ratio = median(sending) / median(loads);
    // Each run's own ratio too: the machine's speed drifts between runs more than within one.
    const paired = median(sending.map((rate, run) => rate / loads[run]));
    console.log(`  sending rate to the capacity ${ratio.toFixed(2)} (median of each run's ratio ${paired.toFixed(2)})  target >= 0.8: ${verdict(ratio >= 0.8)}`);
    console.log(`  whole process to the capacity ${(median(imports) / median(loads)).toFixed(2)}; to the bare node:http loop ${(median(imports) / median(loops)).toFixed(2)}`);
  } finally {
    server.child.kill('SIGTERM');
  }
}

async function benchExport() {
  // Seeded through crm itself, on the embedded sandbox (no server: in-process, fast).
  const env = home();
  const seedStart = Date.now();
  const seed = csvFile('seed', RECORDS, (index) => (index < SMALL ? 'Bench Small' : 'Bench Large'));
  const seeded = spawnSync(node, [CRM, 'contacts', 'import', seed, '--concurrency', '8', '-q'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
  console.log(`\nExport: seeded ${RECORDS} contacts (${SMALL} of them "Bench Small") in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);
  const server = await serve(env);
  try {
    const formats = ['csv', 'ndjson'];
    const small = Object.fromEntries(formats.map((format) => [format, []]));
    const large = Object.fromEntries(formats.map((format) => [format, []]));
    const bare = [];
    for (let run = 0; run < RUNS; run++) {
      for (const format of formats) {
        small[format].push(measure([CRM, 'contacts', 'export', '--format', format, '--search', 'Bench Small'], server.env, { peak: true }));
        large[format].push(measure([CRM, 'contacts', 'export', '--format', format], server.env, { peak: true }));
      }
      bare.push(measure([FETCH_LOOP, server.url, server.key], server.env));
    }
    const line = (label, value) => console.log(`  ${label.padEnd(44)} ${value}`);
    const wallBare = median(bare.map((r) => r.ms));
    console.log(`Export, ${RUNS} interleaved runs (medians):`);
    line('wall, bare fetch loop over the pages', `${(wallBare / 1000).toFixed(1).padStart(7)} s`);
    for (const format of formats) {
      const peakSmall = median(small[format].map((r) => r.peakKb)) / 1024;
      const peakLarge = median(large[format].map((r) => r.peakKb)) / 1024;
      const wallLarge = median(large[format].map((r) => r.ms));
      line(`${format}: peak RSS, ${SMALL} records`, `${peakSmall.toFixed(1).padStart(7)} MB`);
      line(`${format}: peak RSS, ${RECORDS} records`, `${peakLarge.toFixed(1).padStart(7)} MB  ratio ${(peakLarge / peakSmall).toFixed(2)}  target <= 1.2: ${verdict(peakLarge / peakSmall <= 1.2)}`);
      line(`${format}: wall, ${RECORDS} records`, `${(wallLarge / 1000).toFixed(1).padStart(7)} s   ratio to the bare loop ${(wallLarge / wallBare).toFixed(2)}  target <= 1.0: ${verdict(wallLarge / wallBare <= 1.0)}`);
    }
  } finally {
    server.child.kill('SIGTERM');
  }
}

try {
  if (!args.includes('--skip-import')) await benchImport();
  if (!args.includes('--skip-export')) await benchExport();
} finally {
  space.remove();
}
