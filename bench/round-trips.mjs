// Round trips a user waits for, command by command (on its own, after `npm run build`): each
// command against a `crm sandbox serve` behind bench/remote-server.mjs twice, 40 ms away (--rtt)
// and 0 ms away, runs interleaved; (median at 40 ms - median at 0 ms) / 40 ms is the round trips it
// waits. What else the process costs (start-up, CPU) is in both and cancels out. A figure near the
// command's chain of requests that wait for another's answer (test/commands/keys.test.ts and
// view.test.ts pin those chains) says nothing waits that need not.
//
//   node bench/round-trips.mjs [--runs N (5)] [--rtt MS (40)]

import { median, scratchSpace } from './runs.mjs';
import { CRM, serveRemote, serveSandbox } from './serve.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 5);
const RTT = option('--rtt', 40);
/** The sandbox's demo records (src/registry/demo.ts: the seed is the same on every install). */
const DEMO = { contact: 'con_ua7xr0zeyzwl2vbo', deal: 'deal_m279ns143s296hm4', email: 'zane.sato@globexlogistics.com', accountName: 'Globex Logistics' };

/** Reads, and writes whose repeat changes nothing, so that every run does the same. */
const COMMANDS = [
  ['status'],
  ['contacts', 'view', DEMO.contact],
  ['contacts', 'view', DEMO.email],
  ['accounts', 'view', DEMO.accountName],
  ['deals', 'view', DEMO.deal],
  ['contacts', 'get', DEMO.email],
  ['contacts', 'update', DEMO.email, '--account-id', DEMO.accountName],
  ['deals', 'list', '--account-id', DEMO.accountName, '--contact-id', DEMO.email],
  ['search', 'globex'],
  ['contacts', 'list'],
];

const space = scratchSpace('crm-bench-round-trips-');
const sandbox = await serveSandbox(space.home());
const far = await serveRemote(['--rtt', String(RTT), '--upstream', sandbox.url]);
const near = await serveRemote(['--rtt', '0', '--upstream', sandbox.url]);
try {
  const envFor = (server) => ({ ...space.home(), CRM_BASE_URL: server.url, CRM_API_KEY: sandbox.api_key });
  const env = { far: envFor(far), near: envFor(near) };
  console.log(`Round trips waited, ${RTT} ms away (medians of ${RUNS} runs each way):`);
  for (const argv of COMMANDS) {
    const times = { far: [], near: [] };
    for (let run = 0; run <= RUNS; run++) {
      // The first run of each is a warm-up (V8's compiled code written).
      for (const where of ['far', 'near']) {
        const { ms } = space.measure([CRM, ...argv, '--json'], env[where]);
        if (run > 0) times[where].push(ms);
      }
    }
    const trips = (median(times.far) - median(times.near)) / RTT;
    console.log(`  crm ${argv.join(' ').padEnd(90)} ${trips.toFixed(1)}`);
  }
} finally {
  await Promise.all([far, near, sandbox].map((server) => server.stop()));
  space.remove();
}
