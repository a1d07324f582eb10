import { it } from 'vitest';
import { ApiClient } from '../../src/http/core.js';
import { createNetworkTransport } from '../../src/transport/network.js';
// @ts-ignore
import { serveRemote } from '../../bench/serve.mjs';
it('pace', async () => {
  const server = await serveRemote(['--rtt', '40', '--post-rate', '50']);
  const transport = await createNetworkTransport({ env: {} });
  const api = new ApiClient({ baseUrl: server.url, apiKey: server.api_key, transport, userAgent: 'x' });
  const start = Date.now();
  let next = 0; const log: string[] = [];
  const timer = setInterval(() => log.push(`${Date.now() - start}ms rate=${api.pace.requestsPerSecond.toFixed(1)} done=${next}`), 250);
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (next < 300) { const n = next++; await api.request('POST', '/contacts', { body: { name: 'x', email: `e${n}-${start}@x.com` }, waitOutRateLimit: true }); }
  }));
  clearInterval(timer);
  console.log(log.join('\n'));
  console.log('total', Date.now() - start, JSON.stringify(await server.stats()));
  transport.close(); server.child.kill();
}, 60000);
