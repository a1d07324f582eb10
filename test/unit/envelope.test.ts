import { describe, expect, it } from 'vitest';
import { parseBody, readError, unwrapList } from '../../src/http/envelope.js';

describe('parseBody', () => {
  it('unwraps the envelope', () => {
    expect(parseBody('{"data":{"id":"c1"},"error":null}')).toEqual({ data: { id: 'c1' }, error: null });
  });
  it('reads a string error', () => {
    expect(parseBody('{"data":null,"error":"Invalid or revoked API key"}').error).toEqual({ message: 'Invalid or revoked API key' });
  });
  it('reads an object error with a code', () => {
    expect(parseBody('{"data":null,"error":{"message":"Nope","code":"forbidden"}}').error).toEqual({ message: 'Nope', code: 'forbidden' });
  });
  it('takes a body without an envelope as the data', () => {
    expect(parseBody('[{"id":1}]')).toEqual({ data: [{ id: 1 }], error: null });
  });
  it('treats an empty body as no data', () => {
    expect(parseBody('')).toEqual({ data: null, error: null });
  });
  it('throws on a body that is not JSON', () => {
    expect(() => parseBody('<html>')).toThrow(SyntaxError);
  });
});

describe('readError', () => {
  it.each([
    [{ error: 'inner' }, 'inner'],
    [{ detail: 'from detail' }, 'from detail'],
    [['a', { message: 'b' }], 'a; b'],
    [42, '42'],
  ])('%j → %s', (error, message) => {
    expect(readError(error)?.message).toBe(message);
  });
  it('keeps the first 2,000 characters of a message of megabytes, saying how many more there were', () => {
    for (const error of [{ message: `bad ${'z'.repeat(3_000_000)}` }, `bad ${'z'.repeat(3_000_000)}`]) {
      expect(readError(error)?.message).toBe(`bad ${'z'.repeat(1_996)}… (2998004 more characters)`);
    }
    // Never half of a surrogate pair.
    expect(readError(`${'a'.repeat(1_999)}😀tail`)?.message).toBe(`${'a'.repeat(1_999)}… (6 more characters)`);
    expect(readError('a'.repeat(2_000))?.message).toBe('a'.repeat(2_000));
  });
  it('is null for null, undefined and false', () => {
    expect(readError(null)).toBeNull();
    expect(readError(undefined)).toBeNull();
    expect(readError(false)).toBeNull();
  });
});

describe('unwrapList', () => {
  it('reads the service shape {"contacts": [...], "total": N}', () => {
    expect(unwrapList({ contacts: [{ id: 'a' }], total: 7 }, 'contacts')).toEqual({ items: [{ id: 'a' }], total: 7, key: 'contacts' });
  });
  it('reads a bare array', () => {
    expect(unwrapList([1, 2])).toEqual({ items: [1, 2] });
  });
  it('reads any object with a single array member', () => {
    expect(unwrapList({ things: [1], total: 1, page: 0 }, 'contacts')).toEqual({ items: [1], total: 1, key: 'things' });
  });
  it('prefers the expected key when several arrays are present', () => {
    expect(unwrapList({ tags: ['x'], deals: [{ id: 'd' }] }, 'deals')?.items).toEqual([{ id: 'd' }]);
  });
  it('is null when no list can be found', () => {
    expect(unwrapList({ a: 1 })).toBeNull();
    expect(unwrapList('text')).toBeNull();
  });
});
