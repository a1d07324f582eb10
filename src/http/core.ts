// The one HTTP core every command goes through: URL building, auth header, JSON bodies, envelope and
// list unwrapping, errors by kind, timeouts, retries and the debug trace. It knows nothing of exit
// codes or terminals: the CLI maps its HttpErrors (src/cli/errors.ts) and decides how to wait.

import { HttpError, cancelledError, invalidRequest } from './errors.js';
import { parseBody, readEnvelope, unwrapList, type ErrorMember, type ListPage } from './envelope.js';
import { Pace, sleep as abortableSleep } from './pace.js';
import { TIMEOUT_DEFAULT_SECONDS } from '../registry/global.js';
import { API_KEY_HEADER, API_PREFIX } from '../registry/service.js';
import { formatDuration, isObject, NESTING_MAX, nestsTooDeep } from '../registry/values.js';
import { DEFAULT_MAX_RETRIES, MAX_WAIT_MS, RATE_LIMIT_BUDGET_MS, RETRY_AFTER_CAP_MS, backoffDelay, isIdempotent, parseRetryAfter, shouldRetry, type Outcome } from './retry.js';
import { CANCELLED, TransportError, type Transport, type TransportRequest, type TransportResponse } from '../transport/types.js';
import { maskKey, redact, redactBody, shownHeaderValue } from './redact.js';
import { buildUrl, type Query } from './url.js';

export { API_KEY_HEADER };

export interface ClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  transport: Transport;
  userAgent: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Receives trace lines (already redacted) when --debug is on. */
  trace?: (line: string) => void;
  /**
   * Asked when the service wants a wait longer than the cap (429/503 with a long Retry-After).
   * Resolves true once it has waited (--wait, or a countdown on a TTY); false to give up at once.
   * Rejects when the signal is aborted.
   */
  waitLong?: (ms: number, reason: string, signal?: AbortSignal) => Promise<boolean>;
  /** Cancels every request of the client and every wait (the command's: Ctrl-C, an MCP cancel). */
  signal?: AbortSignal;
  /** Told before each wait for a retry: how long, and what is retried why (an MCP client's progress). */
  onRetryWait?: RetryWaitListener;
  /** Resolves after `ms`; rejects when the signal is aborted first. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

type RetryWaitListener = (ms: number, what: string) => void;

interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Cancels this request (and its waits) alone: a page of a walk no longer needed. */
  signal?: AbortSignal;
  /**
   * Bulk work (an import's rows, a bulk command's ids): a 429 with a short Retry-After is waited out
   * however often it comes, up to RATE_LIMIT_BUDGET_MS of waiting for the request, instead of
   * counting as a retry. The pace shared by the client's requests keeps such 429s rare.
   */
  waitOutRateLimit?: boolean;
  /**
   * Work under a limit counted over a long window (scoring: 10 calls a minute): every 429 is waited
   * out, however often it comes, for as long as its Retry-After says (`unsaidMs` when it says
   * nothing; never past MAX_WAIT_MS), each wait told to `onWait`. Only the request's signal ends it.
   */
  waitOutEveryRateLimit?: RateLimitWaits;
  /**
   * Headers of the caller's (crm api -H): added, or in place of crm's own of the same name (Accept,
   * Content-Type, User-Agent). Never the key header: the key is the profile's or CRM_API_KEY.
   */
  headers?: Readonly<Record<string, string>>;
}

interface RateLimitWaits {
  unsaidMs: number;
  onWait?: (ms: number, reason: string) => void;
}

interface Exchange {
  status: number;
  data: unknown;
  /** The parsed body as the service sent it (`crm api --raw`). */
  envelope: unknown;
  /** The answer's headers (`crm api -i`), a key they echo masked. */
  headers: TransportResponse['headers'];
}

