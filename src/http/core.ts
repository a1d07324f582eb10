// The one HTTP core every command goes through: URL building, auth header, JSON bodies, envelope and
// list unwrapping, error mapping to exit codes, timeouts, retries, paging, debug trace and dry run.

import { CliError, DryRunDone, ExitCode, exitCodeForStatus, hintForStatus } from '../cli/errors.js';
import { isObject, parseBody, readEnvelope, unwrapList, type ListPage } from './envelope.js';
import { DEFAULT_MAX_RETRIES, RETRY_AFTER_CAP_MS, backoffDelay, parseRetryAfter, shouldRetry, type Outcome } from './retry.js';
import { TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport.js';
import { maskKey, redact } from './redact.js';
import { buildUrl, type Query } from './url.js';

export const API_KEY_HEADER = 'X-Service-API-Key';
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
  /** With --dry-run: shows the request; nothing is sent. */
  dryRun?: (request: TransportRequest) => void;
  /**
   * Asked when the service wants a wait longer than the cap (429/503 with a long Retry-After).
   * Resolves true once it has waited (--wait, or a countdown on a TTY); false to give up at once.
   */
  waitLong?: (ms: number, reason: string) => Promise<boolean>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ApiClient {
  readonly baseUrl: string;
  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl;
  }

  /** The key as it may be shown: its last 4 characters at most. */
  get maskedKey(): string | null {
    return this.options.apiKey ? maskKey(this.options.apiKey) : null;
  }

  /** Sends one request and returns the envelope's data; throws CliError with the right exit code. */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.exchange(method, path, options)).data as T;
  }

  /** The whole parsed envelope (for `crm api --raw`). */
  async exchange(method: string, path: string, options: RequestOptions = {}): Promise<{ status: number; data: unknown; envelope: unknown }> {
    const request = this.prepare(method, path, options);
    if (this.options.dryRun) {
      this.options.dryRun(redactRequest(request, this.options.apiKey));
      throw new DryRunDone();
    }
    const response = await this.sendWithRetries(request);
    let envelope: unknown;
    try {
      envelope = response.body.trim() === '' ? null : JSON.parse(response.body);
    } catch {
      if (response.status >= 400) throw this.statusError(response.status, undefined);
      throw new CliError(`malformed response from the service (HTTP ${response.status}, not JSON)`, ExitCode.network, {
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
    if (!page) {
      throw new CliError('malformed response from the service (expected a list)', ExitCode.network, { code: 'malformed_response' });
    }
    return page;
  }

  /**
   * Every record of a list, page by page (offset steps of 50), streamed as pages arrive. Newest-first
   * lists shift while being walked, so a record whose id was already yielded is dropped.
   */
  async *paginate(path: string, query: Query = {}, key?: string): AsyncGenerator<unknown> {
    const seen = new Set<string>();
    let offset = Number(query.offset ?? 0);
    for (;;) {
      const page = await this.list(path, { ...query, limit: PAGE_MAX, offset }, key);
      let fresh = 0;
      for (const item of page.items) {
        const id = isObject(item) && (typeof item.id === 'string' || typeof item.id === 'number') ? String(item.id) : undefined;
        if (id !== undefined) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        fresh++;
        yield item;
      }
      offset += page.items.length;
      const shortPage = page.items.length < PAGE_MAX;
      const pastTotal = page.total !== undefined && offset >= page.total;
      // A full page with nothing new means the server ignores offset: stop rather than loop forever.
      if (shortPage || pastTotal || fresh === 0) return;
    }
  }

  private prepare(method: string, path: string, options: RequestOptions): TransportRequest {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
    if (this.options.apiKey) headers[API_KEY_HEADER] = this.options.apiKey;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    return {
      method,
      url: buildUrl(this.baseUrl, path, options.query),
      headers,
      body,
      timeoutMs: this.options.timeoutMs ?? 30_000,
    };
  }

  private async sendWithRetries(request: TransportRequest): Promise<TransportResponse> {
    const maxRetries = this.options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const sleep = this.options.sleep ?? defaultSleep;
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
        return this.forgiveRepeatedDelete(request, response, attempt);
      }
      if (failure && !shouldRetry(request.method, outcome)) throw networkError(failure);

      const retryAfter = response ? parseRetryAfter(response.headers['retry-after'], this.now()) : undefined;
      if (response && retryAfter !== undefined && retryAfter > RETRY_AFTER_CAP_MS) {
        const refusal = this.statusError(response.status, safeParse(response.body) ?? undefined);
        const waited = this.options.waitLong ? await this.options.waitLong(retryAfter, refusal.message) : false;
        if (!waited) throw this.tooLongError(refusal, retryAfter);
        attempt = -1; // a wait the user accepted starts the retry budget afresh
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

  /** A DELETE repeated after an unanswered first try finds the record gone: that is the success we wanted. */
  private forgiveRepeatedDelete(request: TransportRequest, response: TransportResponse, attempt: number): TransportResponse {
    if (request.method !== 'DELETE' || attempt === 0 || response.status !== 404) return response;
    this.trace('* 404 on a repeated DELETE: the first attempt deleted the record');
    return { status: 200, headers: response.headers, body: JSON.stringify({ data: { deleted: true }, error: null }) };
  }

  private async sendOnce(request: TransportRequest): Promise<TransportResponse> {
    const started = this.now();
    this.traceRequest(request);
    try {
      const response = await this.options.transport(request);
      this.traceResponse(response, this.now() - started);
      return response;
    } catch (error) {
      if (error instanceof TransportError) this.trace(`! ${error.message}`);
      throw error;
    }
  }

  private statusError(status: number, error: { message: string; code?: string } | undefined): CliError {
    const message = error?.message || `HTTP ${status}${status ? ` ${reason(status)}` : ''}`;
    return new CliError(message, exitCodeForStatus(status), { status, code: error?.code ?? `http_${status}`, hint: hintForStatus(status) });
  }

  private tooLongError(base: CliError, waitMs: number): CliError {
    const at = new Date(this.now() + waitMs).toISOString();
    return new CliError(`${base.message} (retry after ${Math.ceil(waitMs / 1000)}s, at ${at})`, base.exitCode, {
      status: base.status,
      code: base.code,
      hint: 'pass --wait to wait it out',
    });
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private trace(line: string): void {
    this.options.trace?.(redact(line, this.options.apiKey));
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

function redactRequest(request: TransportRequest, key: string | undefined): TransportRequest {
  const headers = { ...request.headers };
  if (headers[API_KEY_HEADER]) headers[API_KEY_HEADER] = maskKey(headers[API_KEY_HEADER]);
  return { ...request, headers, body: request.body === undefined ? undefined : redact(request.body, key) };
}

function networkError(error: TransportError): CliError {
  return new CliError(error.message, ExitCode.network, { code: error.code.toLowerCase() });
}

function safeParse(body: string): { message: string; code?: string } | null {
  try {
    return parseBody(body).error;
  } catch {
    return null;
  }
}

/** Error bodies without an envelope: {"message": "..."} or {"error": {...}}. */
function readUnwrappedError(data: unknown): { message: string; code?: string } | undefined {
  if (!isObject(data)) return typeof data === 'string' && data ? { message: data } : undefined;
  const message = data.message ?? data.detail ?? data.title;
  return typeof message === 'string' ? { message, ...(typeof data.code === 'string' ? { code: data.code } : {}) } : undefined;
}

const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 413: 'Payload Too Large', 422: 'Unprocessable Entity',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

function reason(status: number): string {
  return REASONS[status] ?? '';
}
