// More items than a function call takes arguments (about 120,000 on Node's default stack): code that
// spread such a list into a call (push(...x), unshift(...x), Math.max(...x)) threw "Maximum call
// stack size exceeded". Each case here is one such list, from a file or from the service.
import { describe, expect, it } from 'vitest';
import { createStreams } from '../../src/cli/io.js';
import { Printer } from '../../src/cli/printer.js';
import { list, record } from '../../src/cli/result.js';
import type { Row } from '../../src/commands/bulk.js';
import { enrolmentReport } from '../../src/commands/sequences/enroll/run.js';
import { ExitCode } from '../../src/cli/errors.js';

const MANY = 200_000;

function printer(format: 'table' | 'tsv') {
  let out = '';
  const io = createStreams({
    env: { NO_COLOR: '1' },
    noColor: true,
    noInput: true,
    stdout: { write: (text: string) => (out += text), isTTY: format === 'table', columns: 100 },
    stderr: { write: () => true, isTTY: false },
  });
  return { printer: new Printer({ io, format, quiet: false }), out: () => out };
}

describe(`${MANY.toLocaleString('en')} items`, () => {
  it('sequences enroll: as many emails naming no contact come first in the report, every row kept, exit 7', () => {
    const unresolved: Row[] = Array.from({ length: MANY }, (_, n) => ({ id: `nobody.${n}@example.com`, ok: false, result: 'not_found', error: 'no contact', record: null }));
    const sent: Row[] = [{ id: 'con_a', ok: true, result: 'enrolled', error: null, record: null }];
    const result = enrolmentReport(unresolved, sent, true);
    if (result.kind !== 'list' || !Array.isArray(result.items)) throw new Error('expected a report');
    expect(result.items).toHaveLength(MANY + 1);
    expect((result.items[0] as Row).id).toBe('nobody.0@example.com');
    expect((result.items.at(-1) as Row).id).toBe('con_a');
    expect(result.failure?.exitCode).toBe(ExitCode.partial);
  });

  it('one record under a table whose nested object has as many keys', async () => {
    const nested = Object.fromEntries(Array.from({ length: MANY }, (_, n) => [`k${n}`, n]));
    const a = printer('table');
    await a.printer.print(record({ id: 'c1', custom: nested }));
    expect(a.out().split('\n').filter((line) => /^\s+k\d+\s/.test(line))).toHaveLength(MANY);
  });

  it('--dry-run: a planned body of as many lines', () => {
    const a = printer('tsv');
    a.printer.plan([{ method: 'POST', url: 'https://crm.example.com/api/v1/contacts', headers: {}, body: { ids: Array.from({ length: MANY }, (_, n) => n) } } as never]);
    expect(a.out().split('\n').length).toBeGreaterThan(MANY);
  });

  it("a list under a table (--all at a terminal) with a chart column (pipeline stages): as many rows", async () => {
    const a = printer('table');
    await a.printer.print(list(Array.from({ length: MANY }, (_, n) => ({ stage: `s${n}`, value: n })), { columns: ['stage', 'value'], chart: 'value' }));
    expect(a.out()).toContain('█');
    expect(a.out().split('\n').filter((line) => /^s\d+ /.test(line))).toHaveLength(MANY);
  });
});
