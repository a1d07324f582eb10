// The scorer of watch --score and import --score keeps POST /ai/trigger within the service's rate
// limit by itself (a sliding window of its own calls), and waits out a 429 from someone else's use
// of the key instead of failing the contact. A small window keeps the test short.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/http/core.js';
import { HttpError } from '../../src/http/errors.js';
import { Scorer } from '../../src/commands/scoring.js';

/** A client that records when each trigger arrived; `refuse` answers the first calls with 429. */
function triggerLog(refuse = 0) {
  const calls: Array<{ at: number; contactId: unknown }> = [];
  const client = {
    async request(method: string, path: string, options: { body?: { contact_id?: unknown } }) {
      expect(`${method} ${path}`).toBe('POST /ai/trigger');
      calls.push({ at: Date.now(), contactId: options.body?.contact_id });
      if (calls.length <= refuse) throw new HttpError('retry_later', 'Too many requests. Try again in a minute.', { status: 429, retryAfterMs: 40 });
      return { contact_id: options.body?.contact_id, score: 42, next_best_action: 'Call' };
    },
  } as unknown as ApiClient;
  return { client, calls };
}

describe('Scorer', () => {
  it('sends at most `calls` triggers in any window, in the order asked', async () => {
    const { client, calls } = triggerLog();
    const waits: number[] = [];
    const scorer = new Scorer(client, { signal: new AbortController().signal, calls: 3, windowMs: 200, onWait: (ms) => waits.push(ms) });
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
    const results = await Promise.all(ids.map((id) => scorer.score(id)));
    expect(results.map((result) => result.score)).toEqual(ids.map(() => 42));
    expect(calls.map((call) => call.contactId)).toEqual(ids);
    // Any four calls in a row span a window (less a little timer jitter on a busy machine).
    for (let index = 3; index < calls.length; index++) expect(calls[index]!.at - calls[index - 3]!.at).toBeGreaterThanOrEqual(185);
    expect(waits.length).toBeGreaterThanOrEqual(2);
  });

  it('waits out a 429 (Retry-After) and scores the contact all the same', async () => {
    const { client, calls } = triggerLog(2);
    const scorer = new Scorer(client, { signal: new AbortController().signal, calls: 10, windowMs: 1000 });
    expect(await scorer.score('c1')).toMatchObject({ score: 42 });
    expect(calls).toHaveLength(3);
    expect(calls[2]!.at - calls[0]!.at).toBeGreaterThanOrEqual(79);
  });

  it('stops waiting when the command is stopped', async () => {
    const { client } = triggerLog(5);
    const stop = new AbortController();
    const scorer = new Scorer(client, { signal: stop.signal });
    const pending = scorer.score('c1');
    setTimeout(() => stop.abort(new Error('stopped')), 20);
    await expect(pending).rejects.toThrow('stopped');
  });
});
