// Scoring many contacts (watch --score, import --score) the way section 6 of the spec describes:
// POST /ai/trigger for each, within the service's rate limit. The scorer keeps under the limit
// itself (a window of its own calls: src/http/pace.ts) and, when another client of the same key
// used the allowance, the HTTP core waits out the 429 instead of failing the contact.

import { isObject, type JsonObject } from '../registry/values.js';
import type { ApiClient } from '../http/core.js';
import { CallWindow } from '../http/pace.js';
import { SCORE_CALLS_PER_WINDOW, SCORE_WINDOW_MS } from '../registry/service.js';
import { ENDPOINTS } from '../registry/endpoints.js';

interface ScorerOptions {
  signal: AbortSignal;
  calls?: number;
  windowMs?: number;
  /** Told when the scorer waits for the rate limit: how long, and why. */
  onWait?: (ms: number, reason: string) => void;
}

/** The clock the window counts and waits on: the command's (the Context), so that tests inject it. */
export interface ScorerClock {
  now(): number;
  pause(ms: number, signal: AbortSignal): Promise<void>;
}

export class Scorer {
  /** Calls take their turn one after the other, in the order they were asked for. */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly window: CallWindow;
  private readonly windowMs: number;

  constructor(
    private readonly client: ApiClient,
    clock: ScorerClock,
    private readonly options: ScorerOptions,
  ) {
    const calls = options.calls ?? SCORE_CALLS_PER_WINDOW;
    this.windowMs = options.windowMs ?? SCORE_WINDOW_MS;
    const windowClock = { now: () => clock.now(), sleep: (ms: number, signal = options.signal) => clock.pause(ms, signal) };
    this.window = new CallWindow({ calls, windowMs: this.windowMs, reason: `scoring is limited to ${calls} contacts a minute` }, windowClock, options.onWait);
  }

  /** Scores one contact: `score` and `next_best_action` from the answer (empty when it had none). */
  score(contactId: string): Promise<JsonObject> {
    const result = this.turn.then(() => this.scoreNow(contactId));
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async scoreNow(contactId: string): Promise<JsonObject> {
    const { signal, onWait } = this.options;
    await this.window.turn(signal);
    try {
      // A 429 that says nothing of when: the allowance comes back within a window.
      const data = await this.client.request('POST', ENDPOINTS.ai_trigger.path, { body: { contact_id: contactId }, signal, waitOutEveryRateLimit: { unsaidMs: this.windowMs, onWait } });
      return isObject(data) ? data : {};
    } catch (error) {
      // Stopped while waiting: the command's reason, not the request's.
      signal.throwIfAborted();
      throw error;
    }
  }
}

/** The contact with what scoring said about it, as `contacts create --score` prints it. */
export function withScore(contact: JsonObject, scoring: JsonObject): JsonObject {
  return { ...contact, score: scoring.score ?? contact.score, next_best_action: scoring.next_best_action ?? contact.next_best_action };
}