/** What an HTTP header value may hold (Node refuses anything else). */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * How deep an answer may nest: a record as deep as crm sends one (NESTING_MAX), in the three levels
 * a list's answer wraps it in ({data: {contacts: [record]}}). At NESTING_MAX alone, a record created
 * with --data nested 500 deep was stored, and then every list holding it was a malformed answer.
 */
const ANSWER_NESTING_MAX = NESTING_MAX + 3;

export class ApiClient {
  readonly baseUrl: string;
  private readonly options: ClientOptions;
  private headerSets?: { bare: Readonly<Record<string, string>>; json: Readonly<Record<string, string>> };
  /** The pace every request of this client keeps (see ./pace.ts). */
  readonly pace: Pace;
  /** Requests that may have reached the service and have no answer yet. */
  readonly unanswered: Set<TransportRequest>;

  constructor(options: ClientOptions, shared?: Pick<ApiClient, 'pace' | 'unanswered'>) {
    this.options = options;
    this.baseUrl = options.baseUrl;
    this.pace = shared?.pace ?? new Pace({ now: () => this.now(), sleep: (ms, signal) => this.sleep(ms, signal) });
    this.unanswered = shared?.unanswered ?? new Set();
  }

  /**
   * The same client (connections, pace) whose requests and waits this signal also cancels, and whose
   * retry waits are told to `onRetryWait` (one MCP tool call's).
   */
  withSignal(signal: AbortSignal, onRetryWait?: RetryWaitListener): ApiClient {
    const signals = [this.options.signal, signal].filter((one) => one !== undefined);
    return new ApiClient({ ...this.options, signal: AbortSignal.any(signals), onRetryWait: onRetryWait ?? this.options.onRetryWait }, this);
  }

  /**
   * The writes (POST) that reached the service and have no answer yet, as "POST /contacts": what
   * may have taken effect when the command ends now (Ctrl-C).
   */
  writesUnanswered(): string[] {
    return [...this.unanswered].filter((request) => !isIdempotent(request.method)).map((request) => `${request.method} ${this.pathOf(request)}`);
  }

  /** The key as it may be shown: its last 4 characters at most. */
  get maskedKey(): string | null {
    return this.options.apiKey ? maskKey(this.options.apiKey) : null;
  }

  /** Sends one request and returns the envelope's data; throws HttpError. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    return (await this.exchange(method, path, options)).data;
  }

  async exchange(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    const request = this.prepare(method, path, options);
    const response = await this.sendWithRetries(request, Boolean(options.waitOutRateLimit), options.waitOutEveryRateLimit);
    if (response.status >= 300 && response.status < 400) throw this.redirectError(response);
    let envelope: unknown;
    try {
      envelope = response.body.trim() === '' ? null : JSON.parse(response.body);
    } catch {
      if (response.status >= 400) throw this.statusError(response.status, plainTextError(response), request);
      throw new HttpError('malformed', `malformed response from the service (HTTP ${response.status}, not JSON)`, {
        status: response.status,
        code: 'malformed_response',
        ...this.uncertainEffect(request),
      });
    }
    if (nestsTooDeep(envelope, ANSWER_NESTING_MAX)) {
      if (response.status >= 400) throw this.statusError(response.status, undefined, request);
      throw new HttpError('malformed', `malformed response from the service (HTTP ${response.status}, JSON nested deeper than ${ANSWER_NESTING_MAX} levels)`, {
        status: response.status,
        code: 'malformed_response',
        ...this.uncertainEffect(request),
      });
    }
    const parsed = readEnvelope(envelope);
    if (response.status >= 400 || parsed.error) {
      throw this.statusError(response.status, parsed.error ?? readUnwrappedError(parsed.data), request);
    }
    return { status: response.status, data: parsed.data, envelope, headers: response.headers };
  }

  /** One page of a list endpoint; the signal cancels it (a walk that ended with pages in flight). */
  async list(path: string, query: Query = {}, key?: string, signal?: AbortSignal, headers?: Readonly<Record<string, string>>): Promise<ListPage> {
    const data = await this.request('GET', path, { query, signal, headers });
    const page = unwrapList(data, key);
    if (!page) throw new HttpError('malformed', 'malformed response from the service (expected a list)', { code: 'malformed_response' });
    return page;
  }

