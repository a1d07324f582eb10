// node bench/mcp.mjs [--runs N] [--calls N] [--tokens]: what `crm mcp` costs, on the embedded sandbox.
//
// - Tokens a model reads: tools/list (every tool's name, description and schemas, as JSON) and the
//   text content of a few calls, counted with gpt-tokenizer's o200k_base encoding (the GPT-4o
//   family's; a devDependency used here and in a test only, never at run time). Bytes are UTF-8.
//   --tokens measures only these, on a fresh sandbox (its demo data).
// - Start-up: spawn to the answer of tools/list, against `node -e 0` and `crm --version` measured
//   in the same run, interleaved (ratios of medians: this machine is shared and noisy).
// - A tool call (contacts_get) in one running server, against a whole `crm contacts get` process.
// - The server's resident memory after start-up and after the calls (it must not grow with them).
//
// Build first (npm run build). Speaks the protocol as JSON lines, as any client does.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 15);
const CALLS = option('--calls', 500);
const TOKENS_ONLY = args.includes('--tokens');
const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));
const node = process.execPath;
const DEMO_CONTACT = 'con_ua7xr0zeyzwl2vbo';

const home = mkdtempSync(join(tmpdir(), 'crm-bench-mcp-'));
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CRM_'))),
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_DATA_HOME: join(home, 'data'),
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const line = (message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const INITIALIZE = line({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });

/** A running `crm mcp` and a way to ask it something and wait for the answer. */
function startServer() {
  const child = spawn(node, [CRM, 'mcp'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffer = '';
  let nextId = 1;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const answer = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      waiting.get(answer.id)?.(answer);
    }
  });
  const ask = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(line({ id, method, params }));
    });
  child.stdin.write(INITIALIZE);
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
  const stop = () => new Promise((resolve) => child.on('close', resolve).stdin.end());
  return { ask, rss, stop };
}

function timeProcess(argv) {
  const start = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms(start);
}

async function timeStartUp() {
  const start = process.hrtime.bigint();
  const server = startServer();
  const answer = await server.ask('tools/list');
  const elapsed = ms(start);
  if (answer.result.tools.length !== 40) throw new Error('tools/list did not list 40 tools');
  await server.stop();
  return elapsed;
}

/** The tokens of what a model reads, on the sandbox's demo data (before any other call changes it). */
async function measureTokens() {
  const server = startServer();
  const rows = [];
  const measure = (what, text) => rows.push({ what, bytes: Buffer.byteLength(text), tokens: countTokens(text) });
  const call = async (name, callArgs) => {
    const answer = await server.ask('tools/call', { name, arguments: callArgs });
    if (answer.result.isError) throw new Error(`${name}: ${answer.result.content[0].text}`);
    return answer.result;
  };
  const textOf = (result) => result.content.map((part) => part.text).join('\n');
  try {
    const { result } = await server.ask('tools/list');
    measure(`tools/list (${result.tools.length} tools)`, JSON.stringify(result));
    measure('contacts_list, default page (20 contacts)', textOf(await call('contacts_list', {})));
    measure('contacts_list, 20 contacts, full: true', textOf(await call('contacts_list', { full: true })));
    measure('contacts_list, 50 contacts', textOf(await call('contacts_list', { limit: 50 })));
    measure('tasks_list, default page (20 tasks)', textOf(await call('tasks_list', {})));
    const open = await call('tasks_list', { status: 'open', limit: 100 });
    const ids = open.structuredContent.items.map((task) => task.id);
    measure(`tasks_complete of ${ids.length} ids`, textOf(await call('tasks_complete', { ids })));
  } finally {
    await server.stop();
  }
  console.log('Tokens a model reads (o200k_base, gpt-tokenizer):');
  for (const row of rows) console.log(`  ${row.what.padEnd(48)} ${String(row.bytes).padStart(7)} bytes ${String(row.tokens).padStart(7)} tokens`);
}

try {
  timeProcess([node, CRM, 'sandbox', 'init']);
  await measureTokens();
  if (!TOKENS_ONLY) await measureTimes();
} finally {
  rmSync(home, { recursive: true, force: true });
}

/** Start-up against node and a whole crm process; a call in a running server; its memory. */
async function measureTimes() {
  console.log('');
  const cases = [
    { name: 'node -e 0', run: async () => timeProcess([node, '-e', '0']) },
    { name: 'crm --version', run: async () => timeProcess([node, CRM, '--version']) },
    { name: 'crm contacts get ID --json (a whole process)', run: async () => timeProcess([node, CRM, 'contacts', 'get', DEMO_CONTACT, '--json']) },
    { name: 'crm mcp: spawn to the answer of tools/list', run: timeStartUp },
  ];
  const times = cases.map(() => []);
  for (const c of cases) await c.run(); // warm-up
  for (let run = 0; run < RUNS; run++) for (const [index, c] of cases.entries()) times[index].push(await c.run());
  const base = median(times[0]);
  console.log(`Start-up, ${RUNS} interleaved runs each (median ms, ratio to node -e 0):`);
  for (const [index, c] of cases.entries()) console.log(`  ${c.name.padEnd(48)} ${median(times[index]).toFixed(1).padStart(7)} ms  ${(median(times[index]) / base).toFixed(2)}x`);

  const server = startServer();
  await server.ask('tools/list');
  const rssStart = server.rss();
  const calls = [];
  for (let index = 0; index < CALLS; index++) {
    const start = process.hrtime.bigint();
    const answer = await server.ask('tools/call', { name: 'contacts_get', arguments: { id: DEMO_CONTACT } });
    calls.push(ms(start));
    if (answer.result.isError) throw new Error(answer.result.content[0].text);
  }
  const rssEnd = server.rss();
  await server.stop();
  const processMs = median(times[2]);
  console.log(`\nOne server, ${CALLS} calls of contacts_get: median ${median(calls).toFixed(2)} ms a call (${(processMs / median(calls)).toFixed(0)}x faster than a crm contacts get process)`);
  console.log(`Resident memory of crm mcp: ${rssStart.toFixed(1)} MiB after start-up, ${rssEnd.toFixed(1)} MiB after ${CALLS} calls`);
}
