// A bare client the import is also compared with: N POST /contacts with node:http over kept-alive
// connections, CONCURRENCY at a time, nothing else (no reading of a file, no checks, no journal).
//
//   node bench/post-loop.mjs BASE_URL API_KEY COUNT CONCURRENCY TAG

import { Agent, request } from 'node:http';

const [baseUrl, apiKey, count, concurrency, tag] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });
const url = new URL(`${baseUrl}/contacts`);

const post = (index) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({ name: `Loop Person ${index}`, email: `${tag}-${index}@example.com` });
    const headers = { 'x-service-api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });

let next = 0;
await Promise.all(Array.from({ length: Number(concurrency) }, async () => {
  while (next < Number(count)) await post(next++);
}));
agent.destroy();
