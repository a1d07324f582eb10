// `crm sandbox serve` on a free loopback port, for the benchmarks: resolves once it has printed its
// address (url, api_key, port, path), with the child process to stop when done.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));

export async function serveSandbox(env) {
  const child = spawn(process.execPath, [CRM, 'sandbox', 'serve', '--port', '0', '-o', 'ndjson'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const info = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]));
    });
    child.on('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
  });
  return { child, ...info };
}
