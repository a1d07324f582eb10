import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { createStreams, colorEnabled } from '../../src/cli/io.js';
import { fitColumns } from '../../src/cli/output/table-kit.js';
import { Printer, type Format } from '../../src/cli/printer.js';
import { done, list, record, type View } from '../../src/cli/result.js';

function printer(format: Format, options: { tty?: boolean; fields?: string[]; quiet?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  let out = '';
  let err = '';
  const io = createStreams({
    env: options.env ?? {},
    noColor: false,
    noInput: true,
    stdout: { write: (text: string) => (out += text), isTTY: options.tty, columns: 100 },
    stderr: { write: (text: string) => (err += text), isTTY: options.tty },
  });
  const now = Date.parse('2026-11-21T12:00:00Z');
  const printer = new Printer({ io, format, fields: options.fields, quiet: options.quiet ?? false, now: () => now });
  const p = {
    records: (items: unknown[], view?: View) => printer.print(list(items, view)),
    record: (value: unknown, view?: View, options: { quietId?: boolean } = {}) => printer.print({ ...record(value, view), ...options }),
    print: printer.print.bind(printer),
  };
  return { p, out: () => out, err: () => err };
}

const records = [
  { id: 'c1', name: 'Ada, "the first"', email: 'ada@x.io', tags: ['a'], created_at: '2026-11-20T12:00:00.000Z' },
  { id: 'c2', name: 'Tab\there\nnewline', email: 'b@x.io', tags: [], created_at: '2026-11-21T11:00:00.000Z' },
];
const view = { columns: ['id', 'name', 'email', 'created_at'] };

describe('Printer', () => {
  it('json: an array with 2-space indent, [] when empty', async () => {
    const a = printer('json');
    await a.p.records(records, view);
    expect(JSON.parse(a.out())).toEqual(records);
    expect(a.out()).toBe(`${JSON.stringify(records, null, 2)}\n`);
    const b = printer('json');
    await b.p.records([], view);
    expect(b.out()).toBe('[]\n');
  });

  it('json: a single record is an object; --fields keeps keys in order', async () => {
    const a = printer('json', { fields: ['email', 'id', 'missing'] });
    await a.p.record(records[0]);
    expect(a.out()).toBe(`${JSON.stringify({ email: 'ada@x.io', id: 'c1', missing: null }, null, 2)}\n`);
  });

  it('ndjson: one record a line', async () => {
    const a = printer('ndjson');
    await a.p.records(records, view);
    expect(a.out().trim().split('\n').map((line) => JSON.parse(line))).toEqual(records);
  });

  it('tsv: the view columns, no header, escapes tabs and newlines, ISO times', async () => {
    const a = printer('tsv');
    await a.p.records(records, view);
    expect(a.out()).toBe('c1\tAda, "the first"\tada@x.io\t2026-11-20T12:00:00.000Z\nc2\tTab\\there\\nnewline\tb@x.io\t2026-11-21T11:00:00.000Z\n');
  });

  it('tsv without view columns (crm api): every field of the first record, in its order, nested ones as JSON; not the 8 scalars a table fits', async () => {
    const item = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`f${index}`, index]));
    const a = printer('tsv');
    await a.p.records([{ ...item, tags: ['a'], extra: { b: 1 } }]);
    expect(a.out()).toBe('0\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t["a"]\t{"b":1}\n');
  });

  it('csv: RFC 4180 with a header row, nested values as JSON', async () => {
    const a = printer('csv', { fields: ['id', 'name', 'tags'] });
    await a.p.records(records, view);
    expect(a.out()).toBe('id,name,tags\r\nc1,"Ada, ""the first""","[""a""]"\r\nc2,"Tab\there\nnewline",[]\r\n');
  });

  it('csv: every key of the first record without --fields', async () => {
    const a = printer('csv');
    await a.p.records([{ id: 'x', n: 1 }]);
    expect(a.out()).toBe('id,n\r\nx,1\r\n');
  });

  it('csv: an empty list is its header alone, the view\'s fields, else its columns (search, sync --status): never nothing', async () => {
    const fields = printer('csv');
    await fields.p.records([], { columns: ['id'], fields: ['id', 'name'] });
    expect(fields.out()).toBe('id,name\r\n');
    const columns = printer('csv');
    await columns.p.records([], { columns: ['type', 'id', 'title'] });
    expect(columns.out()).toBe('type,id,title\r\n');
  });

  it('-q: only ids, one a line', async () => {
    const a = printer('table', { quiet: true });
    await a.p.records(records, view);
    expect(a.out()).toBe('c1\nc2\n');
    const b = printer('json', { quiet: true });
    await b.p.record(records[0], view);
    expect(b.out()).toBe('');
    await b.p.record(records[0], view, { quietId: true });
    expect(b.out()).toBe('c1\n');
  });

  it('a list in memory goes out in few writes (a write is a system call); a streamed list as each record arrives', async () => {
    const many = Array.from({ length: 5000 }, (_, index) => ({ id: `con_${String(index).padStart(16, '0')}`, name: `Person ${index}` }));
    for (const [format, quiet] of [['ndjson', false], ['tsv', false], ['csv', false], ['table', true]] as const) {
      const writes: string[] = [];
      const io = createStreams({ env: {}, noColor: true, noInput: true, stdout: { write: (text: string) => writes.push(text) }, stderr: { write: () => true } });
      await new Printer({ io, format, quiet }).print(list(many, view));
      expect(writes.join('').split('\n').filter(Boolean).length).toBe(format === 'csv' ? 5001 : 5000);
      // 5,000 lines of 20 to 60 characters: a handful of 64 KiB writes, not 5,000.
      expect(writes.length, format).toBeLessThanOrEqual(5);
    }
    const writes: string[] = [];
    const io = createStreams({ env: {}, noColor: true, noInput: true, stdout: { write: (text: string) => writes.push(text) }, stderr: { write: () => true } });
    async function* arriving() {
      for (const item of many.slice(0, 3)) {
        yield item;
        // What came before is out while the next record is awaited (crm watch, an export).
        expect(writes.join('')).toContain(item.id);
      }
    }
    await new Printer({ io, format: 'ndjson', quiet: false }).print(list(arriving(), view));
    expect(writes).toHaveLength(3);
  });

  it('table on a terminal: headers, relative times, ids in full', async () => {
    const a = printer('table', { tty: true, env: { NO_COLOR: '1' } });
    await a.p.records(records, view);
    const lines = a.out().split('\n');
    expect(lines[0]).toMatch(/ID\s+NAME\s+EMAIL\s+CREATED_AT/);
    expect(a.out()).toContain('1 day ago');
    expect(a.out()).toContain('1 hour ago');
    expect(a.out()).not.toMatch(/\x1b\[/);
  });

  it('table into a pipe: ISO times and no colour', async () => {
    const a = printer('table', { tty: false });
    await a.p.records(records, view);
    expect(a.out()).toContain('2026-11-20T12:00:00.000Z');
    expect(a.out()).not.toMatch(/\x1b\[/);
  });

  it('table with colour on a terminal styles the header', async () => {
    const a = printer('table', { tty: true, env: { FORCE_COLOR: '1' } });
    await a.p.records(records, view);
    expect(a.out()).toMatch(/\x1b\[1m/);
  });

  it('a single record with --fields shows every field asked for, in its order, an object as JSON text', async () => {
    const a = printer('table', { tty: true, env: { NO_COLOR: '1' }, fields: ['deals', 'contacts.by_status.lead', 'items'] });
    await a.p.record({ contacts: { by_status: { lead: 25 } }, deals: { open: 17, won: 3 }, items: [{ k: 1 }] });
    expect(a.out()).toBe('deals                    {"open":17,"won":3}\ncontacts.by_status.lead  25\nitems                    [{"k":1}]\n');
  });

  it('a record\'s list of records is a table fitted to the terminal under its heading: no row wraps', async () => {
    for (const columns of [80, 40]) {
      let out = '';
      const io = createStreams({ env: { NO_COLOR: '1' }, noColor: false, noInput: true, stdout: { write: (text: string) => (out += text), isTTY: true, columns }, stderr: { write: () => true, isTTY: true } });
      const items = [{ alpha: 'a'.repeat(30), beta: 'b'.repeat(30), gamma: 'c'.repeat(30), amount: 1200 }];
      await new Printer({ io, format: 'table', quiet: false }).print(record({ id: 'c1', items }));
      const table = out.split('\n').slice(out.split('\n').indexOf('Items') + 1).filter(Boolean);
      expect(table[0], `${columns}`).toMatch(/^ {2}ALPHA/);
      for (const line of table) expect(stringWidth(line), `${columns}: ${line}`).toBeLessThanOrEqual(columns);
    }
  });

  it('a single record on a terminal is a vertical table of every field', async () => {
    const a = printer('table', { tty: true, env: { NO_COLOR: '1' } });
    await a.p.record(records[0], view);
    expect(a.out()).toMatch(/name\s+Ada, "the first"/);
    expect(a.out()).toMatch(/tags\s+a\n/);
  });
});

describe('a command that did something and has no data (auth logout of the sandbox, a dry run of config set)', () => {
  it('prints {message} in the JSON formats, as resultValue says, and nothing on stdout in the text formats', async () => {
    const message = 'The local sandbox has no stored key to remove.';
    for (const [format, shown] of [['json', `{\n  "message": "${message}"\n}\n`], ['ndjson', `{"message":"${message}"}\n`], ['tsv', ''], ['csv', ''], ['table', '']] as const) {
      const a = printer(format);
      await a.p.print(done(message));
      expect(a.out(), format).toBe(shown);
      expect(a.err(), format).toBe('');
    }
  });
});

describe('a bare value (crm config get)', () => {
  it('none is nothing as text and null in the JSON formats: --json always prints JSON', async () => {
    for (const value of [null, undefined]) {
      for (const [format, shown] of [['json', 'null\n'], ['ndjson', 'null\n'], ['tsv', ''], ['csv', ''], ['table', '']] as const) {
        const a = printer(format);
        await a.p.print({ kind: 'value', value });
        expect(a.out(), `${format} of ${value}`).toBe(shown);
      }
    }
    const text = printer('tsv');
    await text.p.print({ kind: 'value', value: 'json' });
    expect(text.out()).toBe('json\n');
  });
});

describe('colour', () => {
  it('is on only on a terminal, off with --no-color or NO_COLOR, forced by FORCE_COLOR', () => {
    expect(colorEnabled({ noColorFlag: false, env: {}, isTTY: true })).toBe(true);
    expect(colorEnabled({ noColorFlag: false, env: {}, isTTY: false })).toBe(false);
    expect(colorEnabled({ noColorFlag: true, env: { FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colorEnabled({ noColorFlag: false, env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colorEnabled({ noColorFlag: false, env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
    expect(colorEnabled({ noColorFlag: false, env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(colorEnabled({ noColorFlag: false, env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(colorEnabled({ noColorFlag: false, env: { TERM: 'dumb' }, isTTY: true })).toBe(false);
  });
});

describe('fitColumns', () => {
  const columns = ['id', 'name', 'note', 'created_at'];
  const numeric = [false, false, false, false];
  it('keeps natural widths when they fit', () => {
    expect(fitColumns(columns, [20, 12, 60, 10], numeric, 200)).toEqual({ keep: [0, 1, 2, 3], widths: [20, 12, 60, 10] });
  });
  it('cuts long text first, then drops the lowest-priority columns; never cuts an id or a short value', () => {
    // 20 + 12 + 60 + 10 + 3 gaps of 2 = 108: the note gives way down to 32.
    expect(fitColumns(columns, [20, 12, 60, 10], numeric, 80)).toEqual({ keep: [0, 1, 2, 3], widths: [20, 12, 32, 10] });
    // Cut text keeps at least half its width (up to 30): at 70 created_at goes and the note keeps 34;
    // at 50 there is no room for 30 of it beside the id and the name, so it goes too.
    expect(fitColumns(columns, [20, 12, 60, 10], numeric, 70)).toEqual({ keep: [0, 1, 2], widths: [20, 12, 34] });
    expect(fitColumns(columns, [20, 12, 60, 10], numeric, 66)).toEqual({ keep: [0, 1, 2], widths: [20, 12, 30] });
    expect(fitColumns(columns, [20, 12, 60, 10], numeric, 50)).toEqual({ keep: [0, 1], widths: [20, 12] });
    // An email is cut last, and keeps 17 of 33 at least; a name of 16 keeps 12.
    expect(fitColumns(['id', 'name', 'email'], [20, 16, 33], [false, false, false], 55)).toEqual({ keep: [0, 1, 2], widths: [20, 12, 19] });
    expect(fitColumns(columns, [20, 12, 60, 10], numeric, 30)).toEqual({ keep: [0], widths: [20] });
  });
  it('drops the columns after an email before it cuts the email', () => {
    const contacts = ['id', 'name', 'email', 'score', 'company'];
    const flags = [false, false, false, true, false];
    // 20 + 24 + 34 + 5 + 20 + 4 gaps of 2 = 111: the company goes; the name gives way, the email stays whole.
    expect(fitColumns(contacts, [20, 24, 34, 5, 20], flags, 80)).toEqual({ keep: [0, 1, 2, 3], widths: [20, 15, 34, 5] });
    // Only when nothing after it is left is the email cut.
    expect(fitColumns(contacts, [20, 24, 34, 5, 20], flags, 70)).toEqual({ keep: [0, 1, 2], widths: [20, 12, 34] });
    expect(fitColumns(contacts, [20, 24, 34, 5, 20], flags, 60)).toEqual({ keep: [0, 1, 2], widths: [20, 12, 24] });
  });
});

describe('what the printer guards', () => {
  it('replaces control characters from the service in tables, tsv and messages', async () => {
    const a = printer('tsv');
    await a.p.records([{ id: 'c1', name: 'Evil\x1b]0;pwned\x07\x1b[2J' }], { columns: ['id', 'name'] });
    expect(a.out()).toBe('c1\tEvil\uFFFD]0;pwned\uFFFD\uFFFD[2J\n');
    const b = printer('table', { tty: true, env: { NO_COLOR: '1' } });
    await b.p.print(done('Deleted \x1b[31mred', { id: 'x' }));
    expect(b.err()).toBe('Deleted \uFFFD[31mred\n');
  });

  it('never reads prototype members as fields', async () => {
    const a = printer('tsv', { fields: ['id', 'toString'] });
    await a.p.records([{ id: 'c1' }]);
    expect(a.out()).toBe('c1\t\n');
    expect(a.err()).toContain('no record has the field "toString"; fields: id');
  });

  it('warns on stderr about a --fields name no record has, naming the fields that exist', async () => {
    const a = printer('json', { fields: ['id', 'nmae'] });
    await a.p.records([{ id: 'c1', name: 'Ada' }]);
    expect(a.err()).toBe('crm: warning: no record has the field "nmae"; fields: id, name\n');
  });

  it('prints one record in a pipe as key<TAB>value lines, nested objects as dotted keys', async () => {
    const a = printer('tsv');
    await a.p.record({ id: 'c1', tags: ['a', 'b'], counts: { open: 2, by: { x: 1 } } });
    expect(a.out()).toBe('id\tc1\ntags\t["a","b"]\ncounts.open\t2\ncounts.by.x\t1\n');
  });

  it('says honestly where a page sits: more, the last page, or past the end', async () => {
    const footer = async (count: number, offset: number, total: number | undefined, full: boolean) => {
      const a = printer('table', { tty: true, env: { NO_COLOR: '1' } });
      await a.p.print(list(Array.from({ length: count }, (_, n) => ({ id: `c${n}` })), { noun: 'contacts' }, { offset, total, full }));
      return a.err();
    };
    expect(await footer(20, 0, 52, true)).toBe('Showing 1-20 of 52 contacts; more with --offset 20, or --all.\n');
    expect(await footer(12, 40, 52, false)).toBe('Showing 41-52 of 52 contacts.\n');
    expect(await footer(0, 1000, 52, false)).toBe('No contacts at offset 1000 (52 in all).\n');
    expect(await footer(20, 0, undefined, true)).toBe('Showing 1-20 contacts; more with --offset 20, or --all.\n');
  });
});

describe('numbers in tables', () => {
  it('get thousands separators on a terminal only', async () => {
    const tty = printer('table', { tty: true, env: { NO_COLOR: '1' } });
    await tty.p.records([{ id: 'd1', amount: 121000.5 }], { columns: ['id', 'amount'] });
    expect(tty.out()).toContain('121,000.5');
    const pipe = printer('table');
    await pipe.p.records([{ id: 'd1', amount: 121000.5 }], { columns: ['id', 'amount'] });
    expect(pipe.out()).toContain('121000.5');
  });

  it('never show a non-zero amount as 0 or -0: two significant digits where two decimals would round it away', async () => {
    const amounts = [0.004, -0.001, 0, -0, 0.005, -500, 1234.5678];
    const tty = printer('table', { tty: true, env: { NO_COLOR: '1' } });
    await tty.p.records(amounts.map((amount, index) => ({ id: `d${index}`, amount })), { columns: ['id', 'amount'] });
    expect(tty.out().split('\n').slice(1, -1).map((line) => line.split(/\s+/)[1])).toEqual(['0.004', '-0.001', '0', '0', '0.01', '-500', '1,234.57']);
    const one = printer('table', { tty: true, env: { NO_COLOR: '1' } });
    await one.p.record({ id: 'd1', amount: -0.0049 });
    expect(one.out()).toMatch(/amount\s+-0\.0049\n/);
  });
});
