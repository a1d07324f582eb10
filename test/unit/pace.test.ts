// The pace the requests of one command share: unpaced until the service refuses one, then set from
// what the service accepted, raised slowly, lowered once per refusal round. On an injected clock.
import { describe, expect, it } from 'vitest';
import { Pace, sleep } from '../../src/http/pace.js';

function pace() {
  let now = 0;
  const waits: number[] = [];
  const clock = {
    now: () => now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      now += ms;
    },
  };
  return { pace: new Pace(clock), waits, advance: (ms: number) => (now += ms), at: () => now };
}

describe('the shared pace', () => {
  it('lets requests go at once until the service refuses one', async () => {
    const { pace: p, waits, advance } = pace();
    for (let n = 0; n < 20; n++) {
      await p.turn();
      advance(10);
      p.answered();
    }
    expect(waits).toEqual([]);
    expect(p.requestsPerSecond).toBe(Infinity);
  });

  it('after a 429 keeps to just under what the service accepted, and spaces the requests evenly', async () => {
    const { pace: p, waits, advance } = pace();
    // 50 accepted over the last second, then a refusal.
    for (let n = 0; n < 50; n++) {
      await p.turn();
      advance(20);
      p.answered();
    }
    const refusedStart = await p.turn();
    p.refused(refusedStart);
    // 90 % of what the service took: 50 answers in the 980 ms since its first.
    expect(p.requestsPerSecond).toBeCloseTo(0.9 * (50 / 0.98), 5);
    waits.length = 0;
    // The next one goes at once (the refused one waits its Retry-After), the others one interval apart.
    for (let n = 0; n < 4; n++) await p.turn();
    expect(waits.map(Math.round)).toEqual([22, 22, 22]);
  });

  it('lowers once for the refusals of requests already under way, then again for a later one', async () => {
    const { pace: p, advance } = pace();
    for (let n = 0; n < 40; n++) {
      await p.turn();
      advance(25);
      p.answered();
    }
    const underWay = [await p.turn(), await p.turn(), await p.turn()];
    p.refused(underWay[0]!);
    const once = p.requestsPerSecond;
    p.refused(underWay[1]!);
    p.refused(underWay[2]!);
    expect(p.requestsPerSecond).toBe(once);
    advance(100);
    const later = await p.turn();
    p.refused(later);
    expect(p.requestsPerSecond).toBeLessThan(once);
  });

  it('gets faster while nothing is refused', async () => {
    const { pace: p, advance } = pace();
    for (let n = 0; n < 20; n++) {
      await p.turn();
      advance(50);
      p.answered();
    }
    p.refused(await p.turn());
    const lowered = p.requestsPerSecond;
    for (let n = 0; n < 40; n++) {
      await p.turn();
      p.answered();
    }
    expect(p.requestsPerSecond).toBeGreaterThan(lowered + 1);
  });

  it('a refusal with nothing accepted yet slows to what was being sent, not to a stop', async () => {
    const { pace: p, advance } = pace();
    for (let n = 0; n < 10; n++) {
      await p.turn();
      advance(10);
    }
    p.refused(await p.turn());
    expect(p.requestsPerSecond).toBeGreaterThan(50);
  });

  it('keeps at most maxInFlight requests on the wire; a place frees when its request is done', async () => {
    const { pace: p } = pace();
    p.maxInFlight = 2;
    await p.turn();
    await p.turn();
    let third = false;
    const waiting = p.turn().then(() => (third = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    p.done();
    await waiting;
    expect(third).toBe(true);
    // A turn given up while it waits for a place holds none.
    const controller = new AbortController();
    const given = p.turn(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(given).rejects.toThrow('cancelled');
    p.done();
    await p.turn();
  });

  it('a wait for a turn ends when the command is cancelled', async () => {
    const { pace: p, advance } = pace();
    for (let n = 0; n < 10; n++) {
      await p.turn();
      advance(100);
      p.answered();
    }
    p.refused(await p.turn());
    await p.turn();
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(p.turn(controller.signal)).rejects.toThrow('cancelled');
  });
});

describe('sleep', () => {
  it('ends early, rejecting with the reason, when its signal is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
