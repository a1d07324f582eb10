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