  private prepare(method: string, path: string, options: RequestOptions): TransportRequest {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const signals = [this.options.signal, options.signal].filter((signal) => signal !== undefined);
    const request: TransportRequest = {
      method,
      url: buildUrl(this.baseUrl, path, options.query),
      headers: withHeaders(this.headersFor(body !== undefined), options.headers),
      body,
      timeoutMs: this.options.timeoutMs ?? TIMEOUT_DEFAULT_SECONDS * 1000,
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
      onSent: () => this.unanswered.add(request),
    };
    return request;
  }

  /** The same two header sets for every request, made (and the key checked) once. */
  private headersFor(withBody: boolean): Readonly<Record<string, string>> {
    if (!this.headerSets) {
      const headers: Record<string, string> = {
        Accept: 'application/json',
        'User-Agent': this.options.userAgent,
      };
      if (this.options.apiKey) {
        // Whatever its source (CRM_API_KEY, a profile edited by hand), a key that cannot travel in a
        // header is a usage error, not a failure of the transport.
        if (!HEADER_VALUE.test(this.options.apiKey)) {
          throw invalidRequest('the API key cannot be sent: it holds a line break, a control character or a character outside Latin-1', 'check CRM_API_KEY, or run `crm auth login` again');
        }
        headers[API_KEY_HEADER] = this.options.apiKey;
      }
      this.headerSets = { bare: headers, json: { ...headers, 'Content-Type': 'application/json' } };
    }
    return withBody ? this.headerSets.json : this.headerSets.bare;
  }

  private async sendWithRetries(request: TransportRequest, patient: boolean, everyRateLimit?: RateLimitWaits): Promise<TransportResponse> {
    const maxRetries = this.options.maxRetries ?? DEFAULT_MAX_RETRIES;
    /** The previous attempt got no answer: the service may have acted on it. */
    let previousUnanswered = false;
    /** How long 429s were waited out without counting as retries (bulk work). */
    let rateLimitWaited = 0;
    /** How many times the request was sent: a failure after several says so. */
    let tries = 0;
    for (let attempt = 0; ; ) {
      const startedAt = await this.cancellable(request, () => this.pace.turn(request.signal), tries === 0);
      let outcome: Outcome;
      let response: TransportResponse | undefined;
      let failure: TransportError | undefined;
      try {
        tries++;
        response = await this.sendOnce(request);
        outcome = { kind: 'status', status: response.status };
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        if (error.code === CANCELLED) throw this.cancelledError(request, error.delivered);
        failure = error;
        outcome = { kind: 'network', delivered: error.delivered };
      } finally {
        // Before any wait for a retry: a request waiting out a Retry-After holds no place on the wire.
        this.pace.done();
      }
      if (response?.status === 429) {
        const before = this.pace.requestsPerSecond;
        this.pace.refused(startedAt);
        if (this.pace.requestsPerSecond !== before) this.trace(`* pace: ${this.pace.requestsPerSecond.toFixed(1)} requests a second from now on (429)`);
      } else if (response) {
        this.pace.answered();
      }
      if (response && (response.status < 400 || !shouldRetry(request.method, outcome))) {
        return this.forgiveRepeatedDelete(request, response, previousUnanswered);
      }
      if (failure && (failure.final || !shouldRetry(request.method, outcome))) throw this.networkError(failure, request, tries);
      previousUnanswered = failure !== undefined && failure.delivered;

      const retryAfter = response ? parseRetryAfter(response.headers['retry-after'], this.now()) : undefined;
      if (response?.status === 429 && everyRateLimit) {
        const refusal = this.statusError(response.status, safeErrorOf(response.body));
        const wait = retryAfter ?? everyRateLimit.unsaidMs;
        if (wait > MAX_WAIT_MS) throw this.retryLaterError(refusal, wait);
        everyRateLimit.onWait?.(wait, refusal.message);
        this.trace(`* rate limited: trying again in ${wait} ms`);
        await this.cancellable(request, () => this.sleep(wait, request.signal));
        continue;
      }
      if (response && retryAfter !== undefined && retryAfter > RETRY_AFTER_CAP_MS) {
        const refusal = this.statusError(response.status, safeErrorOf(response.body));
        // A wait longer than MAX_WAIT_MS (or one that would overflow a timer) is never waited out.
        const waitLong = this.options.waitLong;
        const waited = retryAfter <= MAX_WAIT_MS && attempt < maxRetries && waitLong ? await this.cancellable(request, () => waitLong(retryAfter, refusal.message, request.signal)) : false;
        if (!waited) throw this.retryLaterError(refusal, retryAfter);
        attempt++;
        continue;
      }
      const delay = retryAfter ?? backoffDelay(attempt, this.options.random);
      const waitedOut = patient && response?.status === 429 && rateLimitWaited + delay <= RATE_LIMIT_BUDGET_MS;
      if (waitedOut) {
        rateLimitWaited += delay;
      } else {
        if (attempt >= maxRetries) {
          if (failure) throw this.networkError(failure, request, tries);
          return response!;
        }
        attempt++;
      }
      const why = failure ? failure.message : `HTTP ${response!.status}`;
      this.trace(`* retry ${waitedOut ? '(rate limited)' : `${attempt}/${maxRetries}`} in ${delay} ms (${why})`);
      this.options.onRetryWait?.(delay, `${request.method} ${this.pathOf(request)} (${this.redact(why)})`);
      await this.cancellable(request, () => this.sleep(delay, request.signal));
    }
  }

