// crm contacts import, in-process against the sandbox's handler: validation, dry run, quoting and
// UTF-8, failures and --resume, --upsert, the checkpoint's guarantees. A real process interrupted
// by a real signal (and by SIGKILL) is in test/e2e/scale.test.ts.
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, lstatSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { BASE_URL, homeEnv, json, openWorkspace, run, useWorkspace, virtualClock, type Workspace } from '../helpers/inprocess.js';
import { until } from '../helpers/wait.js';

const ws = useWorkspace();

let files = 0;
/** A file in a directory of its own (the checkpoint goes beside it). */
function inputFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), `crm-import-${++files}-`)), name);
  writeFileSync(path, text);
  return path;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** Live contacts with this email (any case). */
const withEmail = (email: string) => ws.api('GET', `/contacts?search=${encodeURIComponent(email)}&limit=50`).data.contacts.filter((c: { email: string }) => c.email.toLowerCase() === email.toLowerCase());
const rowsOf = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line));

/**
 * contacts import of FILE (-o ndjson) sent SIGTERM (on its own signals) as its POST number `posts` is
 * answered: the rows under way finish, then the report. `listening`: the import's SIGTERM listeners left.
 */
async function importStoppedAtPost(file: string, posts: number) {
  let sent = 0;
  const signals = new EventEmitter();
  const interrupting: Transport = async (request) => {
    const response = await ws.transport(request);
    if (request.method === 'POST' && ++sent === posts) signals.emit('SIGTERM');
    return response;
  };
  const result = await run(['contacts', 'import', file, '-o', 'ndjson'], { ws: { ...ws, transport: interrupting } as Workspace, signals });
  return { ...result, listening: signals.listenerCount('SIGTERM') };
}

