// The scorer of watch --score and import --score keeps POST /ai/trigger within the service's rate
// limit by itself (a sliding window of its own calls), and waits out a 429 from someone else's use
// of the key instead of failing the contact (the HTTP core waits, as the scorer asks it to). The
// scorer's clock and the client's are one virtual clock: no test waits.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/http/core.js';
import { Scorer, type ScorerClock } from '../../src/commands/scoring.js';

/** A clock that moves only when the scorer waits: every wait is recorded and takes no real time. */
function virtualClock() {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    pause: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      waits.push(ms);
      now += ms;
    },
  };
}

/**
 * A client over a scripted service that records when (on `clock`) each trigger arrived; `refuse`
 * answers the first calls with 429 and a Retry-After of 40 s. The client waits on `clock` too.
 */
function triggerLog(clock: ScorerClock, refuse = 0) {
  const calls: Array<{ at: number; contactId: unknown }> = [];
  const client = new ApiClient({
    baseUrl: 'https://crm.test/api/v1',
    apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456',
    userAgent: 'crm/test',
    now: clock.now,
    sleep: (ms, signal) => clock.pause(ms, signal!),
    transport: async (request) => {
      expect(`${request.method} ${request.url}`).toBe('POST https://crm.test/api/v1/ai/trigger');
      const contactId = JSON.parse(request.body!).contact_id;
      calls.push({ at: clock.now(), contactId });
      if (calls.length <= refuse) return { status: 429, headers: { 'retry-after': '40' }, body: JSON.stringify({ data: null, error: 'Too many requests. Try again in a minute.' }) };
      return { status: 200, headers: {}, body: JSON.stringify({ data: { contact_id: contactId, score: 42, next_best_action: 'Call' }, error: null }) };
    },
  });
  return { client, calls };
}

describe('Scorer', () => {
  it('sends at most `calls` triggers in any window, in the order asked, waiting out the rest of the window', async () => {
    const clock = virtualClock();
    const { client, calls } = triggerLog(clock);
    const told: number[] = [];
    const scorer = new Scorer(client, clock, { signal: new AbortController().signal, calls: 3, windowMs: 60_000, onWait: (ms) => told.push(ms) });
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
    const results = await Promise.all(ids.map((id) => scorer.score(id)));
    expect(results.map((result) => result.score)).toEqual(ids.map(() => 42));
    expect(calls).toEqual(ids.map((contactId, index) => ({ contactId, at: Math.floor(index / 3) * 60_000 })));
    expect(clock.waits).toEqual([60_000, 60_000]);
    expect(told).toEqual(clock.waits);
  });

  it('waits out a 429 (Retry-After) and scores the contact all the same', async () => {
    const clock = virtualClock();
    const { client, calls } = triggerLog(clock, 2);
    const scorer = new Scorer(client, clock, { signal: new AbortController().signal, calls: 10, windowMs: 60_000 });
    expect(await scorer.score('c1')).toMatchObject({ score: 42 });
    expect(calls.map((call) => call.at)).toEqual([0, 40_000, 80_000]);
    expect(clock.waits).toEqual([40_000, 40_000]);
  });

  it('stops waiting when the command is stopped', async () => {
    const stop = new AbortController();
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    // A wait that ends only when the command is stopped.
    const pauseUntilStopped = (_: number, signal: AbortSignal) => {
      waiting();
      return new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    };
    const clock = { ...virtualClock(), pause: pauseUntilStopped };
    const { client } = triggerLog(clock, 5);
    const pending = new Scorer(client, clock, { signal: stop.signal }).score('c1');
    await waited;
    stop.abort(new Error('stopped'));
    await expect(pending).rejects.toThrow('stopped');
  });
});
