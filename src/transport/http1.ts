// HTTP/1.1 on the wire, for the network transport: a request's bytes, and an incremental parser of
// the answer. node:http costs the client about 380 us of CPU a request on this class of machine, more
// than the service spends answering; this costs about a third of that (bench/scale.mjs, the import).
// The parser is tolerant where peers differ (bare LF line ends, folded header lines, 1xx answers
// before the final one, a body that runs to the close) and strict where a mistake would misframe
// the next answer on a kept-alive connection (Content-Length, chunk sizes): such a connection is
// never used again.

/** Header names and values as RFC 9110 allows them; Latin-1 as node:http writes them. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const ASCII = /^[\x00-\x7f]*$/;
/** A head larger than this is not an answer (node:http's limit is 16 KiB). */
const MAX_HEAD_BYTES = 64 * 1024;
/** Headers of which a repeat is ignored, as node:http does; Content-Length repeats must agree. */
const FIRST_WINS = new Set(['content-type', 'user-agent', 'referer', 'host', 'authorization', 'proxy-authorization', 'if-modified-since', 'if-unmodified-since', 'from', 'location', 'max-forwards', 'retry-after', 'etag', 'last-modified', 'server', 'age', 'expires']);
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** No bytes yet (shared: a Buffer of length 0 holds nothing to change). */
const NOTHING = Buffer.alloc(0);

type Headers = Record<string, string | string[] | undefined>;

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
  /** The connection may carry the next request: framed by length, no `Connection: close`, no bytes left over. */
  reusable: boolean;
}

/** A header that cannot be written (a line break, a character outside Latin-1). */
export class InvalidHeaderError extends Error {}

/** The bytes of a request: head (Latin-1, as node:http writes it) and body (UTF-8). */
export function serializeRequest(method: string, host: string, path: string, headers: Readonly<Record<string, string>>, body: string | undefined): Buffer | string {
  let head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n${headerLines(headers)}`;
  if (body !== undefined) head += `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  else head += METHODS_WITH_BODY.has(method) ? 'Content-Length: 0\r\n\r\n' : '\r\n';
  if (body === undefined) return head;
  // One string, one write, in the common case; Latin-1 in a header must not be sent as UTF-8.
  return ASCII.test(head) ? head + body : Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body, 'utf8')]);
}

/** The checked text of header sets that cannot change (frozen), sent request after request. */
const headerText = new WeakMap<object, string>();

function headerLines(headers: Readonly<Record<string, string>>): string {
  const known = headerText.get(headers);
  if (known !== undefined) return known;
  let text = '';
  for (const name in headers) {
    const value = headers[name]!;
    if (!TOKEN.test(name)) throw new InvalidHeaderError(`the header name "${name}" cannot be sent`);
    if (!FIELD_VALUE.test(value)) throw new InvalidHeaderError(`the ${name} header cannot be sent: it holds a line break or a character outside Latin-1`);
    text += `${name}: ${value}\r\n`;
  }
  if (Object.isFrozen(headers)) headerText.set(headers, text);
  return text;
}

/** The peer sent what is not an HTTP/1.x answer. */
export class MalformedAnswerError extends Error {}

type Stage = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'to-close' | 'done';

/**
 * Reads one answer from the bytes of a connection, in whatever pieces they arrive. `push` returns
 * the answer once complete; `end` is told the peer closed, and returns the answer if that completes it.
 */
export class AnswerParser {
  private stage: Stage = 'head';
  /** The bytes not yet read: `pending` from `at` on (an offset, so that reading makes no new Buffer). */
  private pending: Buffer = NOTHING;
  private at = 0;
  private readonly body: Buffer[] = [];
  /** Body bytes still to come: of a Content-Length body, or of the current chunk. */
  private remaining = 0;
  private status = 0;
  private headers: Headers = Object.create(null) as Headers;
  private keepAlive = true;
  /** Any byte of an answer has arrived (so a close is an answer cut short, not a refusal). */
  received = false;

  constructor(private readonly method: string) {}

