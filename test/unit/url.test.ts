import { describe, expect, it } from 'vitest';
import { toCliError } from '../../src/cli/errors.js';
import { assertSafeTransport, buildUrl, encodePathParam, fillPath, isLoopbackHost, normalizeBaseUrl } from '../../src/http/url.js';

/** The exit code a user gets for what the HTTP layer throws (the CLI's one mapping). */
const exitCodeOf = (work: () => unknown): number => {
  try {
    work();
  } catch (error) {
    return toCliError(error).exitCode;
  }
  return 0;
};

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://crm.example.com', 'https://crm.example.com/api/v1'],
    ['https://crm.example.com/', 'https://crm.example.com/api/v1'],
    ['https://crm.example.com/api/v1', 'https://crm.example.com/api/v1'],
    ['https://crm.example.com/api/v1/', 'https://crm.example.com/api/v1'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/api/v1'],
    ['https://host/custom/prefix//', 'https://host/custom/prefix'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it.each(['crm.example.com', 'ftp://host', 'https://host/?x=1', '', 'https://user:pass@host'])('rejects %j with exit 2', (input) => {
    expect(exitCodeOf(() => normalizeBaseUrl(input))).toBe(2);
  });
});

describe('path building', () => {
  it('encodes ids so they cannot change the path', () => {
    expect(fillPath('/contacts/{id}', { id: 'a/b?c#d' })).toBe('/contacts/a%2Fb%3Fc%23d');
    expect(fillPath('/contacts/{id}/notes', { id: '../../admin' })).toBe('/contacts/..%2F..%2Fadmin/notes');
  });

  it.each(['', '.', '..'])('refuses the id %j', (id) => {
    expect(exitCodeOf(() => encodePathParam('id', id))).toBe(2);
  });

  it('joins base, path and query with or without slashes, dropping empty values', () => {
    expect(buildUrl('https://h/api/v1/', '/contacts', { limit: 5, search: 'a b', status: undefined, overdue: false })).toBe(
      'https://h/api/v1/contacts?limit=5&search=a+b',
    );
    expect(buildUrl('https://h/api/v1', 'contacts')).toBe('https://h/api/v1/contacts');
  });
});

describe('plain HTTP', () => {
  it.each(['localhost', '127.0.0.1', '127.8.9.10', '[::1]', new URL('http://[::ffff:127.0.0.1]').hostname])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  // A name under .localhost is only loopback if the resolver says so: crm does not trust it unresolved.
  it.each(['example.com', '10.0.0.1', '128.0.0.1', 'localhost.evil.com', 'api.localhost', new URL('http://[::ffff:10.0.0.1]').hostname])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('never sends the key over plain HTTP to another host unless --insecure', () => {
    expect(exitCodeOf(() => assertSafeTransport('http://crm.example.com/api/v1', false))).toBe(2);
    expect(() => assertSafeTransport('http://crm.example.com/api/v1', true)).not.toThrow();
    expect(() => assertSafeTransport('https://crm.example.com/api/v1', false)).not.toThrow();
    expect(() => assertSafeTransport('http://127.0.0.1:9/api/v1', false)).not.toThrow();
  });
});