  /** Runs a wait of the request; its signal aborted, the command is cancelled (`unsent`: before any attempt was sent). */
  private async cancellable<T>(request: TransportRequest, wait: () => Promise<T>, unsent = false): Promise<T> {
    if (request.signal?.aborted) throw this.cancelledError(request, false, unsent);
    try {
      return await wait();
    } catch (error) {
      if (request.signal?.aborted) throw this.cancelledError(request, false, unsent);
      throw error;
    }
  }

  private cancelledError(request: TransportRequest, sent: boolean, unsent = false): HttpError {
    return cancelledError(sent && !isIdempotent(request.method) ? `${request.method} ${this.pathOf(request)} was sent: it may have taken effect on the service` : undefined, unsent);
  }

  /**
   * A failure of the transport as the core reports it, with how many times the request was sent when
   * it was retried (`request timed out after 30s` may come after 4 tries and 2 minutes); a write that may
   * have arrived says so, and how to check.
   */
  private networkError(failure: TransportError, request: TransportRequest, tries: number): HttpError {
    if (failure.invalid) return invalidRequest(failure.message, failure.hint);
    const message = tries > 1 ? `${failure.message}; tried ${tries} times` : failure.message;
    const code = failure.code.toLowerCase();
    // Timed out, reset or cut short after it was sent: a write may have taken effect.
    const effect = failure.delivered ? this.uncertainEffect(request) : {};
    if (failure.malformed) return new HttpError('malformed', message, { code: code === 'eproto' ? 'malformed_response' : code, hint: failure.hint, ...effect });
    return new HttpError('network', message, { code, hint: failure.hint, ...effect });
  }

  /**
   * What an error says of a request that reached the service with no answer crm can read (or a 5xx):
   * a write that is not safe to repeat may have taken effect, and how to check before sending it again.
   */
  private uncertainEffect(request: TransportRequest): { mayHaveActed?: true; hint?: string } {
    if (isIdempotent(request.method)) return {};
    const path = this.pathOf(request);
    // A create (a POST to a collection) is checked by listing the collection.
    const create = /^\/[^/]+$/.test(path);
    const hint = create
      ? `the service may have created it all the same: look (for example \`crm api GET ${path}\`) before sending it again`
      : `the service may have acted on the ${request.method} all the same: check before sending it again`;
    return { mayHaveActed: true, hint };
  }

