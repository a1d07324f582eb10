// --jq in a process: Ctrl-C stops an expression without end (the engine is synchronous: crm's own
// Ctrl-C handler cannot run while it does), and an engine out of memory is one message of crm's, not
// the engine's own "Aborted()" lines.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, crm, freshHome } from '../helpers/crm.js';
import { until } from '../helpers/wait.js';

/** CPU seconds the process has used (Linux): crm starts in well under one. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('--jq in a process', () => {
  it.runIf(process.platform === 'linux')('Ctrl-C stops an expression that never ends: exit 130', async () => {
    const child = spawn(process.execPath, [CRM_BIN, 'config', 'list', '--jq', 'last(repeat(1))'], { env: freshHome(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Busy for a second and more of CPU time: in the engine's loop.
    await until(() => cpuSeconds(child.pid!) >= 1.5, 'the expression to run');
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 20_000))]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(130);
    expect(stderr).toBe('crm: interrupted\n');
  });

  it('an expression that needs more memory than the engine has: one line of crm\'s and its hint, exit 1', async () => {
    const result = await crm(['config', 'list', '--jq', '[range(1e8)] | length']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^crm: --jq: the expression needs more memory than jq's engine has \(256 MiB\)\nhint: [^\n]+\n$/);
  });
});