  push(chunk: Buffer): Answer | undefined {
    this.received = true;
    this.pending = this.at === this.pending.length ? chunk : Buffer.concat([this.pending.subarray(this.at), chunk]);
    this.at = 0;
    while (this.step());
    if (this.stage !== 'done') return undefined;
    return this.answer(this.keepAlive && this.at === this.pending.length);
  }

  end(): Answer | undefined {
    if (this.stage !== 'to-close') return undefined;
    this.stage = 'done';
    return this.answer(false);
  }

  /** Moves on by one step; false when it needs more bytes (or is done). */
  private step(): boolean {
    switch (this.stage) {
      case 'head':
        return this.readHead();
      case 'length':
        if (this.takeBody()) this.stage = 'done';
        return false;
      case 'chunk-size': {
        const line = this.readLine();
        if (line === undefined) return false;
        const size = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
        if (!size) throw new MalformedAnswerError(`a chunk size of "${line.slice(0, 20)}"`);
        this.remaining = Number.parseInt(size[1]!, 16);
        this.stage = this.remaining === 0 ? 'trailers' : 'chunk-data';
        return true;
      }
      case 'chunk-data':
        if (!this.takeBody()) return false;
        this.stage = 'chunk-end';
        return true;
      case 'chunk-end': {
        // The line break after a chunk's data: CRLF, or a bare LF.
        const crlf = this.pending[this.at] === 13 ? 1 : 0;
        if (this.pending.length - this.at <= crlf) return false;
        if (this.pending[this.at + crlf] !== 10) throw new MalformedAnswerError('a chunk longer than its size');
        this.at += crlf + 1;
        this.stage = 'chunk-size';
        return true;
      }
      case 'trailers': {
        const line = this.readLine();
        if (line === undefined) return false;
        if (line === '') this.stage = 'done';
        return this.stage !== 'done';
      }
      case 'to-close':
        if (this.at < this.pending.length) this.body.push(this.pending.subarray(this.at));
        this.pending = NOTHING;
        this.at = 0;
        return false;
      case 'done':
        return false;
    }
  }

  /** Moves what has arrived of the `remaining` body bytes into the body; true once all have. */
  private takeBody(): boolean {
    const take = Math.min(this.remaining, this.pending.length - this.at);
    if (take === 0) return false;
    this.body.push(this.pending.subarray(this.at, this.at + take));
    this.at += take;
    this.remaining -= take;
    return this.remaining === 0;
  }

  /** The next line without its end (CRLF or a bare LF), or undefined until it has arrived. */
  private readLine(): string | undefined {
    const end = this.pending.indexOf(10, this.at);
    if (end < 0) {
      if (this.pending.length - this.at > MAX_HEAD_BYTES) throw new MalformedAnswerError('a line longer than 64 KiB');
      return undefined;
    }
    const line = this.pending.toString('latin1', this.at, end > this.at && this.pending[end - 1] === 13 ? end - 1 : end);
    this.at = end + 1;
    return line;
  }

  private readHead(): boolean {
    const blank = findBlankLine(this.pending, this.at);
    if (blank === undefined) {
      if (this.pending.length - this.at > MAX_HEAD_BYTES) throw new MalformedAnswerError('a head larger than 64 KiB');
      return false;
    }
    const head = this.pending.toString('latin1', this.at, blank.start);
    this.at = blank.end;
    const statusEnd = lineEnd(head, 0);
    const statusLine = /^HTTP\/1\.([01]) (\d{3})(?:[ \t].*)?$/.exec(head.slice(0, statusEnd.end));
    if (!statusLine) throw new MalformedAnswerError(`"${head.slice(0, Math.min(statusEnd.end, 40))}" is not an HTTP/1.x status line`);
    const status = Number(statusLine[2]);
    const headers = parseHeaders(head, statusEnd.next);
    if (status === 101) throw new MalformedAnswerError('a switch of protocols nobody asked for');
    // 100 Continue, 103 Early Hints: the answer comes after.
    if (status < 200) return this.at < this.pending.length;
    this.status = status;
    this.headers = headers;
    this.keepAlive = statusLine[1] === '1' ? !hasToken(headers.connection, 'close') : hasToken(headers.connection, 'keep-alive');

    if (this.method === 'HEAD' || status === 204 || status === 304) {
      this.stage = 'done';
      return false;
    }
    const transferEncoding = headers['transfer-encoding'] === undefined ? [] : tokens(headers['transfer-encoding']);
    if (transferEncoding.length > 0) {
      // A Transfer-Encoding overrides any Content-Length; not ending in chunked, the body runs to the close.
      if (headers['content-length'] !== undefined) this.keepAlive = false;
      this.stage = transferEncoding.at(-1) === 'chunked' ? 'chunk-size' : 'to-close';
    } else if (headers['content-length'] !== undefined) {
      this.remaining = contentLength(headers['content-length']);
      this.stage = this.remaining === 0 ? 'done' : 'length';
    } else {
      this.stage = 'to-close';
    }
    if (this.stage === 'to-close') this.keepAlive = false;
    return this.stage !== 'done';
  }