  /** The path of a request, relative to the base URL and without its query. */
  private pathOf(request: TransportRequest): string {
    const path = request.url.startsWith(this.baseUrl) ? request.url.slice(this.baseUrl.length) : request.url;
    return path.split('?')[0] || '/';
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return (this.options.sleep ?? abortableSleep)(ms, signal);
  }

  /**
   * A DELETE repeated after an attempt that got no answer finds the record gone: the first attempt
   * deleted it. After an answered refusal (429, 503) a 404 means what it says.
   */
  private forgiveRepeatedDelete(request: TransportRequest, response: TransportResponse, previousUnanswered: boolean): TransportResponse {
    if (request.method !== 'DELETE' || !previousUnanswered || response.status !== 404) return response;
    this.trace('* 404 on a DELETE repeated after an unanswered attempt: the first attempt deleted the record');
    return { status: 200, headers: response.headers, body: JSON.stringify({ data: { deleted: true }, error: null }) };
  }

  private async sendOnce(request: TransportRequest): Promise<TransportResponse> {
    const started = this.now();
    this.traceRequest(request);
    try {
      const answer = await this.options.transport(request).finally(() => this.unanswered.delete(request));
      // The service is untrusted: a key it echoes back (in an error, a record, a header such as
      // Location; in a body, JSON-escaped too) is masked here, before anything reads the answer, so
      // it reaches no output, message or trace. A UTF-8 byte order mark, which JSON parsers may
      // ignore (RFC 8259) and some servers write, is dropped first: JSON.parse refuses it.
      const body = answer.body.startsWith('\uFEFF') ? answer.body.slice(1) : answer.body;
      const response: TransportResponse = { status: answer.status, headers: this.redactHeaders(answer.headers), body: redactBody(body, this.options.apiKey) };
      this.traceResponse(response, this.now() - started);
      return response;
    } catch (error) {
      if (error instanceof TransportError) this.trace(`! ${error.message}`);
      throw error;
    }
  }

  /** The service's refusal; `request` given, a 5xx to a write not safe to repeat says it may have taken effect. */
  private statusError(status: number, error: ErrorMember | undefined, request?: TransportRequest): HttpError {
    const message = error?.message ? error.message : `HTTP ${status}${reason(status) ? ` ${reason(status)}` : ''}`;
    const effect = request && status >= 500 ? this.uncertainEffect(request) : {};
    return new HttpError('status', message, { status, code: error?.code ? error.code : `http_${status}`, ...effect });
  }

  private redirectError(response: TransportResponse): HttpError {
    const location = headerValue(response.headers.location);
    const where = location ? ` to ${location}` : '';
    return new HttpError('redirect', `the service answered with a redirect (HTTP ${response.status}${where}); crm does not follow redirects`, {
      status: response.status,
      code: 'redirect',
      location,
      hint: `check the base URL (https://, and the path ending in ${API_PREFIX})`,
    });
  }

