import { describe, expect, it } from 'vitest';
import { cannotUseFile, fileProblem, formatDuration, isObject, timestampText } from '../../src/registry/values.js';

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

describe('a file crm cannot use', () => {
  const failure = (code: string, words: string, call = 'open', path = '/x/y') => Object.assign(new Error(`${code}: ${words}, ${call} '${path}'`), { code });

  it('is said one way, read, written or created, by every layer: the file, then why in the system\'s words, never the code or the system call', () => {
    expect(cannotUseFile('read', '--data file /x/y', failure('ENOENT', 'no such file or directory'))).toBe('cannot read --data file /x/y: no such file or directory');
    expect(cannotUseFile('create', "crm's local database's directory /x", failure('EACCES', 'permission denied', 'mkdir', '/x'))).toBe("cannot create crm's local database's directory /x: permission denied");
    expect(cannotUseFile('write', 'the checkpoint /x/y', failure('ENOSPC', 'no space left on device', 'write'))).toBe('cannot write the checkpoint /x/y: no space left on device');
    expect(cannotUseFile('write', '--errors /x/y', 'the directory /x does not exist')).toBe('cannot write --errors /x/y: the directory /x does not exist');
  });

  it('words the causes the system says obscurely, and keeps what it cannot word', () => {
    expect(fileProblem(failure('EISDIR', 'illegal operation on a directory', 'read'))).toBe('is a directory');
    expect(fileProblem(failure('ENOTDIR', 'not a directory', 'mkdir'))).toBe('a part of the path is a file, not a directory');
    expect(fileProblem(failure('EROFS', 'read-only file system'))).toBe('read-only file system');
    expect(fileProblem(Object.assign(new Error('disk trouble'), { code: 'EIO' }))).toBe('EIO');
    expect(fileProblem(new Error('disk trouble'))).toBe('disk trouble');
  });
});

describe('timestampText: a timestamp as text, also when the service sent an epoch number', () => {
  it('text as it is; seconds below 1e11, milliseconds from it; anything else is none', () => {
    expect(timestampText('2026-11-26T20:00:00.000Z')).toBe('2026-11-26T20:00:00.000Z');
    expect(timestampText(1795723200)).toBe('2026-11-26T20:00:00.000Z');
    expect(timestampText(1795723200.5)).toBe('2026-11-26T20:00:00.500Z');
    expect(timestampText(1795723200123)).toBe('2026-11-26T20:00:00.123Z');
    expect(timestampText(0)).toBe('1970-01-01T00:00:00.000Z');
    for (const none of [undefined, null, true, Number.NaN, Number.POSITIVE_INFINITY, 1e20, {}]) expect(timestampText(none)).toBeUndefined();
  });
});
