import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sqlite/database.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKERS = 8;
const CONTACTS_PER_WORKER = 50;

/** Opens the sandbox (creating it if it is not there yet) and creates contacts through handle(). */
const WORKER_SCRIPT = `
import { openSandbox } from './sandbox.mjs';
const [dbPath, worker, count, startAt] = process.argv.slice(2);
// A worker that booted after the start time (a busy machine) starts at once: Node 24 warns on a negative delay.
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const sandbox = await openSandbox({ dbPath });
const failures = [];
for (let index = 0; index < Number(count); index++) {
  const response = sandbox.handle({
    method: 'POST',
    url: '/api/v1/contacts',
    headers: { 'x-service-api-key': sandbox.apiKey },
    body: JSON.stringify({ name: 'Worker ' + worker + ' #' + index, email: 'w' + worker + '.' + index + '@concurrency.example' }),
  });
  if (response.status !== 201) failures.push(response.status + ' ' + response.body);
}
sandbox.close();
process.stdout.write(JSON.stringify({ apiKey: sandbox.apiKey, failures }));
`;

// Inside the repository, so that the bundle finds better-sqlite3 (where it is the binding) in node_modules.
let workDir: string;
beforeAll(async () => {
  workDir = mkdtempSync(join(ROOT, 'test', '.tmp-sandbox-'));
  await build({
    entryPoints: [join(ROOT, 'src', 'sandbox', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    // As scripts/build.mjs: bundled CommonJS (better-sqlite3, where it is the binding) calls require().
    banner: { js: "import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);" },
    outfile: join(workDir, 'sandbox.mjs'),
    logLevel: 'warning',
  });
  writeFileSync(join(workDir, 'worker.mjs'), WORKER_SCRIPT);
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function runWorker(dbPath: string, worker: number, startAt: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(workDir, 'worker.mjs'), dbPath, String(worker), String(CONTACTS_PER_WORKER), String(startAt)]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe('several processes on one database', () => {
  it('8 processes creating a new database at once migrate and seed once, then add exactly 400 contacts', async () => {
    const dbPath = join(workDir, 'shared.db');
    // A common start time after every process has booted, so that all of them race to create the database.
    const startAt = Date.now() + 1500;
    const results = await Promise.all(Array.from({ length: WORKERS }, (_, worker) => runWorker(dbPath, worker, startAt)));

    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    const reports = results.map((result) => JSON.parse(result.stdout) as { apiKey: string; failures: string[] });
    expect(reports.flatMap((report) => report.failures)).toEqual([]);
    expect(new Set(reports.map((report) => report.apiKey)).size).toBe(1);

    const db = openDatabase(dbPath, { readOnly: true });
    try {
      const counts = db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM contacts WHERE email LIKE '%@concurrency.example') AS created,
             (SELECT COUNT(*) FROM contacts) AS contacts, (SELECT COUNT(*) FROM accounts) AS accounts,
             (SELECT COUNT(*) FROM stages) AS stages, (SELECT COUNT(*) FROM meta WHERE key = 'api_key') AS keys`,
        )
        .get();
      expect(counts).toEqual({ created: WORKERS * CONTACTS_PER_WORKER, contacts: 50 + WORKERS * CONTACTS_PER_WORKER, accounts: 15, stages: 6, keys: 1 });
    } finally {
      db.close();
    }
  });
});
