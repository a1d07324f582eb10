// What reaches a terminal, and what a spreadsheet or a script gets (issue 20, items 9-12): text from
// the service is made safe in every format on a terminal and stays exact in a pipe; CSV cells a
// spreadsheet would run as formulas are warned about (and guarded on request); widths are display
// widths; a bulk report has the same columns whichever id comes first.
import { parse } from 'csv-parse/sync';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { BASE_URL, homeEnv, json, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const answer = (data: unknown) => JSON.stringify({ data, error: null });
const contacts = (...records: unknown[]) => answer({ contacts: records, total: records.length });
const terminal = { stdout: true, stderr: true, columns: 80 };
const plain = () => ({ NO_COLOR: '1' });

/** What may not reach a terminal: controls but tab and line feed, bidi controls, invisible characters, stray tags. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\u{E0001}/u;
const SCOTLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
const FAMILY = '👨\u200d👩\u200d👧';
/** A record that writes the clipboard (OSC 52), retitles the window, clears the screen (also by C1 CSI), and hides or reverses text. */
const hostile = {
  id: 'con_hostile',
  name: `Eve\u001b]52;c;cm0gLXJmIH4=\u0007\u001b]0;owned\u0007\u001b[2J\u009b2J ${FAMILY} ${SCOTLAND}`,
  email: 'eve@example.com',
  company: `\u202egnp.exe\u202c Ad\u200bmin\u2066x\u2069 \u{E0001}tag`,
};

describe('text from the service on a terminal (item 9)', () => {
  it.each([['csv'], ['tsv'], ['json'], ['ndjson'], ['table']])('-o %s: no control, bidi or invisible character reaches it; emoji stay whole', async (format) => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(hostile) });
    const result = await run(['contacts', 'list', '-o', format], { ws, env: { ...envFor(), ...plain() }, tty: terminal });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Eve');
    // CSV's own record separator is CRLF.
    expect(result.stdout.replace(/\r\n/g, '\n')).not.toMatch(UNSAFE);
    if (format === 'csv' || format === 'tsv') expect(result.stdout).toContain(`${FAMILY} ${SCOTLAND}`);
  });

  it('-o json on a terminal is the same JSON: what may not be shown is escaped, not lost', async () => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(hostile) });
    const result = await run(['contacts', 'list', '-o', 'json'], { ws, env: { ...envFor(), ...plain() }, tty: terminal });
    expect(result.stdout).toContain('\\u202e');
    expect(JSON.parse(result.stdout)).toEqual([hostile]);
  });

  it('contacts export (CSV by default) to a terminal is made safe; into a pipe every byte is the service\'s', async () => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(hostile) });
    const shown = await run(['contacts', 'export'], { ws, env: { ...envFor(), ...plain() }, tty: terminal });
    expect(shown.code).toBe(0);
    expect(shown.stdout.replace(/\r\n/g, '\n')).not.toMatch(UNSAFE);
    ws.fault({ match: /^GET/, status: 200, body: contacts(hostile) });
    const piped = await run(['contacts', 'export'], { ws });
    expect(parse(piped.stdout, { columns: true })[0]).toMatchObject({ name: hostile.name, company: hostile.company });
  });

  it.each([['json'], ['ndjson']])('-o %s into a pipe is exact', async (format) => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(hostile) });
    const result = await run(['contacts', 'list', '-o', format], { ws });
    expect(result.stdout).toContain(hostile.company);
    expect(result.stdout.trim().replace(/^\[|\]$/g, '').trim()).toSatisfy((text: string) => JSON.stringify(JSON.parse(text)) === JSON.stringify(hostile));
  });

  it('--debug shows the service\'s error made safe, and no stack for an answer of the service (item 20)', async () => {
    ws.fault({ match: /^GET/, status: 404, body: answer(null).replace('"error":null', `"error":${JSON.stringify(`Gone\u001b]0;owned\u0007\u009b2J\u202e`)}`) });
    const result = await run(['contacts', 'get', 'con_gone', '--debug'], { ws, env: envFor() });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('Gone');
    expect(result.stderr).not.toMatch(UNSAFE);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('--debug still shows the stack of a fault of crm\'s own (item 20)', async () => {
    const broken = { ...ws, transport: async () => Promise.reject(new TypeError('cannot read what is not there')) } as Workspace;
    const result = await run(['contacts', 'list', '--debug'], { ws: broken });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\ncrm: cannot read what is not there\nTypeError: cannot read what is not there\n\s+at /);
  });

  it('the --json error object carries no raw C1 control (the same JSON, escaped)', async () => {
    const said = `Broken\u009b2J\u0085 \u202ereversed`;
    ws.fault({ match: /^GET/, status: 400, body: JSON.stringify({ data: null, error: said }) });
    const result = await run(['contacts', 'list', '--json'], { ws, env: envFor() });
    expect(result.code).toBe(1);
    const line = result.stderr.split('\n').find((text) => text.startsWith('{'))!;
    expect(line).not.toMatch(UNSAFE);
    expect(JSON.parse(line).error.message).toBe(said);
  });
});

