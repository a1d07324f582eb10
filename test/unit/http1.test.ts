// HTTP/1.1 framing of the network transport: the answers peers really send, in any pieces, and the
// ones that must not be trusted.
import { describe, expect, it } from 'vitest';
import { AnswerParser, MalformedAnswerError, serializeRequest, type Answer } from '../../src/transport/http1.js';

/** Feeds the bytes in pieces of `size` (1: every split a TCP stream may make); then the close, if asked. */
function parse(text: string | Buffer, { method = 'GET', size = Infinity, close = false } = {}): Answer | undefined {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  const parser = new AnswerParser(method);
  let answer: Answer | undefined;
  for (let at = 0; at < bytes.length && !answer; at += size) answer = parser.push(bytes.subarray(at, Math.min(at + size, bytes.length)));
  return answer ?? (close ? parser.end() : undefined);
}

const LENGTH = 'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"data":{}}';
const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{"da\r\n7\r\nta":{}}\r\n0\r\nX-Trailer: yes\r\n\r\n';

describe('reading an answer', () => {
  it('reads a body framed by Content-Length, and the connection may be used again', () => {
    expect(parse(LENGTH)).toEqual({ status: 201, headers: { 'content-type': 'application/json', 'content-length': '11' }, body: '{"data":{}}', reusable: true });
  });

  it('reads a chunked body with extensions and trailers', () => {
    expect(parse(CHUNKED)).toMatchObject({ status: 200, body: '{"data":{}}', reusable: true });
  });

  it('gives the same answer however the bytes are split', () => {
    for (const text of [LENGTH, CHUNKED]) {
      const whole = parse(text);
      for (let size = 1; size < text.length; size++) expect(parse(text, { size }), `pieces of ${size}`).toEqual(whole);
    }
  });

  it('decodes UTF-8 split inside a character', () => {
    const body = Buffer.from('{"name":"Zoë 東京"}', 'utf8');
    const bytes = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`), body]);
    expect(parse(bytes, { size: 1 })?.body).toBe('{"name":"Zoë 東京"}');
  });

  it('waits for the whole body', () => {
    expect(parse(LENGTH.slice(0, -1))).toBeUndefined();
    expect(parse(CHUNKED.slice(0, -2))).toBeUndefined();
  });

  it('tolerates bare LF line ends and folded header lines', () => {
    const answer = parse('HTTP/1.1 200 OK\nX-Long: one\n  two\nContent-Length: 2\n\nok');
    expect(answer).toMatchObject({ status: 200, body: 'ok', reusable: true });
    expect(answer!.headers['x-long']).toBe('one two');
  });

  it('skips 100 Continue and 103 Early Hints before the answer', () => {
    expect(parse(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${LENGTH}`, { size: 7 })).toMatchObject({ status: 201, body: '{"data":{}}' });
  });

  it('reads no body after HEAD, 204 or 304, whatever Content-Length says', () => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n', { method: 'HEAD' })).toMatchObject({ status: 200, body: '', reusable: true });
    expect(parse('HTTP/1.1 204 No Content\r\nContent-Length: 50\r\n\r\n')).toMatchObject({ status: 204, body: '' });
    expect(parse('HTTP/1.1 304 Not Modified\r\n\r\n')).toMatchObject({ status: 304, body: '' });
  });

  it('reads a body without length to the close; that connection is not used again', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it';
    expect(parse(text)).toBeUndefined();
    expect(parse(text, { close: true })).toMatchObject({ body: 'all of it', reusable: false });
    expect(parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz', { close: true })).toMatchObject({ body: 'zz', reusable: false });
  });

  it('knows a close before the end of the body is not an answer', () => {
    expect(parse(LENGTH.slice(0, -3), { close: true })).toBeUndefined();
    expect(parse(CHUNKED.slice(0, -9), { close: true })).toBeUndefined();
  });

  it('does not use a connection again after Connection: close, an HTTP/1.0 answer, or bytes past the answer', () => {
    expect(parse(LENGTH.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'))?.reusable).toBe(false);
    expect(parse(LENGTH.replace('HTTP/1.1', 'HTTP/1.0'))?.reusable).toBe(false);
    expect(parse(LENGTH.replace('HTTP/1.1', 'HTTP/1.0').replace('\r\n\r\n', '\r\nConnection: Keep-Alive\r\n\r\n'))?.reusable).toBe(true);
    expect(parse(`${LENGTH}HTTP/1.1 200 OK`)?.reusable).toBe(false);
  });

  it('lets Transfer-Encoding win over Content-Length, and then closes the connection', () => {
    expect(parse(CHUNKED.replace('\r\n\r\n', '\r\nContent-Length: 3\r\n\r\n'))).toMatchObject({ body: '{"data":{}}', reusable: false });
  });

  it('keeps the first of a repeated Retry-After, joins other repeats, and lists Set-Cookie', () => {
    const answer = parse('HTTP/1.1 429 Too Many\r\nRetry-After: 5\r\nRetry-After: 99\r\nVia: a\r\nVia: b\r\nSet-Cookie: x=1\r\nSet-Cookie: y=2\r\nContent-Length: 0\r\n\r\n');
    expect(answer!.headers).toMatchObject({ 'retry-after': '5', via: 'a, b', 'set-cookie': ['x=1', 'y=2'] });
  });

  it('takes a header named __proto__ as a header, never as a prototype', () => {
    const answer = parse('HTTP/1.1 200 OK\r\n__proto__: {"polluted":true}\r\nConstructor: x\r\nContent-Length: 0\r\n\r\n');
    expect(answer!.headers['__proto__']).toBe('{"polluted":true}');
    expect(Object.getPrototypeOf(answer!.headers)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['a status line that is not HTTP/1.x', 'HTTP/2 200\r\n\r\n'],
    ['garbage', '<html>hello</html>\r\n\r\n'],
    ['a header line without a name', 'HTTP/1.1 200 OK\r\n: x\r\n\r\n'],
    ['Content-Length repeats that disagree', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok'],
    ['a Content-Length that is not a number', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n'],
    ['a chunk size that is not hexadecimal', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['a chunk longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n'],
    ['a switch of protocols', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n'],
    ['a head that never ends', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70 * 1024)}`],
  ])('refuses %s', (_, text) => {
    expect(() => parse(text)).toThrow(MalformedAnswerError);
  });
});

describe('writing a request', () => {
  it('writes the head and body in one piece, with Host and Content-Length', () => {
    expect(serializeRequest('POST', 'api.example.com', '/api/v1/contacts', { Accept: 'application/json' }, '{"name":"Zoë"}')).toBe(
      'POST /api/v1/contacts HTTP/1.1\r\nHost: api.example.com\r\nConnection: keep-alive\r\nAccept: application/json\r\nContent-Length: 15\r\n\r\n{"name":"Zoë"}',
    );
  });

  it('sends Content-Length: 0 for a POST without a body, and none for a GET', () => {
    expect(serializeRequest('POST', 'h', '/x', {}, undefined)).toContain('Content-Length: 0\r\n\r\n');
    expect(serializeRequest('GET', 'h', '/x', {}, undefined)).toBe('GET /x HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n');
  });

  it('writes a Latin-1 header value as Latin-1 and the body as UTF-8', () => {
    const bytes = serializeRequest('POST', 'h', '/x', { 'X-Name': 'café' }, 'é');
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect((bytes as Buffer).includes(Buffer.from('X-Name: caf\xe9\r\n', 'latin1'))).toBe(true);
    expect((bytes as Buffer).subarray(-2)).toEqual(Buffer.from('é', 'utf8'));
  });

  it('refuses a header that would split the request', () => {
    expect(() => serializeRequest('GET', 'h', '/x', { 'X-Key': 'a\r\nX-Evil: 1' }, undefined)).toThrow(/X-Key header cannot be sent/);
    expect(() => serializeRequest('GET', 'h', '/x', { 'Bad Name': 'a' }, undefined)).toThrow(/header name "Bad Name"/);
    expect(() => serializeRequest('GET', 'h', '/x', Object.freeze({ 'X-Key': 'a\nb' }), undefined)).toThrow(/X-Key header cannot be sent/);
  });

  it('keeps the text of a frozen header set (the core sends the same ones again and again); reads any other set anew', () => {
    const frozen = Object.freeze({ Accept: 'application/json' });
    expect(serializeRequest('GET', 'h', '/a', frozen, undefined)).toBe(serializeRequest('GET', 'h', '/a', { Accept: 'application/json' }, undefined));
    expect(serializeRequest('GET', 'h', '/b', frozen, undefined)).toBe('GET /b HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nAccept: application/json\r\n\r\n');
    const changing: Record<string, string> = { Accept: 'application/json' };
    serializeRequest('GET', 'h', '/a', changing, undefined);
    changing.Accept = 'text/plain';
    expect(serializeRequest('GET', 'h', '/a', changing, undefined)).toContain('\r\nAccept: text/plain\r\n');
    changing.Accept = 'a\r\nX-Evil: 1';
    expect(() => serializeRequest('GET', 'h', '/a', changing, undefined)).toThrow(/Accept header cannot be sent/);
  });
});
