// An export at scale, measured against `crm sandbox serve` (called by bench/run.mjs; or on its own
// after `npm run build`). Every figure is a ratio measured in the same run, runs interleaved,
// medians of each side (this machine is shared and noisy): `crm contacts export` (CSV, the default,
// and NDJSON) of 100,000 records against 1,000 records, peak RSS (target: at most 1.2x), and
// against a bare fetch loop over the same pages, wall time (target: at most 1.0x). Speed over a
// network is bench/network.mjs's.
//
//   node bench/scale.mjs [--runs N (5)] [--records N]

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, scratchSpace, verdict } from './runs.mjs';
import { CRM, serveSandbox } from './serve.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 5);
const RECORDS = option('--records', 100_000);
const SMALL = 1_000;
const FETCH_LOOP = fileURLToPath(new URL('./fetch-pages.mjs', import.meta.url));
const node = process.execPath;

const space = scratchSpace('crm-bench-scale-');
const { home, measure } = space;

async function serve(env) {
  const server = await serveSandbox(env);
  return { stop: server.stop, url: server.url, key: server.api_key, env: { ...home(), CRM_BASE_URL: server.url, CRM_API_KEY: server.api_key } };
}

function csvFile(name, rows, company = () => 'Bench Co') {
  const path = space.path(name);
  const lines = ['name,email,company'];
  for (let index = 0; index < rows; index++) lines.push(`Bench Person ${index},${name}-${index}@example.com,${company(index)}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function benchExport() {
  // Seeded through crm itself, on the embedded sandbox (no server: in-process, fast).
  const env = home();
  const seedStart = Date.now();
  const seed = csvFile('seed', RECORDS, (index) => (index < SMALL ? 'Bench Small' : 'Bench Large'));
  const seeded = spawnSync(node, [CRM, 'contacts', 'import', seed, '--concurrency', '8', '-q'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
  console.log(`Export: seeded ${RECORDS} contacts (${SMALL} of them "Bench Small") in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);
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
    await server.stop();
  }
}

try {
  await benchExport();
} finally {
  space.remove();
}
