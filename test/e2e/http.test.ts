// What only the network transport and a real process show: connection refused, timeouts, dropped
// connections, the base URL over a socket, and `| head -1` (EPIPE). The rest of the HTTP behaviour
// (--wait and the Retry-After countdown included, on an injected sleep) is tested in-process in
// test/commands/http.test.ts.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, crm } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';

const live = useTestServer();

describe('the network transport', () => {
  it('6: nothing listening (connection refused)', async () => {
    const closed = await crm(['contacts', 'list'], { env: { ...live.env, CRM_BASE_URL: 'http://127.0.0.1:9/api/v1' } });
    expect(closed.code).toBe(6);
    expect(closed.stderr).toBe("crm: could not connect to 127.0.0.1:9 (connection refused); tried 4 times\nhint: check the base URL (--base-url, CRM_BASE_URL or the profile's base_url), and that the service is up\n");
  });

  it('6: a request that outlives --timeout (a POST is not repeated, and says it may have been created and how to look)', async () => {
    live.server.fault({ match: /POST/, delayMs: 3000 });
    const result = await crm(['contacts', 'create', '--name', 'Slow', '--email', 'slow@example.com', '--timeout', '0.5'], { env: live.env });
    expect(result.code).toBe(6);
    expect(result.stderr).toBe('crm: request timed out after 0.5s\nhint: the service may have created it all the same: look (for example `crm api GET /contacts`) before sending it again\n');
    expect(live.server.requests()).toHaveLength(1);
  });

  it('a service message of megabytes (one word of 3 MB) is reported at once, --debug too: masking URL passwords in it took hours', async () => {
    const word = 'z'.repeat(3_000_000);
    for (const extra of [[], ['--debug']]) {
      live.server.fault({ match: /GET/, status: 400, body: JSON.stringify({ data: null, error: { code: 'bad', message: `bad ${word}` } }) });
      const result = await crm(['contacts', 'get', 'con_x', ...extra], { env: live.env });
      expect(result.code, extra.join(' ')).toBe(1);
      // The message is cut (src/http/envelope.ts); the --debug trace shows the whole body.
      expect(result.stderr).toContain(`crm: bad ${'z'.repeat(1_996)}… (2998004 more characters)\n`);
    }
  });

  it('a dropped connection on a GET is retried', async () => {
    live.server.fault({ match: /GET/, destroy: true });
    const result = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: live.env });
    expect(result.code).toBe(0);
    expect(live.server.requests()).toHaveLength(2);
  });
  it('appends /api/v1 to a base URL without a path', async () => {
    const bare = live.server.url.replace(/\/api\/v1$/, '/');
    const result = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: { ...live.env, CRM_BASE_URL: bare } });
    expect(result.code).toBe(0);
    expect(live.server.requests()[0]!.url).toBe('/api/v1/contacts?limit=1');
  });

  it('ends quietly with exit 0 when the reader of a pipe goes away (| head -1)', async () => {
    for (let start = 0; start < 600; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, offset) => api(live.server, 'POST', '/contacts', { name: `Bulk ${start + offset}`, email: `bulk-${start + offset}@example.com` })),
      );
    }
    const child = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CRM_BIN}" contacts list --all -o json | head -1`], { env: live.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stdout).toBe('[\n');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('ends with exit 0, not a crash, when the reader of stdout and stderr has gone before crm writes to stderr (2>&1 | head -1)', async () => {
    // --debug writes the trace to stderr before the data: the first write meets the closed pipe there.
    const child = spawn(process.execPath, [CRM_BIN, '--debug', 'contacts', 'list'], { env: live.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    child.stderr.destroy();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
  });
});
