// node bench/mcp-tokens.mjs: what crm mcp costs a model in tokens, on a fresh sandbox (its demo data).
//
// Counted with gpt-tokenizer's o200k_base encoding (the GPT-4o family's; a devDependency used here
// only, never at run time), over the text a client hands the model: tools/list (every tool's name,
// description and schemas, as JSON), and each call's text content. Bytes are UTF-8.
//
// Build first (npm run build). Speaks the protocol as JSON lines, as any client does.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'crm-bench-tokens-'));
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CRM_'))),
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_DATA_HOME: join(home, 'data'),
};

const child = spawn(process.execPath, [CRM, 'mcp'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
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
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
const call = async (name, args) => {
  const answer = await ask('tools/call', { name, arguments: args });
  if (answer.result.isError) throw new Error(`${name}: ${answer.result.content[0].text}`);
  return answer.result;
};

const rows = [];
const measure = (what, text) => rows.push({ what, bytes: Buffer.byteLength(text), tokens: countTokens(text) });
const textOf = (result) => result.content.map((part) => part.text).join('\n');

try {
  await ask('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  const { result } = await ask('tools/list');
  measure(`tools/list (${result.tools.length} tools)`, JSON.stringify(result));
  measure('contacts_list, default page (20 contacts)', textOf(await call('contacts_list', {})));
  measure('contacts_list, 20 contacts, full: true', textOf(await call('contacts_list', { full: true })));
  measure('contacts_list, 50 contacts', textOf(await call('contacts_list', { limit: 50 })));
  measure('tasks_list, default page (20 tasks)', textOf(await call('tasks_list', {})));
  const open = await call('tasks_list', { status: 'open', limit: 100 });
  const ids = open.structuredContent.items.map((task) => task.id);
  measure(`tasks_complete of ${ids.length} ids`, textOf(await call('tasks_complete', { ids })));
  console.log('Tokens a model reads (o200k_base, gpt-tokenizer):');
  for (const row of rows) console.log(`  ${row.what.padEnd(44)} ${String(row.bytes).padStart(7)} bytes ${String(row.tokens).padStart(7)} tokens`);
} finally {
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));
  rmSync(home, { recursive: true, force: true });
}