describe('contacts import: reading and checking', () => {
  it('--dry-run shows what would be created and every invalid row with its line number, and sends nothing', async () => {
    const tag = unique();
    const file = inputFile('people.csv', `name,email,company\nAda,ada-${tag}@example.com,Engines\nNo Email,,\nBad,not-an-email,\n\nGrace,grace-${tag}@example.com,Navy\n`);
    const result = await run(['contacts', 'import', file, '--dry-run', '-o', 'ndjson'], { ws });
    expect(result.code).toBe(7);
    expect(rowsOf(result.stdout)).toEqual([
      { line: 2, ok: true, result: 'would_create', name: 'Ada', email: `ada-${tag}@example.com`, company: 'Engines', error: null },
      { line: 3, ok: false, result: 'invalid', error: 'missing email' },
      { line: 4, ok: false, result: 'invalid', error: 'email: invalid email "not-an-email"' },
      { line: 6, ok: true, result: 'would_create', name: 'Grace', email: `grace-${tag}@example.com`, company: 'Navy', error: null },
    ]);
    expect(result.stderr).toBe('crm: 2 of 4 rows are invalid: lines 3, 4\n');
    expect(ws.requests()).toEqual([]);
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(false);
  });

  it('a file none of whose rows is valid is bad input: exit 2, each row in the report and in --errors, nothing sent, no checkpoint (a dry run too)', async () => {
    const file = inputFile('all-bad.csv', 'name,email\nAda,not-an-email\nNo Email,\n');
    const errors = join(file, '..', 'errors.csv');
    for (const extra of [['--dry-run'], ['--errors', errors]]) {
      const result = await run(['contacts', 'import', file, '-o', 'ndjson', ...extra], { ws });
      expect(result.code, result.stderr).toBe(2);
      expect(rowsOf(result.stdout).map((row) => [row.line, row.result, row.error])).toEqual([
        [2, 'invalid', 'email: invalid email "not-an-email"'],
        [3, 'invalid', 'missing email'],
      ]);
      expect(result.stderr.split('\n')[0]).toBe(`crm: no row of ${file} can be imported: lines 2, 3 are invalid; nothing was sent`);
      expect(result.stderr).not.toContain('--resume');
    }
    expect(readFileSync(errors, 'utf8')).toBe('name,email,line,reason\r\nAda,not-an-email,2,"email: invalid email ""not-an-email"""\r\nNo Email,,3,missing email\r\n');
    expect(ws.requests()).toEqual([]);
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(false);
  });

  it('a row whose email an earlier row has (in any case) is invalid, naming that line, before anything is sent: --upsert takes both', async () => {
    const tag = unique();
    const file = inputFile('twice.csv', `name,email\nAnn,ann-${tag}@example.com\nBob,bob-${tag}@example.com\nAnn Again,ANN-${tag}@example.com\n`);
    const dry = await run(['contacts', 'import', file, '--dry-run', '-o', 'ndjson'], { ws });
    expect(dry.code).toBe(7);
    expect(rowsOf(dry.stdout).map((row) => [row.line, row.result, row.error])).toEqual([
      [2, 'would_create', null],
      [3, 'would_create', null],
      [4, 'invalid', `email ANN-${tag}@example.com is on line 2 too (--upsert updates that contact with this row)`],
    ]);
    expect(ws.requests()).toEqual([]);
    const sent = await run(['contacts', 'import', file, '--concurrency', '4', '-o', 'ndjson'], { ws });
    expect(sent.code).toBe(7);
    expect(ws.requests(/^POST/).map((request) => JSON.parse(request.body).name)).toEqual(['Ann', 'Bob']);
    expect(withEmail(`ann-${tag}@example.com`).map((contact: { name: string }) => contact.name)).toEqual(['Ann']);
    const upsert = await run(['contacts', 'import', file, '--upsert', '--resume', '-o', 'ndjson'], { ws });
    expect(rowsOf(upsert.stdout).map((row) => [row.line, row.result])).toEqual([[2, 'created'], [3, 'created'], [4, 'updated']]);
    expect(withEmail(`ann-${tag}@example.com`).map((contact: { name: string }) => contact.name)).toEqual(['Ann Again']);
  });

  it('reads a JSON array (what -o json writes; a .json file, or a first character [), each row numbered by the line its item starts on', async () => {
    const tag = unique();
    const items = [{ id: 'con_old', name: 'Js One', email: `js1-${tag}@example.com`, list_ids: [] }, 'text', { name: 'Js Bad', email: 'nope' }, { name: 'Js, "Two"\n', email: `js2-${tag}@example.com` }];
    const text = `${JSON.stringify(items, null, 2)}\n`;
    const dry = await run(['contacts', 'import', inputFile('people.json', text), '--dry-run', '-o', 'ndjson'], { ws });
    expect(rowsOf(dry.stdout).map((row) => [row.line, row.result, row.error])).toEqual([
      [2, 'would_create', null],
      [8, 'invalid', 'not a JSON object'],
      [9, 'invalid', 'email: invalid email "nope"'],
      [13, 'would_create', null],
    ]);
    expect(ws.requests()).toEqual([]);
    const sent = await run(['contacts', 'import', '-', '-o', 'ndjson'], { ws, stdin: text });
    expect(sent.code).toBe(7);
    expect(ws.requests(/^POST/).map((request) => JSON.parse(request.body))).toEqual([
      { name: 'Js One', email: `js1-${tag}@example.com`, list_ids: [] },
      { name: 'Js, "Two"', email: `js2-${tag}@example.com` },
    ]);
    const notArray = await run(['contacts', 'import', inputFile('one.json', '{"name": "A",\n "email": "a@example.com"}'), '--format', 'json'], { ws });
    expect(notArray.stderr).toMatch(/^crm: .*one\.json: not a JSON array of contacts\n/);
    expect(notArray.code).toBe(2);
  });

  it('reads the separator from a first line sep=; (a CSV made for Excel), numbering the rows after it as the file does', async () => {
    const tag = unique();
    const file = inputFile('excel.csv', `\uFEFFsep=;\r\nName;Email;Company\r\nAda;ada-${tag}@example.com;Engines, Ltd\r\nBad;nope;\r\n`);
    const dry = await run(['contacts', 'import', file, '--dry-run', '-o', 'ndjson'], { ws });
    expect(rowsOf(dry.stdout).map((row) => [row.line, row.result, row.company ?? row.error])).toEqual([
      [3, 'would_create', 'Engines, Ltd'],
      [4, 'invalid', 'email: invalid email "nope"'],
    ]);
    expect(ws.requests()).toEqual([]);
  });

  it('keeps quoting, line breaks and UTF-8 intact (BOM, semicolons, a spreadsheet’s trailing empty rows)', async () => {
    const tag = unique();
    const text = `\uFEFFName;Email;Company;Title\r\n"Zoë Ångström";zoe-${tag}@example.com;"Smith; Jones & ""Sons""";"Line one\r\nline two"\r\n李小龙;li-${tag}@example.com;功夫 🐉;\r\n;;;\r\n`;
    const result = await run(['contacts', 'import', inputFile('utf8.csv', text), '-o', 'ndjson'], { ws });
    expect(result.code).toBe(0);
    expect(rowsOf(result.stdout).map((row) => [row.line, row.result])).toEqual([[2, 'created'], [4, 'created']]);
    expect(withEmail(`zoe-${tag}@example.com`)[0]).toMatchObject({ name: 'Zoë Ångström', company: 'Smith; Jones & "Sons"', title: 'Line one\r\nline two' });
    expect(withEmail(`li-${tag}@example.com`)[0]).toMatchObject({ name: '李小龙', company: '功夫 🐉' });
  });

  it('reads NDJSON from stdin; --map renames; columns that are not contact fields are left out with a warning', async () => {
    const tag = unique();
    const stdin = [
      JSON.stringify({ id: 'con_old', full_name: 'Nd One', mail: `nd1-${tag}@example.com`, status: 'customer', list_ids: [] }),
      '[1, 2]',
      '{"full_name": "Broken"',
      JSON.stringify({ full_name: 'Nd Two', mail: `nd2-${tag}@example.com`, created_at: '2020-01-01T00:00:00Z' }),
    ].join('\n');
    const result = await run(['contacts', 'import', '-', '--map', 'full_name=name', '--map', 'mail=email', '-o', 'ndjson'], { ws, stdin });
    expect(result.code).toBe(7);
    expect(rowsOf(result.stdout).map((row) => [row.line, row.result, row.error])).toEqual([
      [1, 'created', null],
      [2, 'invalid', 'not a JSON object'],
      [3, 'invalid', expect.stringMatching(/^not valid JSON: /)],
      [4, 'created', null],
    ]);
    expect(result.stderr).toContain('crm: warning: ignoring columns that are not contact fields: "id", "created_at" (send one with --map COLUMN=FIELD)\n');
    expect(withEmail(`nd1-${tag}@example.com`)[0]).toMatchObject({ name: 'Nd One', status: 'customer' });
    expect(ws.requests(/^POST/).map((request) => JSON.parse(request.body))).toEqual([
      { name: 'Nd One', email: `nd1-${tag}@example.com`, status: 'customer', list_ids: [] },
      { name: 'Nd Two', email: `nd2-${tag}@example.com` },
    ]);
  });

  it.each([
    [['--map', 'Mail=email'], 'crm: --map: the file has no column "Mail"'],
    [['--map', 'name=__proto__'], 'crm: --map: "__proto__" is not allowed as a name'],
    [['--map', 'company=name'], 'crm: columns "name" and "company" both fill name'],
    [['--concurrency', '0'], 'crm: invalid --concurrency "0" (expected an integer between 1 and 32)'],
    [['--format', 'xlsx'], 'crm: invalid --format "xlsx" (expected one of: csv, ndjson, json)'],
    // The errors file written at the end over the journal: --resume would find no checkpoint there.
    [['--errors', 'both.out', '--checkpoint', 'both.out'], 'crm: --errors both.out is the checkpoint of this import: the errors would be written over its progress'],
    [['--errors', '{input}.crm-checkpoint'], 'crm: --errors {input}.crm-checkpoint is the checkpoint of this import: the errors would be written over its progress'],
  ])('refuses %j with exit 2 before sending anything', async (flags, message) => {
    const input = inputFile('a.csv', 'name,email,company\nA,a@example.com,C\n');
    const result = await run(['contacts', 'import', input, ...flags.map((flag) => flag.replace('{input}', input))], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(message.replace('{input}', input));
    expect(ws.requests()).toEqual([]);
  });

  it('refuses a file that is not CSV, or has no name or email column, naming the line', async () => {
    const broken = await run(['contacts', 'import', inputFile('b.csv', 'name,email\n"Ada,ada@example.com\n')], { ws });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^crm: .*b\.csv line 2: not valid CSV: Quote Not Closed/);
    const headerless = await run(['contacts', 'import', inputFile('c.csv', 'who,where\nAda,London\n')], { ws });
    expect(headerless.code).toBe(2);
    expect(headerless.stderr).toContain("no column holds a contact's name or email");
    // No column of a name, whole or in parts (a list of companies' contacts): every row would be invalid alike, one line says why.
    const unnamed = await run(['contacts', 'import', inputFile('companies.csv', 'Record ID,Company Name,Email\r\n1,Engines,ada@example.com\r\n')], { ws });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/^crm: .*companies\.csv: no column holds a contact's name\nhint: its columns: Record ID, Company Name, Email; name it with --map COLUMN=name\n$/);
    expect(ws.requests()).toEqual([]);
  });

  it("reads HubSpot's contact export as it is: First Name and Last Name joined into the name (either alone when the other is blank), Company Name, Phone Number and Job Title", async () => {
    const tag = unique();
    const header = 'Record ID,First Name,Last Name,Email,Phone Number,Company Name,Job Title,Contact owner,Associated Company,Lifecycle Stage,Create Date';
    const file = inputFile('hubspot-crm-exports-all-contacts-2024-05-01.csv', [
      header,
      `51,Ada,Lovelace,ada-${tag}@example.com,+44 20 7946 0000,Analytical Engines,Mathematician,Jane Owner,Analytical Engines,lead,2024-01-02 10:00`,
      `52, Grace ,,grace-${tag}@example.com,,US Navy,,,,customer,2024-01-03 11:00`,
      `53,,Turing,alan-${tag}@example.com,,,,,,lead,2024-01-04 12:00`,
      `54,,,nobody-${tag}@example.com,,,,,,lead,2024-01-05 13:00`,
      '',
    ].join('\r\n'));
    const dry = await run(['contacts', 'import', file, '--dry-run', '-o', 'ndjson'], { ws });
    expect(dry.code).toBe(7);
    expect(rowsOf(dry.stdout)).toEqual([
      { line: 2, ok: true, result: 'would_create', name: 'Ada Lovelace', email: `ada-${tag}@example.com`, phone: '+44 20 7946 0000', company: 'Analytical Engines', title: 'Mathematician', error: null },
      { line: 3, ok: true, result: 'would_create', name: 'Grace', email: `grace-${tag}@example.com`, company: 'US Navy', error: null },
      { line: 4, ok: true, result: 'would_create', name: 'Turing', email: `alan-${tag}@example.com`, error: null },
      { line: 5, ok: false, result: 'invalid', error: 'missing name' },
    ]);
    expect(dry.stderr).toContain('ignoring columns that are not contact fields: "Record ID", "Contact owner", "Associated Company", "Lifecycle Stage", "Create Date"');
    expect(ws.requests()).toEqual([]);
    const sent = await run(['contacts', 'import', file, '--concurrency', '1', '-o', 'ndjson'], { ws });
    expect(sent.code).toBe(7);
    expect(ws.requests(/^POST/).map((request) => JSON.parse(request.body).name)).toEqual(['Ada Lovelace', 'Grace', 'Turing']);
    expect(withEmail(`ada-${tag}@example.com`)).toMatchObject([{ name: 'Ada Lovelace', company: 'Analytical Engines', title: 'Mathematician' }]);

    // A column that holds the whole name wins (its parts are left out, with the warning); --map takes a part as the name.
    const both = inputFile('both.csv', `Name,First Name,Last Name,Email\nAda King,Ada,Lovelace,king-${tag}@example.com\n`);
    const whole = await run(['contacts', 'import', both, '--dry-run', '-o', 'ndjson'], { ws });
    expect(rowsOf(whole.stdout)[0].name).toBe('Ada King');
    expect(whole.stderr).toContain('"First Name", "Last Name"');
    const mapped = await run(['contacts', 'import', both, '--map', 'Name=', '--map', 'Last Name=name', '--dry-run', '-o', 'ndjson'], { ws });
    expect(rowsOf(mapped.stdout)[0].name).toBe('Lovelace');
  });
  it('--errors keeps a row with quotes and line breaks whole, so the file can be fixed and read back', async () => {
    const file = inputFile('quoted.csv', 'name,email,company\n"Two\nlines","no-at-sign","Say ""hi"", then go"\n');
    const errors = join(file, '..', 'errors.csv');
    const result = await run(['contacts', 'import', file, '--errors', errors], { ws });
    expect(result.code).toBe(2); // its one row is invalid: nothing can be sent
    const { parse } = await import('csv-parse/sync');
    expect(parse(readFileSync(errors, 'utf8'), { bom: true, columns: true })).toEqual([
      { name: 'Two\nlines', email: 'no-at-sign', company: 'Say "hi", then go', line: '2', reason: 'email: invalid email "no-at-sign"' },
    ]);
  });
});

