// A recipe's shell block runs as written, in bash, on a fresh machine: an empty home, nothing
// configured, `crm` on the PATH (the local sandbox answers). Each line must succeed (set -e).
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, freshHome } from '../helpers/crm.js';
import { PATIENCE_MS } from '../helpers/wait.js';

/** The recipe's first ```sh block. */
function firstBlock(recipe: string): string {
  const text = readFileSync(new URL(`../../docs/recipes/${recipe}`, import.meta.url), 'utf8');
  return /```sh\n([\s\S]*?)```/.exec(text)![1]!;
}

/** Runs a script in bash with `crm` (this checkout's build) first on the PATH, in a fresh home. */
function runInFreshHome(script: string): { status: number | null; stdout: string; stderr: string } {
  const bin = mkdtempSync(join(tmpdir(), 'crm-bin-'));
  writeFileSync(join(bin, 'crm'), `#!/bin/sh\nexec "${process.execPath}" "${CRM_BIN}" "$@"\n`);
  chmodSync(join(bin, 'crm'), 0o755);
  const env = freshHome();
  const result = spawnSync('bash', ['-e', '-c', script], { env: { ...env, PATH: `${bin}:${env.PATH}` }, cwd: env.HOME, encoding: 'utf8', timeout: 4 * PATIENCE_MS });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('docs/recipes/watch-cron.md', () => {
  it('its first block works on a fresh machine: the baseline, a new deal, then that deal from the second run', () => {
    const result = runInFreshHome(firstBlock('watch-cron.md'));
    expect(result.status, result.stderr).toBe(0);
    // The create prints the deal (tsv), the second watch the same deal as one NDJSON line.
    const emitted = result.stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(emitted.map((line) => JSON.parse(line).name)).toEqual(['Annual licence']);
  });
});
