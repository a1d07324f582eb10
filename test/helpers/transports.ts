// Transports in front of a test workspace's: one that holds every answer until the test lets it go
// (proof that requests were all sent before the first was answered: a command that waited for one
// answer before sending the next request never gets as far), and one that behaves as a workspace
// that ignores some query parameters (filters the specification does not show).

import type { Transport } from '../../src/transport/types.js';
import type { Workspace } from './inprocess.js';
import { until } from './wait.js';

export interface HeldWorkspace extends Workspace {
  /** "GET /api/v1/..." of each request sent and not answered yet, in the order sent. */
  held(): string[];
  /** Waits until at least `count` requests are held at once (generously: a busy machine is slow, never the subject). */
  untilHeld(count: number): Promise<void>;
  /** Answers the one request held that is exactly this ("GET /api/v1/..."); the others stay held. */
  answer(request: string): void;
  /** Answers every request held, and every later one at once. */
  release(): void;
}

const pathOf = (url: string) => url.slice(url.indexOf('/api/v1'));

export function holding(ws: Workspace): HeldWorkspace {
  const waiting: Array<{ request: string; answer: () => void }> = [];
  let released = false;
  const transport: Transport = (request) => {
    if (released) return ws.transport(request);
    return new Promise((resolve, reject) => {
      waiting.push({ request: `${request.method} ${pathOf(request.url)}`, answer: () => ws.transport(request).then(resolve, reject) });
    });
  };
  return {
    ...ws,
    transport,
    held: () => waiting.map((entry) => entry.request),
    untilHeld: (count) => until(() => waiting.length >= count, `${count} requests held at once (held: ${waiting.map((entry) => entry.request).join(', ')})`),
    answer(request) {
      const at = waiting.findIndex((entry) => entry.request === request);
      if (at < 0) throw new Error(`${request} is not held (held: ${waiting.map((entry) => entry.request).join(', ')})`);
      waiting.splice(at, 1)[0]!.answer();
    },
    release() {
      released = true;
      for (const entry of waiting.splice(0)) entry.answer();
    },
  };
}

/** The workspace as one that ignores these query parameters: they are dropped before the sandbox sees them (its log shows what it got). */
export function ignoring(ws: Workspace, parameters: readonly string[]): Workspace & { sent: string[] } {
  const sent: string[] = [];
  const transport: Transport = (request) => {
    sent.push(`${request.method} ${pathOf(request.url)}`);
    const url = new URL(request.url);
    for (const name of parameters) url.searchParams.delete(name);
    return ws.transport({ ...request, url: `${request.url.slice(0, request.url.indexOf('/api/v1'))}${url.pathname}${url.search}` });
  };
  return { ...ws, transport, sent };
}