describe('the day at a glance and a record whole on a terminal (issue 22): sections and titles made safe', () => {
  it('status, contacts view, accounts view and deals view: the hostile text of records in the sandbox shows, its controls do not', async () => {
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    const account = ws.api('POST', '/accounts', { name: `Acme\u001b]0;owned\u0007 \u202eCo` }).data.id as string;
    const contact = ws.api('POST', '/contacts', { name: hostile.name, email: `eve.${Date.now()}@example.com`, company: hostile.company, account_id: account }).data.id as string;
    ws.api('POST', `/contacts/${contact}/notes`, { body: `Note\u001b[2J\u009b2J \u2066hidden\u2069` });
    ws.api('POST', '/tasks', { title: `Call\u001b[31m \u200bEve`, due_date: today, contact_id: contact });
    const deal = ws.api('POST', '/deals', { name: `Deal\u001b]52;c;eA==\u0007 \u202eX`, account_id: account, contact_id: contact, close_date: soon, amount: 1000 }).data.id as string;
    ws.api('POST', '/ai/trigger', { contact_id: contact });
    for (const argv of [['status', '--limit', '50'], ['contacts', 'view', contact], ['accounts', 'view', account], ['deals', 'view', deal]]) {
      const result = await run(argv, { ws, env: { ...envFor(), ...plain() }, tty: { ...terminal, columns: 200 } });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stdout, argv.join(' ')).toContain('Eve');
      expect(result.stdout, argv.join(' ')).not.toMatch(UNSAFE);
      expect(result.stderr, argv.join(' ')).not.toMatch(UNSAFE);
    }
  });
});

describe('CSV cells a spreadsheet would run as formulas (item 10)', () => {
  const risky = { id: 'con_f', name: '=HYPERLINK("http://evil.example","click")', email: 'f@example.com', company: '@SUM(A1)', phone: '+1 555 0100', title: '-2+3', score: -5 };

  it('are written exactly by default, with a warning on stderr counting them', async () => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(risky) });
    const result = await run(['contacts', 'export'], { ws });
    expect(result.code).toBe(0);
    expect(parse(result.stdout, { columns: true })[0]).toMatchObject({ name: risky.name, company: '@SUM(A1)', phone: '+1 555 0100', title: '-2+3', score: '-5' });
    expect(result.stderr).toBe("crm: warning: 4 cells begin with = + - @ (or a tab or CR): a spreadsheet opening this CSV may run them as formulas; --escape-formulas prefixes such cells with '\n");
  });

  it("--escape-formulas prefixes them with ' (numbers stay numbers), and nothing is warned", async () => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(risky) });
    const result = await run(['contacts', 'list', '-o', 'csv', '--escape-formulas'], { ws });
    expect(parse(result.stdout, { columns: true })[0]).toMatchObject({ name: `'${risky.name}`, company: "'@SUM(A1)", phone: "'+1 555 0100", title: "'-2+3", score: '-5' });
    expect(result.stderr).toBe('');
  });

  it('a field\'s name from the service is a header cell like any: warned about, and guarded by --escape-formulas', async () => {
    const named = { id: 'con_n', '=HYPERLINK("http://evil.example")': 'x' };
    ws.fault({ match: /^GET/, status: 200, body: contacts(named) });
    const warned = await run(['contacts', 'list', '-o', 'csv'], { ws });
    expect(warned.stdout.split('\r\n')[0]).toBe('id,"=HYPERLINK(""http://evil.example"")"');
    expect(warned.stderr).toMatch(/^crm: warning: 1 cell begins with = \+ - @/);
    ws.fault({ match: /^GET/, status: 200, body: contacts(named) });
    const guarded = await run(['contacts', 'list', '-o', 'csv', '--escape-formulas'], { ws });
    expect(guarded.stdout.split('\r\n')[0]).toBe('id,"\'=HYPERLINK(""http://evil.example"")"');
    expect(guarded.stderr).toBe('');
  });

  it('JSON is left as it is', async () => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(risky) });
    const result = await run(['contacts', 'list', '--json', '--escape-formulas'], { ws });
    expect(json(result)).toEqual([risky]);
    expect(result.stderr).toBe('');
  });
});