  private retryLaterError(base: HttpError, waitMs: number): HttpError {
    const end = new Date(this.now() + waitMs);
    // Past the last date JavaScript can hold (a Retry-After of 10^13 seconds) there is no date to give.
    const at = Number.isNaN(end.getTime()) ? 'a date too far to show' : end.toISOString();
    // Whole seconds, rounded up, as the header gives them.
    const when = waitMs <= MAX_WAIT_MS ? `retry after ${formatDuration(Math.ceil(waitMs / 1000) * 1000)}, at ${at}` : `retry after ${at}`;
    return new HttpError('retry_later', `${base.message} (${when})`, {
      status: base.status,
      code: base.code,
      retryAfterMs: waitMs,
      hint: waitMs <= MAX_WAIT_MS ? 'pass --wait to wait it out' : undefined,
    });
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private redact(text: string): string {
    return redact(text, this.options.apiKey);
  }

  /**
   * A copy only when a header holds the key (most answers: none). Object.fromEntries defines a header
   * named __proto__ as a plain member, never as the prototype.
   */
  private redactHeaders(headers: TransportResponse['headers']): TransportResponse['headers'] {
    const key = this.options.apiKey;
    if (!key || !holdsKey(headers, key)) return headers;
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.map((item) => this.redact(item)) : value === undefined ? value : this.redact(value)]),
    );
  }

  private trace(line: string): void {
    this.options.trace?.(this.redact(line));
  }

  private traceRequest(request: TransportRequest): void {
    if (!this.options.trace) return;
    this.trace(`> ${request.method} ${request.url}`);
    for (const [name, value] of Object.entries(request.headers)) this.trace(`> ${name}: ${shownHeaderValue(name, value)}`);
    if (request.body !== undefined) this.trace(`> ${request.body}`);
  }

  private traceResponse(response: TransportResponse, ms: number): void {
    if (!this.options.trace) return;
    this.trace(`< ${response.status} ${reason(response.status)} (${ms} ms)`);
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) this.trace(`< ${name}: ${shownHeaderValue(name, Array.isArray(value) ? value.join(', ') : value)}`);
    }
    const body = response.body.length > 4000 ? `${response.body.slice(0, 4000)}… (${response.body.length} bytes)` : response.body;
    if (body) this.trace(`< ${body}`);
  }
}

function holdsKey(headers: TransportResponse['headers'], key: string): boolean {
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string' ? value.includes(key) : value?.some((item) => item.includes(key))) return true;
  }
  return false;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function safeErrorOf(body: string): ErrorMember | undefined {
  try {
    return parseBody(body).error ?? undefined;
  } catch {
    return undefined;
  }
}

/** Text a plain-text error may be shown by (a proxy's or gateway's one line); a page of text or HTML is not a message. */
const PLAIN_ERROR_MAX_CHARS = 300;

/** The message of an error answered as one short line of `text/plain`, when it is one. */
function plainTextError(response: TransportResponse): ErrorMember | undefined {
  const type = headerValue(response.headers['content-type']) ?? '';
  const text = response.body.trim();
  if (!/^text\/plain\b/i.test(type) || text === '' || text.length > PLAIN_ERROR_MAX_CHARS || /[\r\n]/.test(text)) return undefined;
  return { message: text };
}

/** Error bodies without an envelope: {"message": "..."} or {"error": {...}}. */
function readUnwrappedError(data: unknown): ErrorMember | undefined {
  if (!isObject(data)) return typeof data === 'string' && data ? { message: data } : undefined;
  const message = data.message ?? data.detail ?? data.title;
  return typeof message === 'string' ? { message, ...(typeof data.code === 'string' ? { code: data.code } : {}) } : undefined;
}

const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 307: 'Temporary Redirect',
  308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  409: 'Conflict', 413: 'Payload Too Large', 414: 'URI Too Long', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  431: 'Request Header Fields Too Large', 500: 'Internal Server Error',
  502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** crm's headers with the caller's added; one of the caller's replaces crm's of the same name, whatever its case. */
function withHeaders(own: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
  if (!extra) return own;
  const names = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  if (names.has(API_KEY_HEADER.toLowerCase())) throw new Error(`${API_KEY_HEADER} comes from the configuration, never from a caller`);
  return { ...Object.fromEntries(Object.entries(own).filter(([name]) => !names.has(name.toLowerCase()))), ...extra };
}

/** The reason phrase of a status (`OK`, `Not Found`); empty for one crm does not name. */
export function reason(status: number): string {
  return Object.hasOwn(REASONS, status) ? REASONS[status]! : '';
}