describe('contacts import: sending', () => {
  it('a file without rows: -o csv is the report\'s header (as with rows), not a contact\'s fields; nothing sent', async () => {
    const file = inputFile('header-only.csv', 'name,email\n');
    const some = await run(['contacts', 'import', inputFile('one.csv', `name,email\nOne,one-${unique()}@example.com\n`), '-o', 'csv'], { ws });
    expect(some.stdout.split('\r\n')[0]).toBe('line,ok,result,id,email,error');
    ws.log.length = 0;
    const none = await run(['contacts', 'import', file, '-o', 'csv'], { ws });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('line,ok,result,id,email,error\r\n');
    const planned = await run(['contacts', 'import', file, '-o', 'csv', '--dry-run'], { ws });
    expect(planned.stdout).toBe('line,ok,result,error\r\n');
    expect(ws.requests()).toEqual([]);
  });

  it('a server that fails some requests: those rows fail with the reason, go to --errors, and --resume finishes without duplicates', async () => {
    const tag = unique();
    const emails = Array.from({ length: 6 }, (_, index) => `row${index}-${tag}@example.com`);
    const file = inputFile('six.csv', `name,email\n${emails.map((email, index) => `Row ${index},${email}`).join('\n')}\nBroken,nope\n`);
    const errors = join(file, '..', 'errors.csv');
    ws.fault({ match: /^POST \/api\/v1\/contacts$/, status: 500, times: 2 });
    const first = await run(['contacts', 'import', file, '--errors', errors, '--concurrency', '2', '-o', 'ndjson'], { ws });
    expect(first.code).toBe(7);
    const failed = rowsOf(first.stdout).filter((row) => row.result === 'failed');
    expect(failed.map((row) => row.error)).toEqual(['injected 500', 'injected 500']);
    expect(first.stderr).toContain(`crm: 3 of 7 rows were not imported: lines ${failed[0].line}, ${failed[1].line}, 8\n`);
    expect(first.stderr).toContain(`hint: the rows and reasons are in ${errors}; fix them, then run the same command with --resume to finish`);
    expect(readFileSync(errors, 'utf8')).toBe(
      `name,email,line,reason\r\n${failed.map((row) => `Row ${row.line - 2},${row.email},${row.line},injected 500\r\n`).join('')}Broken,nope,8,"email: invalid email ""nope"""\r\n`,
    );
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(true);

    // Fix the broken row, then finish: the failed rows (a 500 may have created them) are looked up first.
    writeFileSync(file, readFileSync(file, 'utf8').replace('Broken,nope', `Fixed,fixed-${tag}@example.com`));
    ws.log.length = 0;
    const resumed = await run(['contacts', 'import', file, '--resume', '--errors', errors, '-o', 'ndjson'], { ws });
    expect(resumed.code).toBe(0);
    expect(rowsOf(resumed.stdout).every((row) => row.ok)).toBe(true);
    expect(ws.requests(/^POST/)).toHaveLength(3);
    expect(ws.requests(/^GET/)).toHaveLength(2);
    for (const email of [...emails, `fixed-${tag}@example.com`]) expect(withEmail(email)).toHaveLength(1);
    expect(readFileSync(errors, 'utf8')).toBe('name,email,line,reason\r\n');
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(false); // complete: nothing left to resume
  });

  it('honours 429 with Retry-After (the core waits and sends the row again): every row created once', async () => {
    const tag = unique();
    const emails = Array.from({ length: 4 }, (_, index) => `busy${index}-${tag}@example.com`);
    const file = inputFile('busy.csv', `name,email\n${emails.map((email, index) => `Busy ${index},${email}`).join('\n')}\n`);
    ws.fault({ match: /^POST \/api\/v1\/contacts$/, status: 429, headers: { 'retry-after': '0' }, times: 2 });
    const result = await run(['contacts', 'import', file, '--concurrency', '2'], { ws });
    expect(result.code).toBe(0);
    expect(ws.requests(/^POST/)).toHaveLength(6);
    for (const email of emails) expect(withEmail(email)).toHaveLength(1);
  });

  it('one row answered 429 again and again is waited out: the import goes on, every row created once (issue 20, item 7)', async () => {
    const tag = unique();
    const emails = Array.from({ length: 3 }, (_, index) => `again${index}-${tag}@example.com`);
    const file = inputFile('again.csv', `name,email\n${emails.map((email, index) => `Again ${index},${email}`).join('\n')}\n`);
    // Five refusals of the first row's POST: more than the 3 retries a single command gets.
    ws.fault({ match: new RegExp(`^POST /api/v1/contacts$`), status: 429, headers: { 'retry-after': '0' }, times: 5 });
    const result = await run(['contacts', 'import', file, '--concurrency', '1'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(ws.requests(/^POST/)).toHaveLength(8);
    for (const email of emails) expect(withEmail(email)).toHaveLength(1);
  });

  it('--resume with no checkpoint says so and sends every row: after an import that finished, each is refused as existing', async () => {
    const tag = unique();
    const file = inputFile('done.csv', `name,email\nA,a-${tag}@example.com\n`);
    const first = await run(['contacts', 'import', file, '--resume'], { ws });
    expect(first.code, first.stderr).toBe(0);
    const notice = `no checkpoint at ${file}.crm-checkpoint: nothing to resume, every row is sent (an import that finished removes its checkpoint)`;
    expect(first.stderr).toContain(notice);
    const again = await run(['contacts', 'import', file, '--resume'], { ws });
    expect(again.code).toBe(7);
    expect(again.stderr).toContain(notice);
    expect(withEmail(`a-${tag}@example.com`)).toHaveLength(1);
  });

  it('refuses to import a file again while its checkpoint exists, and refuses to resume when imported rows changed', async () => {
    const tag = unique();
    const file = inputFile('two.csv', `name,email\nA,a-${tag}@example.com\nB,nope\n`);
    expect((await run(['contacts', 'import', file], { ws })).code).toBe(7);
    const again = await run(['contacts', 'import', file], { ws });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`was imported before: ${file}.crm-checkpoint holds the progress of that import`);
    writeFileSync(file, `name,email\nA changed,a-${tag}@example.com\nB,b-${tag}@example.com\n`);
    ws.log.length = 0;
    const changed = await run(['contacts', 'import', file, '--resume'], { ws });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('changed since it was imported: line 2 now holds other data');
    expect(ws.requests()).toEqual([]);
  });

  it('stopped mid-run (SIGTERM: the rows under way finish, then the report), then --resume: every row created exactly once', async () => {
    const tag = unique();
    const emails = Array.from({ length: 30 }, (_, index) => `int${index}-${tag}@example.com`);
    const file = inputFile('thirty.csv', `name,email\n${emails.map((email, index) => `Int ${index},${email}`).join('\n')}\n`);
    const stopped = await importStoppedAtPost(file, 10);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('hint: run the same command with --resume to finish');
    const rows = rowsOf(stopped.stdout);
    const created = rows.filter((row) => row.result === 'created').length;
    expect(created).toBeGreaterThanOrEqual(10);
    expect(created).toBeLessThan(30);
    expect(rows.filter((row) => row.result === 'pending')).toHaveLength(30 - created);
    expect(stopped.listening).toBe(0);

    const resumed = await run(['contacts', 'import', file, '--resume'], { ws, tty: { stderr: true } });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`30 created; ${created} of them in an earlier run`);
    for (const email of emails) expect(withEmail(email)).toHaveLength(1);
  });

  it('a JSON array on one line (jq -c): rows are numbered by item, and a stopped import resumes with every row created once (every row was line 1: --resume refused the file as changed)', async () => {
    const tag = unique();
    const emails = Array.from({ length: 30 }, (_, index) => `item${index}-${tag}@example.com`);
    const file = inputFile('compact.json', `${JSON.stringify([...emails.map((email, index) => ({ name: `Item ${index}`, email })), { name: 'Item Bad', email: 'nope' }])}\n`);
    const dry = await run(['contacts', 'import', file, '--dry-run', '-o', 'ndjson'], { ws });
    expect(rowsOf(dry.stdout).map((row) => row.line)).toEqual(Array.from({ length: 31 }, (_, index) => index + 1));
    expect(dry.stderr).toContain('crm: 1 of 31 rows are invalid: item 31\n');
    const stopped = await importStoppedAtPost(file, 10);
    expect(stopped.code).toBe(130);
    const created = rowsOf(stopped.stdout).filter((row) => row.result === 'created').length;
    expect(created).toBeLessThan(30);
    const resumed = await run(['contacts', 'import', file, '--resume'], { ws, tty: { stderr: true } });
    expect(resumed.code).toBe(7);
    expect(resumed.stderr).toContain(`30 created, 1 invalid; ${created} of them in an earlier run`);
    expect(resumed.stderr).toContain('crm: 1 of 31 rows were not imported: item 31\n');
    for (const email of emails) expect(withEmail(email)).toHaveLength(1);
  });

  it('a failed row sent again by --resume, killed before its outcome is journaled: the next --resume looks it up, never reports it failed', async () => {
    const tag = unique();
    const email = `again-${tag}@example.com`;
    const taken = ws.api('POST', '/contacts', { name: 'Taken', email }).data.id;
    const file = inputFile('retry.csv', `name,email\nRetry,${email}\n`);
    const checkpoint = `${file}.crm-checkpoint`;
    expect((await run(['contacts', 'import', file], { ws })).code).toBe(7); // 409: failed, with a clear answer
    ws.api('DELETE', `/contacts/${taken}`);
    // The second run's POST reaches the service; the journal as it is at that moment is what a SIGKILL leaves.
    let journal: string | undefined;
    const killedAfterPost: Transport = async (request) => {
      const response = await ws.transport(request);
      if (request.method === 'POST') journal = readFileSync(checkpoint, 'utf8');
      return response;
    };
    await run(['contacts', 'import', file, '--resume'], { ws: { ...ws, transport: killedAfterPost } as Workspace });
    expect(withEmail(email)).toHaveLength(1);
    writeFileSync(checkpoint, journal!);
    ws.log.length = 0;
    const resumed = await run(['contacts', 'import', file, '--resume', '-o', 'ndjson'], { ws });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(rowsOf(resumed.stdout)).toMatchObject([{ line: 2, result: 'created', id: withEmail(email)[0].id }]);
    expect(ws.requests(/^POST/)).toEqual([]);
    expect(withEmail(email)).toHaveLength(1);
  });

  it('a journal whose last line a crash cut short: --resume writes after it on a line of its own, so a second crash loses no mark (no row posted twice)', async () => {
    const tag = unique();
    const emails = [1, 2, 3].map((n) => `cut${n}-${tag}@example.com`);
    const file = inputFile('cut.csv', `name,email\n${emails.map((email, index) => `Cut ${index},${email}`).join('\n')}\n`);
    const checkpoint = `${file}.crm-checkpoint`;
    // A first run killed while it wrote its first mark: its header, and the mark cut short (nothing was sent).
    let header: string | undefined;
    const killedAtFirstPost: Transport = async (request) => {
      if (request.method === 'POST') header ??= readFileSync(checkpoint, 'utf8').split('\n')[0];
      return { status: 422, headers: { 'content-type': 'application/json' }, body: '{"data":null,"error":"refused"}' };
    };
    expect((await run(['contacts', 'import', file, '--concurrency', '1'], { ws: { ...ws, transport: killedAtFirstPost } as Workspace })).code).toBe(7);
    writeFileSync(checkpoint, `${header}\n{"sent_thr`);
    // The resumed run's journal when its first POST is answered: what a second SIGKILL there leaves.
    let journal: string | undefined;
    const killedAfterPost: Transport = async (request) => {
      const response = await ws.transport(request);
      if (request.method === 'POST') journal ??= readFileSync(checkpoint, 'utf8');
      return response;
    };
    expect((await run(['contacts', 'import', file, '--resume', '--concurrency', '1'], { ws: { ...ws, transport: killedAfterPost } as Workspace })).code).toBe(0);
    writeFileSync(checkpoint, journal!);
    ws.log.length = 0;
    const resumed = await run(['contacts', 'import', file, '--resume', '-o', 'ndjson'], { ws });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(ws.requests(/^POST/)).toEqual([]);
    expect(rowsOf(resumed.stdout).map((row) => row.result)).toEqual(['created', 'created', 'created']);
    for (const email of emails) expect(withEmail(email)).toHaveLength(1);
  });

  it('--upsert updates the contact that has the email, also one an earlier row of the file created', async () => {
    const tag = unique();
    const existing = ws.api('POST', '/contacts', { name: 'Old Name', email: `up-${tag}@example.com` }).data.id;
    const file = inputFile('up.csv', `name,email,company\nNew Name,UP-${tag}@example.com,Acme\nTwice,twice-${tag}@example.com,First\nTwice Again,twice-${tag}@example.com,Second\n`);
    const result = await run(['contacts', 'import', file, '--upsert', '--concurrency', '4', '-o', 'ndjson'], { ws });
    expect(result.code).toBe(0);
    const rows = rowsOf(result.stdout);
    expect(rows.map((row) => [row.line, row.result])).toEqual([[2, 'updated'], [3, 'created'], [4, 'updated']]);
    expect(rows[0].id).toBe(existing);
    expect(rows[2].id).toBe(rows[1].id);
    expect(withEmail(`up-${tag}@example.com`)).toMatchObject([{ id: existing, name: 'New Name', company: 'Acme' }]);
    expect(withEmail(`twice-${tag}@example.com`)).toMatchObject([{ name: 'Twice Again', company: 'Second' }]);
  });

  it('without --upsert, an email the service already has is a failed row saying so', async () => {
    const tag = unique();
    ws.api('POST', '/contacts', { name: 'Taken', email: `taken-${tag}@example.com` });
    const result = await run(['contacts', 'import', inputFile('t.csv', `name,email\nSomeone,taken-${tag}@example.com\n`), '--json'], { ws });
    expect(result.code).toBe(7);
    expect(json(result)[0]).toMatchObject({ result: 'failed', error: expect.stringMatching(/already exists \(--upsert updates the existing contact\)$/) });
  });

  it('rows whose contact exists (409, or an email an earlier row has) are not told to --resume, which would fail them again: --upsert is named', async () => {
    const tag = unique();
    ws.api('POST', '/contacts', { name: 'Taken', email: `taken-${tag}@example.com` });
    const file = inputFile('mixed.csv', `name,email\nSomeone,taken-${tag}@example.com\nNew,new-${tag}@example.com\nAgain,NEW-${tag}@example.com\n`);
    const errors = join(file, '..', 'errors.csv');
    const existsHint = 'lines 2, 4 hold an email the workspace (or an earlier row) has: run the same command with --upsert to update those contacts, or leave the rows out; --resume would send them again, to fail again';
    const first = await run(['contacts', 'import', file, '--errors', errors, '-o', 'ndjson'], { ws });
    expect(first.code).toBe(7);
    expect(first.stderr).toBe(`crm: 2 of 3 rows were not imported: lines 2, 4\nhint: the rows and reasons are in ${errors}; ${existsHint}\n`);

    // A row that failed for want of the service is still told to --resume; the existing one to --upsert.
    const other = inputFile('other.csv', `name,email\nLater,later-${tag}@example.com\nSomeone,taken-${tag}@example.com\n`);
    ws.fault({ match: /^POST \/api\/v1\/contacts$/, status: 503 });
    const mixed = await run(['contacts', 'import', other, '--concurrency', '1', '-o', 'ndjson'], { ws });
    expect(mixed.code).toBe(7);
    expect(mixed.stderr).toContain(`hint: run the same command with --resume to finish (progress is in ${other}.crm-checkpoint); line 3 holds an email the workspace (or an earlier row) has: run the same command with --upsert`);
    const upsert = await run(['contacts', 'import', other, '--upsert', '-o', 'ndjson'], { ws });
    expect(upsert.code, upsert.stderr).toBe(0);
    expect(rowsOf(upsert.stdout).map((row) => row.result)).toEqual(['created', 'updated']);
  });

  it('an invalid row among rows imported: the hint says to fix it in the file before --resume, which alone would find it invalid again', async () => {
    const tag = unique();
    const file = inputFile('fix-me.csv', `name,email\nGood,good-${tag}@example.com\nBad,not-an-email\n`);
    const result = await run(['contacts', 'import', file], { ws });
    expect(result.code).toBe(7);
    expect(result.stderr).toBe(`crm: 1 of 2 rows were not imported: line 3\nhint: fix line 3 in the file (the report says why), then run the same command with --resume to finish (progress is in ${file}.crm-checkpoint)\n`);
    writeFileSync(file, `name,email\nGood,good-${tag}@example.com\nBad,fixed-${tag}@example.com\n`);
    const resumed = await run(['contacts', 'import', file, '--resume'], { ws });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(withEmail(`fixed-${tag}@example.com`)).toHaveLength(1);
  });

  it('rows refused one by one (409) never stop the import: ten in a row failing for want of the service (5xx) do', async () => {
    const tag = unique();
    const taken = Array.from({ length: 12 }, (_, index) => `taken${index}-${tag}@example.com`);
    for (const email of taken) ws.api('POST', '/contacts', { name: 'Taken', email });
    const file = inputFile('again.csv', `name,email\n${taken.map((email) => `Again,${email}`).join('\n')}\nNew,new-${tag}@example.com\n`);
    const result = await run(['contacts', 'import', file, '--concurrency', '1', '-o', 'ndjson'], { ws });
    expect(result.code, result.stderr).toBe(7);
    expect(rowsOf(result.stdout).map((row) => row.result)).toEqual([...taken.map(() => 'failed'), 'created']);
    expect(withEmail(`new-${tag}@example.com`)).toHaveLength(1);

    const down = inputFile('down.csv', `name,email\n${Array.from({ length: 13 }, (_, index) => `Down,down${index}-${tag}@example.com`).join('\n')}\n`);
    ws.fault({ match: /^POST \/api\/v1\/contacts$/, status: 500, times: 10 });
    const stopped = await run(['contacts', 'import', down, '--concurrency', '1', '-o', 'ndjson'], { ws });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('crm: import stopped: injected 500');
    // Two rows under way at a time (--concurrency 1, and one waiting its turn): the eleventh may have started.
    const results = rowsOf(stopped.stdout).map((row) => row.result);
    expect(results.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 'failed'));
    expect(results.slice(11)).toEqual(['pending', 'pending']);
  });

  it('--score scores each created contact; -q prints the ids of the contacts imported', async () => {
    const tag = unique();
    const file = inputFile('s.csv', `name,email\nS1,s1-${tag}@example.com\nbad,bad\nS2,s2-${tag}@example.com\n`);
    const result = await run(['contacts', 'import', file, '--score', '-q'], { ws });
    expect(result.code).toBe(7);
    const ids = result.stdout.trim().split('\n');
    expect(ids).toEqual([withEmail(`s1-${tag}@example.com`)[0].id, withEmail(`s2-${tag}@example.com`)[0].id]);
    expect(ws.requests(/^POST \/api\/v1\/ai\/trigger/).map((request) => JSON.parse(request.body).contact_id).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(ws.api('GET', `/contacts/${id}`).data.score).toEqual(expect.any(Number));
  });

  it('--score keeps to 10 scorings a minute on the command\'s clock: the 11th waits out the minute there, and the service never refuses one', async () => {
    // The command and the sandbox share one virtual clock, which moves only when something waits.
    const clock = virtualClock();
    const scored = await openWorkspace({ now: clock.date });
    try {
      const tag = unique();
      const file = inputFile('eleven.csv', `name,email\n${Array.from({ length: 11 }, (_, index) => `R${index},r${index}-${tag}@example.com`).join('\n')}\n`);
      const result = await run(['contacts', 'import', file, '--score', '-q'], { ws: scored, now: clock.now, sleep: clock.sleep });
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(11);
      // One trigger a contact: none refused (a 429 would have been sent again).
      expect(scored.requests(/^POST \/api\/v1\/ai\/trigger/)).toHaveLength(11);
      // The only wait: the 11th scoring's, for the first to leave the window.
      expect(clock.waits).toEqual([60_000]);
    } finally {
      scored.close();
    }
  });
});

