// `crm sandbox serve` on a free loopback port, for the benchmarks: resolves once it has printed its
// address (url, api_key, port, path), with the child process and stop(), which resolves once it has
// exited: a crm writes its code cache and closes its database as it exits, so a scratch folder it
// used is removed only after (before, its removal met the files being written and failed).

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
  return { child, ...info, stop: () => stop(child) };
}

/** Sends SIGTERM to CHILD; resolves once it has exited. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/**
 * bench/remote-server.mjs as a child process (options as its flags, e.g. ['--rtt', '40']); resolves
 * with its address, key and child once it listens. stats() and reset() read and zero its counters.
 */
export async function serveRemote(flags = []) {
  const script = fileURLToPath(new URL('./remote-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]));
    });
    child.on('exit', (code) => reject(new Error(`remote-server exited ${code}`)));
  });
  const origin = new URL(info.url).origin;
  const stats = async () => (await fetch(`${origin}/__bench/stats`)).json();
  const reset = async () => (await fetch(`${origin}/__bench/reset`, { method: 'POST' })).json();
  return { child, ...info, stats, reset, stop: () => stop(child) };
}