describe('display widths (item 11)', () => {
  const people = [
    { id: 'con_cjk0000000000001', name: '李小龙 Bruce Lee 功夫大师', email: 'bruce.lee.the.dragon@kungfu.example.com', status: 'lead', score: 40, company: '東京海上日動火災保険株式会社', created_at: '2024-01-01T00:00:00Z' },
    { id: 'con_emoji00000000002', name: `Family ${FAMILY} Smith 🇫🇷`, email: 'family.smith.household@example.org', status: 'customer', score: 7, company: 'Émoji & Sons 🏳️‍🌈', created_at: '2024-01-02T00:00:00Z' },
    { id: 'con_marks00000000003', name: 'Zoe\u0308 Bronte\u0308 Åsa Nguyễn', email: 'zoe.bronte.asa@example.net', status: 'prospect', score: 99, company: 'Cafe\u0301 Crème Brûlée Ltd', created_at: '2024-01-03T00:00:00Z' },
  ];

  it('a table at 80 columns: no line is wider than the terminal, and every column starts at the same column on every line', async () => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(...people) });
    const result = await run(['contacts', 'list'], { ws, env: { ...envFor(), ...plain() }, tty: terminal, now: Date.parse('2024-02-01T00:00:00Z') });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const emailAt = (line: string, email: string) => stringWidth(line.slice(0, line.indexOf(email)));
    const column = stringWidth(lines[0]!.slice(0, lines[0]!.indexOf('EMAIL')));
    people.forEach((person, index) => expect(emailAt(lines[index + 1]!, person.email), lines[index + 1]).toBe(column));
  });

  it('a terminal that reports no width (0 columns: a pty nobody sized) gets the table of an 80-column one, not its ids alone', async () => {
    const argv = ['contacts', 'list'];
    const options = { ws, env: { ...envFor(), ...plain() }, now: Date.parse('2024-02-01T00:00:00Z') };
    ws.fault({ match: /^GET/, status: 200, body: contacts(...people) });
    const sized = await run(argv, { ...options, tty: terminal });
    ws.fault({ match: /^GET/, status: 200, body: contacts(...people) });
    const unsized = await run(argv, { ...options, tty: { ...terminal, columns: 0 } });
    expect(unsized.code, unsized.stderr).toBe(0);
    expect(unsized.stdout.split('\n')[0]).toMatch(/^ID +NAME +EMAIL/);
    expect(unsized.stdout).toBe(sized.stdout);
  });

  it('at 80 columns an email is never cut while a lower-priority column (company, score) is shown', async () => {
    ws.fault({ match: /^GET/, status: 200, body: contacts(...people) });
    const result = await run(['contacts', 'list'], { ws, env: { ...envFor(), ...plain() }, tty: terminal, now: Date.parse('2024-02-01T00:00:00Z') });
    const [head, ...rows] = result.stdout.trimEnd().split('\n');
    people.forEach((person, index) => expect(rows[index]).toContain(person.email));
    expect(head).toContain('EMAIL');
    expect(head).not.toContain('COMPANY');
  });

  it.each([80, 100, 120])('at %i columns a relative time is shown whole or its column gives way, never cut ("11 minutes …")', async (columns) => {
    const now = Date.parse('2024-02-01T12:00:00Z');
    const suggestions = [11, 16, 45].map((minutes, n) => ({
      id: `sug_time00000000000${n}`,
      title: ['Enrol Zane Sato in a sequence', 'Enrol Sc Ore in a sequence', 'Deal "Massive Dynamic: Seat expansion" is at risk'][n],
      type: 'next_best_action',
      contact_id: `con_time00000000000${n}`,
      deal_id: n === 2 ? 'deal_time000000000002' : null,
      created_at: new Date(now - minutes * 60_000).toISOString(),
    }));
    ws.fault({ match: /^GET/, status: 200, body: answer({ suggestions, total: 3 }) });
    const result = await run(['ai', 'suggestions'], { ws, env: { ...envFor(), ...plain() }, tty: { ...terminal, columns }, now });
    expect(result.code, result.stderr).toBe(0);
    const [head, ...rows] = result.stdout.trimEnd().split('\n');
    for (const line of [head!, ...rows]) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
    if (head!.includes('CREATED_AT')) rows.forEach((row, n) => expect(row).toMatch(new RegExp(`${[11, 16, 45][n]} minutes ago$`)));
    expect(rows.join('\n')).not.toMatch(/ago…|minutes …|minute…/);
  });

  it('one record: keys and values line up by display width, CJK and emoji cut between characters', async () => {
    ws.fault({ match: /^GET/, status: 200, body: answer({ id: 'con_1', 名前: '李小龙', name: `${FAMILY}`.repeat(50) }) });
    const result = await run(['contacts', 'get', 'con_1'], { ws, env: { ...envFor(), ...plain() }, tty: terminal });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.map((line) => stringWidth(/^\S+\s+/.exec(line)![0]))).toEqual([6, 6, 6]);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    expect(lines.at(-1)).toMatch(new RegExp(`(${FAMILY})+…$`, 'u'));
  });
});