describe('contacts import on a terminal', () => {
  it('shows a progress bar on stderr (done, rate, time left), then clears it for the summary', async () => {
    const tag = unique();
    const file = inputFile('bar.csv', `name,email\n${Array.from({ length: 6 }, (_, index) => `Bar ${index},bar${index}-${tag}@example.com`).join('\n')}\n`);
    // A service that takes 80 ms an answer, so the bar is drawn while rows are under way.
    const slow: Transport = async (request) => (await new Promise((resolve) => setTimeout(resolve, 80)), ws.transport(request));
    const result = await run(['contacts', 'import', file, '--concurrency', '1', '-o', 'ndjson'], { ws: { ...ws, transport: slow } as Workspace, tty: { stderr: true } });
    expect(result.code).toBe(0);
    const frames = result.stderr.split('\r\x1b[2K').filter(Boolean);
    expect(frames[0]).toMatch(/^Importing ░{24} 0\/6 {2}0\.0\/s {2}ETA --$/);
    expect(frames.slice(1, -1)).toContainEqual(expect.stringMatching(/^Importing █+░+ [1-5]\/6 {2}\d+(\.\d)?\/s {2}ETA \ds$/));
    expect(frames.at(-1)).toBe('6 created\n');
  });

  it('draws no bar on a terminal that cannot redraw a line (TERM=dumb): the summary alone, no escape sequence', async () => {
    const tag = unique();
    const file = inputFile('dumb.csv', `name,email\n${Array.from({ length: 3 }, (_, index) => `Dumb ${index},dumb${index}-${tag}@example.com`).join('\n')}\n`);
    const slow: Transport = async (request) => (await new Promise((resolve) => setTimeout(resolve, 80)), ws.transport(request));
    const env = { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, TERM: 'dumb' };
    const result = await run(['contacts', 'import', file, '--concurrency', '1', '-o', 'ndjson'], { ws: { ...ws, transport: slow } as Workspace, env, tty: { stderr: true } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('3 created\n');
  });
});

describe('contacts import: one checkpoint, one import', () => {
  /** A service that answers nothing until `released`, so that an import is still under way when another starts. */
  const held = (released: Promise<void>): Workspace => ({ ...ws, transport: async (request) => (await released, ws.transport(request)) }) as Workspace;
  /** The same workspace, with a log of its own: what one run sent. */
  const logged = (): { ws: Workspace; sent: string[] } => {
    const sent: string[] = [];
    return { ws: { ...ws, transport: (request) => (sent.push(`${request.method} ${request.url}`), ws.transport(request)) } as Workspace, sent };
  };

  it.each([[[]], [['--resume']]])('a second import %j on a checkpoint in use is refused (exit 2, naming the process) and sends nothing', async (flags) => {
    const tag = unique();
    const file = inputFile('busy.csv', `name,email\n${Array.from({ length: 6 }, (_, index) => `Busy ${index},lock${index}-${tag}@example.com`).join('\n')}\n`);
    let release!: () => void;
    const first = run(['contacts', 'import', file, '--concurrency', '1', ...flags], { ws: held(new Promise((resolve) => (release = resolve))) });
    await until(() => existsSync(`${file}.crm-checkpoint.lock`), 'the first import to take its lock');
    const other = logged();
    const second = await run(['contacts', 'import', file, ...flags], { ws: other.ws });
    release();
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`crm: ${file}.crm-checkpoint is in use by another crm contacts import (process ${process.pid})\n`);
    expect(second.stderr).toContain(`hint: let it finish; if no import is running, delete ${file}.crm-checkpoint.lock\n`);
    expect(other.sent).toEqual([]);
    expect((await first).code).toBe(0);
    for (let index = 0; index < 6; index++) expect(withEmail(`lock${index}-${tag}@example.com`)).toHaveLength(1);
    expect(existsSync(`${file}.crm-checkpoint.lock`)).toBe(false);
  });

  it('takes over the lock of an import that is gone (killed: its process no longer runs)', async () => {
    const tag = unique();
    const file = inputFile('stale.csv', `name,email\nStale,stale-${tag}@example.com\n`);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${file}.crm-checkpoint.lock`, `${gone} ${hostname()}\n`);
    const result = await run(['contacts', 'import', file], { ws });
    expect(result.code).toBe(0);
    expect(withEmail(`stale-${tag}@example.com`)).toHaveLength(1);
    expect(existsSync(`${file}.crm-checkpoint.lock`)).toBe(false);
  });

  /** A first run with a row that fails, so that its checkpoint stays for --resume. */
  async function halfDone(name: string): Promise<string> {
    const tag = unique();
    const file = inputFile(name, `name,email\nDone,done-${tag}@example.com\nLater,later-${tag}@example.com\n`);
    ws.fault({ match: /^POST/, status: 500, times: 1 });
    expect((await run(['contacts', 'import', file, '--concurrency', '1'], { ws })).code).toBe(7);
    ws.log.length = 0;
    return file;
  }

  it('--resume against another workspace is refused (exit 2) before anything is sent', async () => {
    const file = await halfDone('moved.csv');
    const elsewhere = { ...homeEnv(ws.home), CRM_BASE_URL: 'http://127.0.0.1:8/api/v1', CRM_API_KEY: ws.apiKey };
    const result = await run(['contacts', 'import', file, '--resume'], { ws, env: elsewhere });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`crm: ${file}.crm-checkpoint holds the progress of an import into http://127.0.0.1:9/api/v1, not http://127.0.0.1:8/api/v1\n`);
    expect(ws.requests()).toEqual([]);
  });

  it('a journal damaged before its last line is refused (exit 2) naming the line, before anything is sent', async () => {
    const file = await halfDone('damaged.csv');
    const checkpoint = `${file}.crm-checkpoint`;
    const lines = readFileSync(checkpoint, 'utf8').split('\n');
    lines.splice(1, 0, '{"sent_through":2');
    writeFileSync(checkpoint, lines.join('\n'));
    const result = await run(['contacts', 'import', file, '--resume'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: ${checkpoint} is damaged: line 2 is not what crm wrote`);
    expect(ws.requests()).toEqual([]);
  });

  it('--resume with another profile of the same base URL (another workspace) is refused (exit 2) before anything is sent', async () => {
    const file = await halfDone('other-profile.csv');
    const home = homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-')));
    expect((await run(['auth', 'login', '--base-url', BASE_URL, '--with-key', '--profile', 'staging'], { ws, env: home, stdin: `${ws.apiKey}\n` })).code).toBe(0);
    ws.log.length = 0;
    const result = await run(['contacts', 'import', file, '--resume', '--profile', 'staging'], { ws, env: home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`crm: ${file}.crm-checkpoint holds the progress of an import with profile "sandbox", not "staging"\n`);
    expect(ws.requests()).toEqual([]);
    // The profile of the first run resumes.
    expect((await run(['contacts', 'import', file, '--resume'], { ws })).code).toBe(0);
  });

  it('--resume of another file with the same --checkpoint is refused (exit 2); so is other data on stdin', async () => {
    const file = await halfDone('first.csv');
    const checkpoint = join(file, '..', 'shared.checkpoint');
    renameSync(`${file}.crm-checkpoint`, checkpoint);
    const other = inputFile('second.csv', 'name,email\nOther,other@example.com\n');
    const result = await run(['contacts', 'import', other, '--checkpoint', checkpoint, '--resume'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`crm: ${checkpoint} holds the progress of an import of ${file}, not ${other}\n`);

    const piped = join(file, '..', 'piped.checkpoint');
    ws.fault({ match: /^POST/, status: 500, times: 1 });
    expect((await run(['contacts', 'import', '-', '--checkpoint', piped], { ws, stdin: readFileSync(file) })).code).toBe(7);
    ws.log.length = 0;
    const changed = await run(['contacts', 'import', '-', '--checkpoint', piped, '--resume'], { ws, stdin: readFileSync(other) });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('stdin is not what was imported then');
    expect(ws.requests()).toEqual([]);
  });

  it('--upsert of a file imported before runs: every row is looked up and updated or created', async () => {
    const file = await halfDone('again.csv');
    const result = await run(['contacts', 'import', file, '--upsert', '-o', 'ndjson'], { ws });
    expect(result.code).toBe(0);
    expect(rowsOf(result.stdout).map((row) => row.result).sort()).toEqual(['created', 'updated']);
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(false);
  });
});

describe('contacts import: files it writes and reads', () => {
  it("an export with --escape-formulas reads back exactly with --unescape-formulas (a value that began with ' too); without it the ' stays", async () => {
    const tag = unique();
    const people = [
      { name: '=HYPERLINK("http://evil.example","click")', email: `f1-${tag}@example.com`, company: '@SUM(A1)', phone: '+1 555 0100', title: '-2+3' },
      { name: "'=quoted already", email: `f2-${tag}@example.com`, company: "''+twice", phone: "'plain", title: "it's fine" },
    ];
    for (const person of people) ws.api('POST', '/contacts', person);
    const exported = await run(['contacts', 'export', '--search', tag, '--escape-formulas'], { ws });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`'=HYPERLINK`);
    expect(exported.stdout).toContain(`''=quoted already`);
    const file = inputFile('escaped.csv', exported.stdout);
    // In the order of the people above (the export lists the newest first).
    const fields = (stdout: string) => rowsOf(stdout).map(({ name, email, company, phone, title }) => ({ name, email, company, phone, title })).sort((one, other) => one.email.localeCompare(other.email));
    const back = await run(['contacts', 'import', file, '--unescape-formulas', '--upsert', '--dry-run', '-o', 'ndjson'], { ws });
    expect(back.code, back.stderr).toBe(0);
    expect(fields(back.stdout)).toEqual(people);
    const kept = await run(['contacts', 'import', file, '--upsert', '--dry-run', '-o', 'ndjson'], { ws });
    expect(fields(kept.stdout)[0]).toEqual({ ...people[0], name: `'${people[0]!.name}`, company: "'@SUM(A1)", phone: "'+1 555 0100", title: "'-2+3" });
    // A header cell crm guarded (a field's name from the service) reads back too.
    const headed = inputFile('headed.csv', `name,email,"'=Org"\nHeaded,headed-${tag}@example.com,Acme\n`);
    const named = await run(['contacts', 'import', headed, '--unescape-formulas', '--map', '=Org=company', '--dry-run', '-o', 'ndjson'], { ws });
    expect(named.code, named.stderr).toBe(0);
    expect(rowsOf(named.stdout)[0]).toMatchObject({ name: 'Headed', company: 'Acme' });
    // --escape-formulas changes CSV only: NDJSON is refused with the flag, before anything is sent.
    const ndjson = await run(['contacts', 'import', '-', '--unescape-formulas'], { ws, stdin: `{"name":"A","email":"a-${tag}@example.com"}\n` });
    expect(ndjson.code).toBe(2);
    expect(ndjson.stderr.split('\n')[0]).toBe('crm: --unescape-formulas reads a CSV, and stdin is read as ndjson');
    expect(ws.requests(/^(POST|PATCH)/)).toEqual([]);
  });

  it.each([
    ['a directory that does not exist', (dir: string) => join(dir, 'missing', 'errors.csv'), (dir: string) => `the directory ${join(dir, 'missing')} does not exist`],
    ['a directory', (dir: string) => dir, () => 'is a directory'],
  ])('--errors in %s is refused (exit 2) before anything is sent, worded as every file crm cannot write', async (_, errorsPath, why) => {
    const file = inputFile('e.csv', 'name,email\nA,a@example.com\nB,nope\n');
    const dir = join(file, '..');
    const result = await run(['contacts', 'import', file, '--errors', errorsPath(dir)], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: cannot write --errors ${errorsPath(dir)}: ${why(dir)}`);
    expect(ws.requests()).toEqual([]);
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(false);
  });

  it('a checkpoint that can no longer be written (the disk is full) stops the import before any row goes unjournaled (rows were sent, then a crash)', async () => {
    const tag = unique();
    const file = inputFile('full.csv', `name,email\n${Array.from({ length: 3 }, (_, index) => `Full,full${index}-${tag}@example.com`).join('\n')}\n`);
    const checkpoint = join(file, '..', 'progress');
    // The disk fills once the import has begun: before its first write (the first row's look-up comes first).
    const filling: Transport = (request) => {
      if (!existsSync(checkpoint)) symlinkSync('/dev/full', checkpoint);
      return ws.transport(request);
    };
    const result = await run(['contacts', 'import', file, '--checkpoint', checkpoint, '--upsert', '--concurrency', '1', '-o', 'ndjson'], { ws: { ...ws, transport: filling } as Workspace });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(`crm: import stopped: cannot write the checkpoint ${checkpoint}: no space left on device`);
    expect(rowsOf(result.stdout).map((row) => row.result)).toEqual(['pending', 'pending', 'pending']);
    expect(ws.requests(/^(POST|PATCH)/)).toEqual([]);
    expect(existsSync(`${checkpoint}.lock`)).toBe(false);
  });

  it.each([[['--upsert']], [[]]])('a --checkpoint that names a file which is no checkpoint is refused (exit 2), not overwritten %j', async (flags) => {
    const file = inputFile('keep.csv', `name,email\nKeep,keep-${unique()}@example.com\n`);
    const notes = join(file, '..', 'notes.txt');
    writeFileSync(notes, 'precious\n');
    const result = await run(['contacts', 'import', file, '--checkpoint', notes, ...flags], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: ${notes} is not a checkpoint of crm contacts import`);
    expect(readFileSync(notes, 'utf8')).toBe('precious\n');
    expect(ws.requests()).toEqual([]);
  });

  /** "Zoë Brontë <zoe@…>, ‘Café’ €5" as a spreadsheet on Windows saves it: windows-1252. */
  const cp1252 = (tag: string) =>
    Buffer.concat([Buffer.from(`name,email,company\nZo`), Buffer.from([0xeb]), Buffer.from(` Bront`), Buffer.from([0xeb]), Buffer.from(`,zoe-${tag}@example.com,`), Buffer.from([0x91]), Buffer.from('Caf'), Buffer.from([0xe9, 0x92, 0x20, 0x80]), Buffer.from(`5\nBad,bad,`), Buffer.from([0xe9]), Buffer.from('\n')]);

  it('refuses a file that is not UTF-8, naming its first bad line, and sends nothing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'crm-import-enc-')), 'excel.csv');
    writeFileSync(file, cp1252(unique()));
    const result = await run(['contacts', 'import', file], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`crm: ${file} is not UTF-8 (line 2)\nhint: save it as UTF-8, or name its encoding: --encoding cp1252 (a spreadsheet's "CSV" saved on Windows) or --encoding latin1\n`);
    expect(ws.requests()).toEqual([]);
  });

  it.each(['cp1252', 'latin1'])('--encoding %s reads it, and writes --errors in the same encoding', async (encoding) => {
    const tag = unique();
    const file = join(mkdtempSync(join(tmpdir(), 'crm-import-enc-')), 'excel.csv');
    writeFileSync(file, cp1252(tag));
    const errors = join(file, '..', 'errors.csv');
    const result = await run(['contacts', 'import', file, '--encoding', encoding, '--errors', errors], { ws });
    expect(result.code).toBe(7);
    expect(withEmail(`zoe-${tag}@example.com`)[0]).toMatchObject({ name: 'Zoë Brontë', company: '‘Café’ €5' });
    expect(readFileSync(errors)).toEqual(Buffer.concat([Buffer.from('name,email,company,line,reason\r\nBad,bad,'), Buffer.from([0xe9]), Buffer.from(',3,"email: invalid email ""bad"""\r\n')]));
  });

  it('writes --errors with a byte order mark only when the input had one', async () => {
    for (const bom of ['', '\uFEFF']) {
      const file = inputFile('b.csv', `${bom}name,email\nB,nope\n`);
      const errors = join(file, '..', 'errors.csv');
      expect((await run(['contacts', 'import', file, '--errors', errors], { ws })).code).toBe(2);
      expect(readFileSync(errors, 'utf8')).toBe(`${bom}name,email,line,reason\r\nB,nope,2,"email: invalid email ""nope"""\r\n`);
    }
  });

  it('--errors through a symbolic link writes where the link points, the link kept; a device (/dev/null) is written as it is', async () => {
    const file = inputFile('l.csv', 'name,email\nB,nope\n');
    const target = join(mkdtempSync(join(tmpdir(), 'crm-errors-target-')), 'kept.csv');
    writeFileSync(target, 'old\n');
    const link = join(file, '..', 'errors.csv');
    symlinkSync(target, link);
    expect((await run(['contacts', 'import', file, '--errors', link], { ws })).code).toBe(2);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('name,email,line,reason\r\nB,nope,2,"email: invalid email ""nope"""\r\n');
    // Nothing is made beside a device (crm may not create files in /dev).
    const intoDevice = await run(['contacts', 'import', file, '--errors', '/dev/null'], { ws });
    expect(intoDevice.code).toBe(2);
    expect(intoDevice.stderr).not.toContain('cannot write');
  });
});
