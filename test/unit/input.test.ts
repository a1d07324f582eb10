import { describe, expect, it } from 'vitest';
import { calendarDay, deepMerge, localDay, parseDate, parseInteger, parseListedValues, parseSetPairs, parseValue, readDataOption } from '../../src/cli/input.js';
import { isDue, parseDue } from '../../src/commands/tasks/due.js';
import { Readable } from 'node:stream';

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
  it.each(['novalue', '=x', 'a..b=1', '__proto__.x=1', 'constructor=1', 'a.prototype.b=1', 'x={"__proto__":{"y":1}}'])('rejects %j with exit 2', (pair) => {
    expect(() => parseSetPairs([pair])).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('prototype names', () => {
  it('never reach Object.prototype, from --set or --data', async () => {
    expect(() => parseSetPairs(['__proto__.polluted=1'])).toThrow(/"__proto__" is not allowed/);
    await expect(readDataOption('{"name":"A","__proto__":{"polluted":1}}', Readable.from([]))).rejects.toThrow(/"__proto__" is not allowed/);
    await expect(readDataOption('{"nested":{"constructor":{"prototype":{}}}}', Readable.from([]))).rejects.toThrow(/not allowed/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('stdin', () => {
  it('decodes UTF-8 once, so a character split between chunks stays whole', async () => {
    const text = `{"name":"${'é'.repeat(40_000)}"}`;
    const bytes = Buffer.from(text, 'utf8');
    // 64 KiB chunks split the two bytes of an é.
    const chunks = [bytes.subarray(0, 65_537), bytes.subarray(65_537)];
    const data = await readDataOption('-', Readable.from(chunks));
    expect(data.name).toBe('é'.repeat(40_000));
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
  it('checks emails, numbers and the values the spec fixes (without regard to case)', () => {
    expect(parseValue('a@b.co', { type: 'email' }, '--email')).toBe('a@b.co');
    expect(() => parseValue('not-an-email', { type: 'email' }, '--email')).toThrow(/invalid email/);
    expect(parseValue('12.5', { type: 'number' }, '--amount')).toBe(12.5);
    expect(() => parseValue('lots', { type: 'number' }, '--amount')).toThrow(/expected a number/);
    expect(parseValue('7D', { type: 'string', choices: ['7d', '30d'] }, '--period')).toBe('7d');
    expect(() => parseValue('1y', { type: 'string', choices: ['7d', '30d'] }, '--period')).toThrow('invalid --period "1y" (expected one of: 7d, 30d)');
    expect(parseValue('deals, contacts', { type: 'list', choices: ['contacts', 'deals'] }, '--types')).toEqual(['deals', 'contacts']);
    expect(() => parseValue('deals,people', { type: 'list', choices: ['contacts', 'deals'] }, '--types')).toThrow(/invalid --types "people"/);
  });
  it('reads dates: YYYY-MM-DD, ISO timestamps and relative words', () => {
    const now = new Date(2026, 10, 21, 15, 0, 0);
    expect(parseDate('2026-12-01', '--due', now)).toBe('2026-12-01');
    expect(parseDate('today', '--due', now)).toBe('2026-11-21');
    expect(parseDate('tomorrow', '--due', now)).toBe('2026-11-22');
    expect(parseDate('+3d', '--due', now)).toBe('2026-11-24');
    expect(parseDate('2w', '--due', now)).toBe('2026-12-05');
    expect(parseDate('2026-12-01T09:00:00Z', '--due', now)).toBe('2026-12-01T09:00:00Z');
    for (const bad of ['2026-02-30', 'next week', '12/01/2026', '+100000000d', '+3000000d']) expect(() => parseDate(bad, '--due', now)).toThrow(/invalid --due/);
  });
});

describe('listed values: ids, or what a crm command printed', () => {
  const values = async (text: string) => (await parseListedValues(text, 'stdin')).map(({ value }) => value);
  it('reads one value a line, skipping blanks and comments, and says where each was', async () => {
    expect(await parseListedValues('c1\n\n# comment\n  c2  \r\nc3\n', 'stdin')).toEqual([
      { value: 'c1', where: 'stdin line 1' },
      { value: 'c2', where: 'stdin line 4' },
      { value: 'c3', where: 'stdin line 5' },
    ]);
  });
  it('reads a JSON array of ids or records, and one record (--json)', async () => {
    expect(await values(' ["c1", "c2", 3] ')).toEqual(['c1', 'c2', '3']);
    expect(await values('[\n  {\n    "id": "c1",\n    "name": "A"\n  },\n  {"id": 2}\n]\n')).toEqual(['c1', '2']);
    expect(await values('{\n  "id": "c1",\n  "email": "a@b.org"\n}\n')).toEqual(['c1']);
  });
  it('reads NDJSON and TSV (the first cell), and one record as key<TAB>value lines', async () => {
    expect(await values('{"id":"c1","name":"A"}\n{"name":"B","id":"c2"}\n')).toEqual(['c1', 'c2']);
    expect(await values('c1\tAda\tada@example.com\nc2\tBob\n')).toEqual(['c1', 'c2']);
    expect(await values('id\tc1\nname\tAda\nemail\tada@example.com\n')).toEqual(['c1']);
    expect(await values('Kite \\t Key\tx\n')).toEqual(['Kite \t Key']);
    expect(await values('Globex Logistics\nInitech Software\n')).toEqual(['Globex Logistics', 'Initech Software']);
  });
  it('reads CSV by its header row (-o csv): the id column, wherever it is; a name with a comma is a name', async () => {
    expect(await values('id,name,email\r\nc1,"Ada, Countess",ada@example.com\r\nc2,Bob,\r\n')).toEqual(['c1', 'c2']);
    expect(await values('title,id\n"Call\nher",t1\nBrief,t2\n')).toEqual(['t1', 't2']);
    expect(await values('id\nt1\nt2\n')).toEqual(['t1', 't2']);
    expect(await values('Acme, Inc.\nGlobex\n')).toEqual(['Acme, Inc.', 'Globex']);
    await expect(parseListedValues('id,name\n,Nobody\n', 'stdin')).rejects.toThrow(/^stdin row 1: a record without an "id"$/);
  });
  it('names the line or item that is not a value or a record with an id', async () => {
    await expect(parseListedValues('["c1",', 'ids.json')).rejects.toThrow(/^invalid JSON array in ids.json$/);
    await expect(parseListedValues('[{"name":"x"}]', 'ids.json')).rejects.toThrow(/^ids.json item 1: a record without an "id"$/);
    await expect(parseListedValues('c1\n{"id": }\n', 'stdin')).rejects.toThrow(/^stdin line 2: invalid JSON$/);
    await expect(parseListedValues('{"id":"c1"}\n{"name":"B"}\n', 'stdin')).rejects.toThrow(/^stdin line 2: a record without an "id"$/);
    await expect(parseListedValues('[null]', 'stdin')).rejects.toThrow(/^stdin item 1: neither an id nor a record$/);
  });
});

describe('the user\'s day, in their time zone', () => {
  it('today, tomorrow and +Nd count from the day it is in the time zone given, across a month\'s end', () => {
    // 08:00 on 1 December in Auckland is still 30 November in UTC and in New York.
    const now = new Date('2026-11-30T19:00:00Z');
    expect(parseDate('today', '--due', now, 'Pacific/Auckland')).toBe('2026-12-01');
    expect(parseDate('+1d', '--due', now, 'Pacific/Auckland')).toBe('2026-12-02');
    expect(parseDate('today', '--due', now, 'UTC')).toBe('2026-11-30');
    expect(parseDate('tomorrow', '--due', now, 'America/New_York')).toBe('2026-12-01');
  });

  it('a date is its day wherever one is; a timestamp is on the day it falls on in the time zone', () => {
    expect(calendarDay('2026-11-26', 'Pacific/Auckland')).toBe('2026-11-26');
    expect(calendarDay('2026-11-26', 'America/Los_Angeles')).toBe('2026-11-26');
    // 20:00 UTC on the 26th is 09:00 on the 27th in Auckland, 15:00 on the 26th in New York.
    expect(calendarDay('2026-11-26T20:00:00Z', 'Pacific/Auckland')).toBe('2026-11-27');
    expect(calendarDay('2026-11-26T20:00:00.000+00:00', 'America/New_York')).toBe('2026-11-26');
    expect(calendarDay('2026-11-27T03:00:00Z', 'America/New_York')).toBe('2026-11-26');
    expect(localDay(Date.parse('2026-11-26T11:00:00Z'), 'Pacific/Auckland')).toBe('2026-11-27');
    // An epoch number is the instant timestampText reads: 20:00 UTC on the 26th, in seconds and in milliseconds.
    expect(calendarDay(1795723200, 'Pacific/Auckland')).toBe('2026-11-27');
    expect(calendarDay(1795723200000, 'America/New_York')).toBe('2026-11-26');
    for (const none of [undefined, null, Number.NaN, Infinity, '', 'soon']) expect(calendarDay(none, 'UTC')).toBeUndefined();
  });

  it('a task due at a timestamp is due on that day in the user\'s time zone: not overdue, not tomorrow', () => {
    const dueAt = { status: 'open', due_date: '2026-11-26T20:00:00Z' };
    // 08:00 on the 27th in Auckland: the task is due today there, at 09:00.
    const auckland = (range: string) => isDue(dueAt, parseDue(range, new Date('2026-11-26T19:00:00Z'), 'Pacific/Auckland'));
    expect([auckland('overdue'), auckland('today')]).toEqual([false, true]);
    // 22:00 on the 26th in New York (03:00 on the 27th UTC): due today at 15:00, now past, but the day is not over.
    const newYork = (range: string) => isDue({ status: 'open', due_date: '2026-11-27T03:00:00Z' }, parseDue(range, new Date('2026-11-27T03:00:00Z'), 'America/New_York'));
    expect([newYork('overdue'), newYork('today'), newYork('tomorrow')]).toEqual([false, true, false]);
  });
});
