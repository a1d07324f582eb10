// What the scale benchmarks share: a scratch directory of homes (each a user of its own: config and
// data), medians, verdicts, and running the built crm to its end with its wall time, peak RSS and
// CPU time.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = fileURLToPath(new URL('./usage.cjs', import.meta.url));
const node = process.execPath;

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
export const verdict = (met) => (met ? 'met' : 'MISSED');

/** A scratch directory for one benchmark: homes in it, and `measure` of node processes; remove() at the end. */
export function scratchSpace(prefix) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  let homes = 0;
  return {
    /** The user's environment (minus CRM_* settings) with a home, config and data directory of its own. */
    home() {
      const dir = join(scratch, `home-${++homes}`);
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CRM_')));
      return { ...env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') };
    },
    /**
     * Runs `node ARGV` to its end, stdout drained (kept with `stdout`), `input` as its stdin; wall
     * time in ms and, with `peak`, peak RSS in KB and CPU time in ms (bench/usage.cjs preloaded).
     */
    measure(argv, env, { peak = false, stdout = false, input = undefined } = {}) {
      const usageFile = join(scratch, `usage-${process.hrtime.bigint()}`);
      const full = peak ? [node, '-r', USAGE, ...argv] : [node, ...argv];
      const start = process.hrtime.bigint();
      const result = spawnSync(full[0], full.slice(1), { env: { ...env, CRM_BENCH_USAGE_FILE: usageFile }, stdio: [input === undefined ? 'ignore' : 'pipe', stdout ? 'pipe' : 'ignore', 'pipe'], input, maxBuffer: 1 << 30 });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
      const used = peak ? JSON.parse(readFileSync(usageFile, 'utf8')) : {};
      return { ms, peakKb: used.peakKb, cpuMs: used.cpuMs, stdout: stdout ? String(result.stdout) : undefined };
    },
    path: (name) => join(scratch, name),
    remove: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
