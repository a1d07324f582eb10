// The faults a test scripts into a test double (the in-process transport, the fault server, the
// proxy in front of `crm sandbox serve`). Each request meets the first fault that matches it, until
// the fault has spoilt `times` requests (Infinity: every request, the server's standing behaviour). As with the GitHub CLI's httpmock registry and its Verify,
// a fault that no request met fails the test: a test whose fault went unused proved nothing about it.

export interface ScriptedFault {
  /** Only requests whose "METHOD /path?query" matches; every request when absent. */
  match?: RegExp;
  /** How many requests it spoils (default 1; Infinity: all of them). */
  times?: number;
}

/** A fault that answers in place of the service (which then does not act on the request). */
export interface AnswerFault extends ScriptedFault {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}

/** The body an answer fault sends: its own, or an envelope naming the status injected. */
export function faultBody(fault: AnswerFault): string {
  return fault.body ?? JSON.stringify({ data: null, error: `injected ${fault.status}` });
}

/** What every test double shows of its request log and its fault script. */
export function logAndFaults<FAULT extends ScriptedFault, REQUEST extends { method: string; url: string }>(log: REQUEST[], faults: FaultScript<FAULT>) {
  return {
    log,
    /** The requests whose "METHOD /path?query" matches `filter` (all without one). */
    requests: (filter?: RegExp) => log.filter((entry) => !filter || filter.test(`${entry.method} ${entry.url}`)),
    fault: (fault: FAULT) => faults.add(fault),
    verifyFaults: () => faults.verify(),
  };
}

export class FaultScript<FAULT extends ScriptedFault> {
  private readonly pending: Array<{ fault: FAULT; left: number; met: number }> = [];

  add(fault: FAULT): void {
    this.pending.push({ fault, left: fault.times ?? 1, met: 0 });
  }

  /** The fault the request `METHOD /path?query` meets, if any; it is used up after `times` requests. */
  take(request: string): FAULT | undefined {
    const index = this.pending.findIndex(({ fault }) => !fault.match || fault.match.test(request));
    if (index < 0) return undefined;
    const entry = this.pending[index]!;
    entry.met++;
    if (--entry.left === 0) this.pending.splice(index, 1);
    return entry.fault;
  }

  /** Throws when a scripted fault was not used up (a standing one: never met), naming each; the script is empty after. */
  verify(): void {
    const unused = this.pending
      .splice(0)
      .filter(({ left, met }) => left !== Infinity || met === 0)
      .map(({ fault, left }) => `${describe(fault)}: ${left === Infinity ? 'never met' : `${left} of ${fault.times ?? 1} never met`}`);
    if (unused.length > 0) throw new Error(`scripted faults not used up (the test did not exercise them):\n  ${unused.join('\n  ')}`);
  }
}

function describe(fault: ScriptedFault): string {
  const { match, times: _times, ...what } = fault;
  const text = JSON.stringify(what);
  return `${match ? `${match} ` : ''}${text.length > 120 ? `${text.slice(0, 120)}…` : text}`;
}