  private answer(reusable: boolean): Answer {
    // Most bodies arrive in one piece: decoded where they lie, not copied first.
    const body = this.body.length === 1 ? this.body[0]!.toString('utf8') : Buffer.concat(this.body).toString('utf8');
    return { status: this.status, headers: this.headers, body, reusable };
  }
}

/** Where the head ends: the first empty line, after CRLF or a bare LF (start: where the last line's end begins). */
function findBlankLine(bytes: Buffer, from: number): { start: number; end: number } | undefined {
  for (let at = bytes.indexOf(10, from); at >= 0; at = bytes.indexOf(10, at + 1)) {
    const start = at > from && bytes[at - 1] === 13 ? at - 1 : at;
    if (bytes[at + 1] === 10) return { start, end: at + 2 };
    if (bytes[at + 1] === 13 && bytes[at + 2] === 10) return { start, end: at + 3 };
  }
  return undefined;
}

/** Where the line starting at `from` ends (before its CR LF or bare LF), and where the next one starts. */
function lineEnd(text: string, from: number): { end: number; next: number } {
  const lf = text.indexOf('\n', from);
  if (lf < 0) return { end: text.length, next: text.length };
  return { end: lf > from && text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf, next: lf + 1 };
}

/** Header lines (of `head`, from `from`) into an object with no prototype (a header named __proto__ is only a header). */
function parseHeaders(head: string, from: number): Headers {
  const headers = Object.create(null) as Headers;
  let last: string | undefined;
  for (let at = from; at < head.length; ) {
    const { end, next } = lineEnd(head, at);
    const line = head.slice(at, end);
    at = next;
    const first = line.charCodeAt(0);
    if ((first === 32 || first === 9) && last !== undefined) {
      // An obsolete folded line continues the previous header.
      const value = headers[last];
      if (typeof value === 'string') headers[last] = `${value} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).toLowerCase() : '';
    if (!TOKEN.test(name)) throw new MalformedAnswerError(`the header line "${line.slice(0, 40)}"`);
    const value = line.slice(colon + 1).trim();
    last = name;
    const previous = headers[name];
    if (previous === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
    else if (Array.isArray(previous)) previous.push(value);
    else if (name === 'content-length') headers[name] = `${previous}, ${value}`;
    else if (!FIRST_WINS.has(name)) headers[name] = `${previous}, ${value}`;
  }
  return headers;
}

/** A Content-Length, repeated or not; repeats must agree, or the answer's end is unknown. */
function contentLength(value: string | string[]): number {
  const values = String(value).split(',').map((part) => part.trim());
  if (!values.every((part) => /^\d{1,15}$/.test(part) && part === values[0])) throw new MalformedAnswerError(`a Content-Length of "${String(value).slice(0, 40)}"`);
  return Number(values[0]);
}

/** The comma-separated tokens of a header, lower-cased (most are a single token: no list is made). */
function tokens(value: string | string[]): string[] {
  const text = String(value).toLowerCase();
  if (!text.includes(',')) {
    const token = text.trim();
    return token === '' ? [] : [token];
  }
  return text
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
}

function hasToken(value: string | string[] | undefined, token: string): boolean {
  return value !== undefined && tokens(value).includes(token);
}
