// crm sandbox serve in this process: it runs until SIGTERM, which reaches it through the Context's
// signals (an emitter of the test's own, not the process's), then exits 0 with its port and database
// released. The built CLI served and stopped by a real signal is in test/e2e/sandbox.test.ts.
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeEnv, run } from '../helpers/inprocess.js';
import { until } from '../helpers/wait.js';

/** Whether something listens on the port: a connection is taken, or refused. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('crm sandbox serve', () => {
  it('serves until SIGTERM from its Context\'s signals, then exits 0, the port released', async () => {
    const signals = new EventEmitter();
    const live = { stdout: '', stderr: '' };
    const serving = run(['sandbox', 'serve', '--port', '0', '-o', 'ndjson'], { env: homeEnv(mkdtempSync(join(tmpdir(), 'crm-serve-'))), signals, live });
    await until(() => live.stdout.includes('\n'), 'the address served');
    const { port, url } = JSON.parse(live.stdout);
    expect(url).toBe(`http://127.0.0.1:${port}/api/v1`);
    expect(await listening(port)).toBe(true);
    expect(signals.listenerCount('SIGTERM')).toBe(1);
    signals.emit('SIGTERM');
    const result = await serving;
    expect(result.code, result.stderr).toBe(0);
    expect(signals.listenerCount('SIGTERM')).toBe(0);
    await until(async () => !(await listening(port)), 'the port released');
  });
});