describe('ids that are numbers, on a terminal', () => {
  // An id is a name, not a quantity: 1,000 is no id a person can copy into the next command.
  it('a table and one record show an id or *_id number as sent, and other numbers grouped', async () => {
    const record = { id: 1000, name: 'Num', email: 'num@example.com', account_id: 123456, score: 12500, created_at: '2024-01-01T00:00:00Z' };
    ws.fault({ match: /^GET/, status: 200, body: contacts(record) });
    const list = await run(['contacts', 'list', '--fields', 'id,name,account_id,score'], { ws, env: { ...envFor(), ...plain() }, tty: { ...terminal, columns: 200 } });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n')[1]).toMatch(/^1000 +Num +123456 +12,500$/);
    ws.fault({ match: /^GET/, status: 200, body: answer(record) });
    const one = await run(['contacts', 'get', '1000'], { ws, env: { ...envFor(), ...plain() }, tty: { ...terminal, columns: 200 } });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/^id +1000$/m);
    expect(one.stdout).toMatch(/^account_id +123456$/m);
    expect(one.stdout).toMatch(/^score +12,500$/m);
  });
});

describe('a bulk report (item 12)', () => {
  it('has the same tsv columns and JSON members whichever id comes first', async () => {
    const task = ws.api('POST', '/tasks', { title: 'Report columns' }).data.id;
    const outputs = [];
    for (const ids of [['task_missing', task], [task, 'task_missing']]) {
      const tsv = await run(['tasks', 'complete', ...ids], { ws });
      expect(tsv.code).toBe(7);
      const lines = tsv.stdout.split('\n').slice(0, -1);
      expect(lines.map((line) => line.split('\t').length)).toEqual([4, 4]);
      const rows = json(await run(['tasks', 'complete', ...ids, '--json'], { ws }));
      outputs.push({ lines: lines.sort(), keys: rows.map((row: object) => Object.keys(row).sort().join()) });
    }
    expect(outputs[0]).toEqual(outputs[1]);
  });
});

function envFor(): NodeJS.ProcessEnv {
  return { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey };
}
