import { describe, expect, it } from 'vitest';
import { formatDuration, isObject } from '../../src/registry/values.js';

describe('formatDuration', () => {
  it('writes a span of time one way for every message', () => {
    const cases: Array<[number, string]> = [
      [0, '0ms'],
      [10, '10ms'],
      [999.6, '1000ms'],
      [1000, '1s'],
      [1500, '1.5s'],
      [11_000, '11s'],
      [120_000, '120s'],
      [600_000, '600s'],
      [601_000, '10m01s'],
      [3_599_000, '59m59s'],
      [3_600_000, '1h00m'],
      [3_900_000, '1h05m'],
    ];
    expect(cases.map(([ms]) => formatDuration(ms))).toEqual(cases.map(([, text]) => text));
  });
});

describe('isObject', () => {
  it('is true for a JSON object only', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isObject)).toEqual([true, true, true]);
    expect([null, undefined, [], [1], 'x', 1, true].map(isObject)).toEqual([false, false, false, false, false, false, false]);
  });
});
