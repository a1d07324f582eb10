// npm run bench: start-up and request cost of the built crm (and of its shell completion's fast
// path), as ratios to `node -e 0` measured in the same run (this machine is shared and noisy:
// ratios of medians, never absolute targets), and the sandbox server's throughput under autocannon.
//
// Then bench/network.mjs: import and export where the network is the limit (a workspace 40 ms away
// that takes 50 POSTs a second; --skip-network leaves it out), and bench/scale.mjs: an export of
// 100,000 records (minutes; --skip-scale leaves it out), and bench/mirror.mjs: the replica at scale
// (minutes; --skip-mirror).
//
//   node bench/run.mjs [--runs N] [--skip-load] [--skip-network] [--skip-scale] [--skip-mirror]

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './runs.mjs';
import { CRM, serveSandbox } from './serve.mjs';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 25;
const node = process.execPath;

const homes = [];
/** The user's own environment (minus CRM_* settings), with a fresh home for config and data. */
function home() {
  const dir = mkdtempSync(join(tmpdir(), 'crm-bench-'));
  homes.push(dir);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CRM_')));
  return { ...env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'cache') };
}

const USAGE = fileURLToPath(new URL('./usage.cjs', import.meta.url));
const usageFile = join(home().HOME, 'usage.json');

/** One run: its wall time, and the CPU time the process took (bench/usage.cjs, preloaded into every case alike). */
function timeOnce(argv, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(argv[0], ['-r', USAGE, ...argv.slice(1)], { env: { ...env, CRM_BENCH_USAGE_FILE: usageFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, cpuMs: JSON.parse(readFileSync(usageFile, 'utf8')).cpuMs };
}

/** Runs the cases interleaved (a, b, c, a, b, c, ...) so drift hits all alike; one warm-up each. */
function measure(cases) {
  const runs = cases.map(() => []);
  cases.forEach((c) => timeOnce(c.argv, c.env));
  for (let run = 0; run < RUNS; run++) cases.forEach((c, index) => runs[index].push(timeOnce(c.argv, c.env)));
  return cases.map((c, index) => {
    const wall = runs[index].map((r) => r.ms);
    return { ...c, median: median(wall), min: Math.min(...wall), max: Math.max(...wall), cpu: median(runs[index].map((r) => r.cpuMs)) };
  });
}

const server = await serveSandbox(home());
try {
  // A user's setup: a stored profile (auth login), no CRM_* variables.
  const remote = home();
  const login = spawnSync(node, [CRM, 'auth', 'login', '--base-url', server.url, '--with-key'], { env: remote, input: server.api_key });
  if (login.status !== 0) throw new Error(`auth login failed: ${login.stderr}`);
  const embedded = home();
  timeOnce([node, CRM, 'sandbox', 'init'], embedded);

  // V8's compiled code of crm is kept between runs (bin/crm.js): each case's warm-up run writes it,
  // as a user's first command does, and the runs measured read it. The last case compiles afresh.
  const results = measure([
    { name: 'node -e 0', argv: [node, '-e', '0'], env: remote },
    { name: 'crm --version', argv: [node, CRM, '--version'], env: remote, target: 1.2 },
    { name: 'crm contacts list --json (stored profile, loopback HTTP)', argv: [node, CRM, 'contacts', 'list', '--json'], env: remote, target: 1.45 },
    { name: 'crm contacts list --json (embedded sandbox)', argv: [node, CRM, 'contacts', 'list', '--json'], env: embedded, target: 1.6 },
    // What --jq adds (its engine, loaded only for --jq): no target, the figure is for the README.
    { name: "crm contacts list --jq '.[].id' (stored profile)", argv: [node, CRM, 'contacts', 'list', '--jq', '.[].id'], env: remote },
    // What a shell runs on TAB for a profile or a stage; the warm-up run fills the stage cache.
    { name: 'crm __complete profiles (shell completion)', argv: [node, CRM, '__complete', 'profiles'], env: remote, target: 1.2 },
    { name: 'crm __complete stages (shell completion, cached)', argv: [node, CRM, '__complete', 'stages'], env: remote, target: 1.2 },
    { name: 'crm contacts list --json (embedded, no compile cache)', argv: [node, CRM, 'contacts', 'list', '--json'], env: { ...embedded, NODE_DISABLE_COMPILE_CACHE: '1' } },
  ]);
  const base = results[0];
  // CPU time too: on a shared machine other work inflates wall time, and its ratios, far more.
  console.log(`Start-up, ${RUNS} interleaved runs each (median wall ms, ratio of medians to node -e 0; the same for CPU ms):`);
  // The base moves with the environment: Node 20 reads NODE_EXTRA_CA_CERTS's certificates as it
  // starts (about 40 ms of CPU for a system bundle on this machine), node -e 0 included; Node 24 does not.
  if (process.env.NODE_EXTRA_CA_CERTS) console.log(`  (NODE_EXTRA_CA_CERTS is set: Node 20 reads it at every start, node -e 0 included; this is Node ${process.versions.node})`);
  for (const r of results) {
    const ratio = r.median / base.median;
    const verdict = r.target ? `  target <= ${r.target}x: ${ratio <= r.target ? 'met' : 'MISSED'}` : '';
    const cpu = `cpu ${r.cpu.toFixed(1).padStart(6)} ms ${(r.cpu / base.cpu).toFixed(2)}x`;
    console.log(`  ${r.name.padEnd(60)} ${r.median.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x  (min ${r.min.toFixed(1)}, max ${r.max.toFixed(1)})  ${cpu}${verdict}`);
  }

  if (!args.includes('--skip-load')) {
    const { default: autocannon } = await import('autocannon');
    const headers = { 'x-service-api-key': server.api_key, 'content-type': 'application/json' };
    let n = 0;
    const load = (title, options) =>
      new Promise((resolve, reject) =>
        autocannon({ url: `${server.url}/contacts`, connections: 10, duration: 5, headers, ...options }, (error, result) =>
          error ? reject(error) : resolve({ title, result }),
        ),
      );
    const runs = [
      await load('GET /contacts?limit=20', { url: `${server.url}/contacts?limit=20` }),
      await load('POST /contacts', {
        method: 'POST',
        setupClient: (client) => {
          client.setBody(JSON.stringify({ name: 'Bench Person', email: `bench-${process.pid}-${n++}@example.com` }));
        },
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: 'Bench Person', email: `bench-${process.pid}-${n++}@example.com` }) }),
          },
        ],
      }),
    ];
    console.log('\nSandbox server throughput (autocannon, 10 connections, 5 s):');
    for (const { title, result } of runs) {
      const errors = result.errors + result.non2xx;
      console.log(
        `  ${title.padEnd(24)} ${result.requests.average.toFixed(0).padStart(6)} req/s  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms  (${result.requests.total} requests, ${errors} errors or non-2xx)`,
      );
    }
  }
} finally {
  await server.stop();
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
}

// Scripts of their own, on servers of their own: they take minutes, and can be run alone.
for (const [script, skip] of [['./network.mjs', '--skip-network'], ['./scale.mjs', '--skip-scale'], ['./mirror.mjs', '--skip-mirror']]) {
  if (args.includes(skip)) continue;
  console.log('');
  const result = spawnSync(node, [fileURLToPath(new URL(script, import.meta.url))], { stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
}
