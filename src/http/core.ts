// The one HTTP core every command goes through: URL building, auth header, JSON bodies, envelope and
// list unwrapping, errors by kind, timeouts, retries and the debug trace. It knows nothing of exit
// codes or terminals: the CLI maps its HttpErrors (src/cli/errors.ts) and decides how to wait.

import { HttpError, invalidRequest } from './errors.js';
import { parseBody, readEnvelope, unwrapList, type ErrorMember, type ListPage } from './envelope.js';
import { formatDuration, isObject } from '../registry/values.js';
import { DEFAULT_MAX_RETRIES, MAX_WAIT_MS, RETRY_AFTER_CAP_MS, backoffDelay, parseRetryAfter, shouldRetry, type Outcome } from './retry.js';
import { TransportError, type Transport, type TransportRequest, type TransportResponse } from '../transport/types.js';
import { maskKey, redact } from './redact.js';
import { buildUrl, type Query } from './url.js';

export const API_KEY_HEADER = 'X-Service-API-Key';
/** The service's maximum records per page. */
export const PAGE_MAX = 50;

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
   */
  waitLong?: (ms: number, reason: string) => Promise<boolean>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

interface RequestOptions {
  query?: Query;
  body?: unknown;
}

interface Exchange {
  status: number;
  data: unknown;
  /** The parsed body as the service sent it (`crm api --raw`). */
  envelope: unknown;
}

/** What an HTTP header value may hold (Node refuses anything else). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ApiClient {
  readonly baseUrl: string;
  private readonly options: ClientOptions;
  private headerSets?: { bare: Readonly<Record<string, string>>; json: Readonly<Record<string, string>> };

  constructor(options: ClientOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl;
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
    const response = await this.sendWithRetries(request);
    if (response.status >= 300 && response.status < 400) throw this.redirectError(response);
    let envelope: unknown;
    try {
      envelope = response.body.trim() === '' ? null : JSON.parse(response.body);
    } catch {
      if (response.status >= 400) throw this.statusError(response.status, undefined);
      throw new HttpError('malformed', `malformed response from the service (HTTP ${response.status}, not JSON)`, {
        status: response.status,
        code: 'malformed_response',
      });
    }
    const parsed = readEnvelope(envelope);
    if (response.status >= 400 || parsed.error) {
      throw this.statusError(response.status, parsed.error ?? readUnwrappedError(parsed.data));
    }
    return { status: response.status, data: parsed.data, envelope };
  }

  /** One page of a list endpoint. */
  async list(path: string, query: Query = {}, key?: string): Promise<ListPage> {
    const data = await this.request('GET', path, { query });
    const page = unwrapList(data, key);
    if (!page) throw new HttpError('malformed', 'malformed response from the service (expected a list)', { code: 'malformed_response' });
    return page;
  }

  private prepare(method: string, path: string, options: RequestOptions): TransportRequest {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    return {
      method,
      url: buildUrl(this.baseUrl, path, options.query),
      headers: this.headersFor(body !== undefined),
      body,
      timeoutMs: this.options.timeoutMs ?? 30_000,
    };
  }

  /** The same two frozen header sets for every request, so the transport may keep their text. */
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
      this.headerSets = { bare: Object.freeze(headers), json: Object.freeze({ ...headers, 'Content-Type': 'application/json' }) };
    }
    return withBody ? this.headerSets.json : this.headerSets.bare;
  }

  private async sendWithRetries(request: TransportRequest): Promise<TransportResponse> {
    const maxRetries = this.options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const sleep = this.options.sleep ?? defaultSleep;
    /** The previous attempt got no answer: the service may have acted on it. */
    let previousUnanswered = false;
    for (let attempt = 0; ; attempt++) {
      let outcome: Outcome;
      let response: TransportResponse | undefined;
      let failure: TransportError | undefined;
      try {
        response = await this.sendOnce(request);
        outcome = { kind: 'status', status: response.status };
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        failure = error;
        outcome = { kind: 'network', delivered: error.delivered };
      }
      if (response && (response.status < 400 || !shouldRetry(request.method, outcome))) {
        return this.forgiveRepeatedDelete(request, response, previousUnanswered);
      }
      if (failure && !shouldRetry(request.method, outcome)) throw networkError(failure);
      previousUnanswered = failure !== undefined && failure.delivered;

      const retryAfter = response ? parseRetryAfter(response.headers['retry-after'], this.now()) : undefined;
      if (response && retryAfter !== undefined && retryAfter > RETRY_AFTER_CAP_MS) {
        const refusal = this.statusError(response.status, safeErrorOf(response.body));
        // A wait longer than MAX_WAIT_MS (or one that would overflow a timer) is never waited out.
        const waited = retryAfter <= MAX_WAIT_MS && attempt < maxRetries && this.options.waitLong ? await this.options.waitLong(retryAfter, refusal.message) : false;
        if (!waited) throw this.retryLaterError(refusal, retryAfter);
        continue;
      }
      if (attempt >= maxRetries) {
        if (failure) throw networkError(failure);
        return response!;
      }
      const delay = retryAfter ?? backoffDelay(attempt, this.options.random);
      this.trace(`* retry ${attempt + 1}/${maxRetries} in ${delay} ms (${failure ? failure.message : `HTTP ${response!.status}`})`);
      await sleep(delay);
    }
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
      const answer = await this.options.transport(request);
      // The service is untrusted: a key it echoes back (in an error, a record, a header such as
      // Location) is masked here, before anything reads the answer, so it reaches no output,
      // message or trace.
      const response: TransportResponse = { status: answer.status, headers: this.redactHeaders(answer.headers), body: this.redact(answer.body) };
      this.traceResponse(response, this.now() - started);
      return response;
    } catch (error) {
      if (error instanceof TransportError) this.trace(`! ${error.message}`);
      throw error;
    }
  }

  private statusError(status: number, error: ErrorMember | undefined): HttpError {
    const message = error?.message ? error.message : `HTTP ${status}${status ? ` ${reason(status)}` : ''}`;
    return new HttpError('status', message, { status, code: error?.code ? error.code : `http_${status}` });
  }

  private redirectError(response: TransportResponse): HttpError {
    const location = headerValue(response.headers.location);
    const where = location ? ` to ${location}` : '';
    return new HttpError('redirect', `the service answered with a redirect (HTTP ${response.status}${where}); crm does not follow redirects`, {
      status: response.status,
      code: 'redirect',
      location,
      hint: 'check the base URL (https://, and the path ending in /api/v1)',
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
    for (const [name, value] of Object.entries(request.headers)) this.trace(`> ${name}: ${value}`);
    if (request.body !== undefined) this.trace(`> ${request.body}`);
  }

  private traceResponse(response: TransportResponse, ms: number): void {
    if (!this.options.trace) return;
    this.trace(`< ${response.status} ${reason(response.status)} (${ms} ms)`);
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) this.trace(`< ${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
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

function networkError(error: TransportError): HttpError {
  return new HttpError('network', error.message, { code: error.code.toLowerCase() });
}

function safeErrorOf(body: string): ErrorMember | undefined {
  try {
    return parseBody(body).error ?? undefined;
  } catch {
    return undefined;
  }
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
  409: 'Conflict', 413: 'Payload Too Large', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error',
  502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

function reason(status: number): string {
  return Object.hasOwn(REASONS, status) ? REASONS[status]! : '';
}
