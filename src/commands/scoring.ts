// Scoring many contacts (watch --score, import --score) the way section 6 of the spec describes:
// POST /ai/trigger for each, within the service's rate limit. The client keeps under the limit
// itself (a sliding window of its own calls) and, when another client of the same key used the
// allowance, waits out the 429 instead of failing the contact.

import { isObject, type JsonObject } from '../registry/values.js';
import type { ApiClient } from '../http/core.js';
import { HttpError } from '../http/errors.js';
import { sleep } from '../http/pace.js';

/** The published limit of POST /ai/trigger: 10 calls a minute per key (service-facts.md). */
export const SCORE_CALLS_PER_WINDOW = 10;
const SCORE_WINDOW_MS = 60_000;

interface ScorerOptions {
  signal: AbortSignal;
  calls?: number;
  windowMs?: number;
  /** Told when the scorer waits for the rate limit: how long, and why. */
  onWait?: (ms: number, reason: string) => void;
  /** The clock of the window and its waits (tests: a virtual one). */
  now?: () => number;
  pause?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export class Scorer {
  /** When each recent call was sent: at most `calls` within any window. */
  private readonly sent: number[] = [];
  /** Calls take their turn one after the other, in the order they were asked for. */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly calls: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly pause: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(
    private readonly client: ApiClient,
    private readonly options: ScorerOptions,
  ) {
    this.calls = options.calls ?? SCORE_CALLS_PER_WINDOW;
    this.windowMs = options.windowMs ?? SCORE_WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.pause = options.pause ?? sleep;
  }

  /** Scores one contact: `score` and `next_best_action` from the answer (empty when it had none). */
  score(contactId: string): Promise<JsonObject> {
    const result = this.turn.then(() => this.scoreNow(contactId));
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async scoreNow(contactId: string): Promise<JsonObject> {
    for (;;) {
      await this.waitForRoom();
      this.sent.push(this.now());
      try {
        const data = await this.client.request('POST', '/ai/trigger', { body: { contact_id: contactId } });
        return isObject(data) ? data : {};
      } catch (error) {
        // Refused before it was processed: the allowance was used by someone else. Wait, then again.
        if (!(error instanceof HttpError) || error.status !== 429) throw error;
        const ms = error.retryAfterMs ?? this.windowMs;
        this.options.onWait?.(ms, error.message);
        await this.pause(ms, this.options.signal);
      }
    }
  }

  private async waitForRoom(): Promise<void> {
    for (;;) {
      const now = this.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - this.windowMs) this.sent.shift();
      if (this.sent.length < this.calls) return;
      const ms = this.sent[0]! + this.windowMs - now;
      this.options.onWait?.(ms, `scoring is limited to ${this.calls} contacts a minute`);
      await this.pause(ms, this.options.signal);
    }
  }
}

/** The contact with what scoring said about it, as `contacts create --score` prints it. */
export function withScore(contact: JsonObject, scoring: JsonObject): JsonObject {
  return { ...contact, score: scoring.score ?? contact.score, next_best_action: scoring.next_best_action ?? contact.next_best_action };
}
