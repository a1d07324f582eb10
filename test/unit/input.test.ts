import { describe, expect, it } from 'vitest';
import { deepMerge, parseDate, parseIdList, parseInteger, parseSetPairs, parseTyped } from '../../src/cli/input.js';

describe('--set', () => {
  it('parses JSON values, keeps other text as strings, and nests dotted keys', () => {
    expect(parseSetPairs(['amount=1200', 'vip=true', 'name=Ada Lovelace', 'tags=["a","b"]', 'address.city=Paris', 'address.zip="75001"', 'note=a=b'])).toEqual({
      amount: 1200,
      vip: true,
      name: 'Ada Lovelace',
      tags: ['a', 'b'],
      address: { city: 'Paris', zip: '75001' },
      note: 'a=b',
    });
  });
  it.each(['novalue', '=x', 'a..b=1'])('rejects %j with exit 2', (pair) => {
    expect(() => parseSetPairs([pair])).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('deepMerge', () => {
  it('lets later layers win and merges nested objects', () => {
    expect(deepMerge({ a: 1, n: { x: 1, y: 1 } }, { a: 2, n: { y: 2 } }, { b: 3 })).toEqual({ a: 2, b: 3, n: { x: 1, y: 2 } });
  });
});

describe('typed flags', () => {
  it('parses integers within bounds', () => {
    expect(parseInteger('50', '--limit', 1, 50)).toBe(50);
    for (const bad of ['0', '51', 'abc', '1.5', '']) {
      expect(() => parseInteger(bad, '--limit', 1, 50)).toThrow(/invalid --limit/);
    }
  });
  it('checks emails and numbers', () => {
    expect(parseTyped('a@b.co', 'email', '--email')).toBe('a@b.co');
    expect(() => parseTyped('not-an-email', 'email', '--email')).toThrow(/invalid email/);
    expect(parseTyped('12.5', 'number', '--amount')).toBe(12.5);
    expect(() => parseTyped('lots', 'number', '--amount')).toThrow(/expected a number/);
  });
  it('reads dates: YYYY-MM-DD, ISO timestamps and relative words', () => {
    const now = new Date(2026, 10, 21, 15, 0, 0);
    expect(parseDate('2026-12-01', '--due', now)).toBe('2026-12-01');
    expect(parseDate('today', '--due', now)).toBe('2026-11-21');
    expect(parseDate('tomorrow', '--due', now)).toBe('2026-11-22');
    expect(parseDate('+3d', '--due', now)).toBe('2026-11-24');
    expect(parseDate('2w', '--due', now)).toBe('2026-12-05');
    expect(parseDate('2026-12-01T09:00:00Z', '--due', now)).toBe('2026-12-01T09:00:00Z');
    for (const bad of ['2026-02-30', 'next week', '12/01/2026']) expect(() => parseDate(bad, '--due', now)).toThrow(/invalid --due/);
  });
});

describe('id lists', () => {
  it('reads one id a line, skipping blanks and comments', () => {
    expect(parseIdList('c1\n\n# comment\n  c2  \r\nc3\n', 'stdin')).toEqual(['c1', 'c2', 'c3']);
  });
  it('reads a JSON array', () => {
    expect(parseIdList(' ["c1", "c2", 3] ', 'stdin')).toEqual(['c1', 'c2', '3']);
  });
  it('rejects a malformed array', () => {
    expect(() => parseIdList('["c1",', 'ids.json')).toThrow(/invalid JSON array in ids.json/);
    expect(() => parseIdList('[{"id":1}]', 'ids.json')).toThrow(/array of ids/);
  });
});
