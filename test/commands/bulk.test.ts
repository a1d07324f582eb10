// Many records at once (issue 22, point 2): every command that acts on one record by id also takes
// several, or `-` for what stdin lists (one id or email a line, or what another crm command printed).
// The request log shows what was sent; bad input, a refused confirmation and a script deleting
// several without --yes send nothing.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { BASE_URL, json, run, scriptedPrompter, useWorkspace, type Workspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const terminal = { stdin: true, stdout: true, stderr: true, columns: 120 };
const sent = () => ws.requests().map((request) => `${request.method} ${request.url}`);
const writes = () => sent().filter((request) => !request.startsWith('GET '));

function newTasks(count: number): string[] {
  return Array.from({ length: count }, (_, n) => ws.api('POST', '/tasks', { title: `Bulk task ${n}` }).data.id as string);
}

/** COUNT new contacts named "NAME n". */
function newContacts(count: number, name = 'Bulk'): Array<{ id: string; email: string }> {
  return Array.from({ length: count }, (_, n) => {
    const email = `bulk.${n}.${Math.random().toString(36).slice(2, 8)}@example.com`;
    return { id: ws.api('POST', '/contacts', { name: `${name} ${n}`, email }).data.id as string, email };
  });
}

describe('several ids as arguments', () => {
  it('tasks update A B: one PATCH each with the same body, a report row each, in the order given', async () => {
    const [a, b] = newTasks(2);
    const result = await run(['tasks', 'update', b!, a!, '--priority', 'high', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(sent().sort()).toEqual([`PATCH /api/v1/tasks/${a}`, `PATCH /api/v1/tasks/${b}`].sort());
    expect(ws.requests(/PATCH/).map((request) => JSON.parse(request.body))).toEqual([{ priority: 'high' }, { priority: 'high' }]);
    expect(json(result).map((row: { id: string; result: string }) => [row.id, row.result])).toEqual([
      [b, 'updated'],
      [a, 'updated'],
    ]);
    expect(ws.api('GET', `/tasks/${a}`).data.priority).toBe('high');
  });

  it('one id keeps the output of one record; the same id twice is one request, and a report of one row (two were given)', async () => {
    const [a] = newTasks(1);
    const one = await run(['tasks', 'update', a!, '--priority', 'high', '--json'], { ws });
    expect(one.code, one.stderr).toBe(0);
    expect(json(one)).toMatchObject({ id: a, priority: 'high' });
    ws.log.length = 0;
    const result = await run(['tasks', 'update', a!, a!, '--priority', 'low', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject([{ id: a, ok: true, result: 'updated', record: { id: a, priority: 'low' } }]);
    expect(sent()).toEqual([`PATCH /api/v1/tasks/${a}`]);
  });

  it('contacts enroll A B --sequence S: one enrolment each', async () => {
    const [a, b] = newContacts(2);
    const result = await run(['contacts', 'enroll', a!.id, b!.email, '--sequence', DEMO.sequence, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(writes().sort()).toEqual([`POST /api/v1/contacts/${a!.id}/sequences`, `POST /api/v1/contacts/${b!.id}/sequences`].sort());
    expect(json(result).map((row: { id: string; result: string }) => [row.id, row.result])).toEqual([
      [a!.id, 'enrolled'],
      [b!.id, 'enrolled'],
    ]);
  });

  it('deals stage A B STAGE moves both (the last argument is the stage, as for mv); --stage makes every argument a deal', async () => {
    const deals = [0, 1, 2].map((n) => ws.api('POST', '/deals', { name: `Bulk deal ${n}` }).data.id as string);
    const result = await run(['deals', 'stage', deals[0]!, deals[1]!, 'Negotiation', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(writes()).toEqual(expect.arrayContaining([`POST /api/v1/deals/${deals[0]}/stage`, `POST /api/v1/deals/${deals[1]}/stage`]));
    expect(writes()).toHaveLength(2);
    expect(ws.requests(/POST/).map((request) => JSON.parse(request.body))).toEqual([{ stage: 'negotiation' }, { stage: 'negotiation' }]);
    expect(json(result).map((row: { result: string; record: { stage: string } }) => [row.result, row.record.stage])).toEqual([
      ['moved', 'negotiation'],
      ['moved', 'negotiation'],
    ]);
    const named = await run(['deals', 'stage', deals[2]!, '--stage', 'proposal', '--json'], { ws });
    expect(named.code, named.stderr).toBe(0);
    expect(json(named)).toMatchObject({ id: deals[2], stage: 'proposal' });
  });
});

describe('a record in the state asked for already', () => {
  it('deals stage of several: a deal in the stage already is already_in_stage, the others move; exit 0', async () => {
    const [a, b] = [0, 1].map((n) => ws.api('POST', '/deals', { name: `Staged deal ${n}`, stage: n === 0 ? 'proposal' : 'qualification' }).data.id as string);
    const result = await run(['deals', 'stage', a!, b!, 'proposal', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).map((row: { id: string; result: string }) => [row.id, row.result])).toEqual([
      [a, 'already_in_stage'],
      [b, 'moved'],
    ]);
    expect(ws.api('GET', `/deals/${b}`).data.stage).toBe('proposal');
  });

  it('deals stage in a workspace whose stage ids are numbers: a refused move of a deal in that stage already is no move, exit 0', async () => {
    const stages = [{ id: 1, name: 'Discovery' }, { id: 2, name: 'Won' }];
    ws.fault({ match: /^GET \/api\/v1\/pipeline\/stages/, status: 200, body: JSON.stringify({ data: { stages, total: 2 }, error: null }) });
    ws.fault({ match: /^POST \/api\/v1\/deals\/deal_num\/stage/, status: 409, body: JSON.stringify({ data: null, error: 'Deal is already in that stage' }) });
    ws.fault({ match: /^GET \/api\/v1\/deals\/deal_num/, status: 200, body: JSON.stringify({ data: { id: 'deal_num', name: 'Numbered', stage: 2 }, error: null }) });
    const result = await run(['deals', 'stage', 'deal_num', 'Won', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ id: 'deal_num', stage: 2 });
    expect(result.stderr).toMatch(/already in Won/);
  });
});

describe('`-`: what stdin lists', () => {
  it('crm contacts list --search ... -q | crm contacts update - --set status=customer', async () => {
    const leads = newContacts(3, 'Quentin Piped');
    // The -q output of a list, as a pipe gives it.
    const listed = await run(['contacts', 'list', '--search', 'Quentin Piped', '-q'], { ws });
    expect(listed.stdout.trim().split('\n').sort()).toEqual(leads.map((lead) => lead.id).sort());
    ws.log.length = 0;
    const result = await run(['contacts', 'update', '-', '--set', 'status=customer', '--json'], { ws, stdin: listed.stdout });
    expect(result.code, result.stderr).toBe(0);
    expect(writes().sort()).toEqual(leads.map((lead) => `PATCH /api/v1/contacts/${lead.id}`).sort());
    expect(ws.requests(/PATCH/).every((request) => request.body === '{"status":"customer"}')).toBe(true);
    expect(json(result)).toHaveLength(3);
    for (const lead of leads) expect(ws.api('GET', `/contacts/${lead.id}`).data.status).toBe('customer');
  });

  it('a line not found names its id in its row, and an id of another kind says what it looks like (deals stage -, contacts update -; CRLF, a blank line, no last newline)', async () => {
    const deal = ws.api('GET', '/deals?limit=1').data.deals[0].id as string;
    const [task] = newTasks(1);
    const stdin = `${deal}\r\n\r\n${task} \r\ndeal_nothere0000`;
    const staged = await run(['deals', 'stage', '-', '--stage', 'negotiation', '--json'], { ws, stdin });
    expect(staged.code).toBe(7);
    expect(json(staged).map((row: { id: string; result: string; error: string | null }) => [row.id, row.result, row.error])).toEqual([
      [deal, expect.stringMatching(/^(moved|already_in_stage)$/), null],
      [task, 'not_found', `deal ${task} not found (${task} looks like a task's id, not a deal's)`],
      ['deal_nothere0000', 'not_found', 'deal deal_nothere0000 not found'],
    ]);
    const updated = await run(['contacts', 'update', '-', '--set', 'title=X', '--json'], { ws, stdin: `${deal}\n` });
    expect(updated.code).toBe(7);
    expect(json(updated)[0].error).toBe(`contact ${deal} not found (${deal} looks like a deal's id, not a contact's)`);
  });

  it.each([
    ['--json (a JSON array of records)', ['--json']],
    ['-o ndjson', ['-o', 'ndjson']],
    ['tsv (a pipe\'s default)', []],
    ['-o csv (a header row, then a row a task)', ['-o', 'csv']],
    ['-o csv with the id not first', ['-o', 'csv', '--fields', 'title,id']],
  ])('tasks complete - reads the ids of %s', async (_name, format) => {
    const ids = newTasks(2);
    const printed = await run(['tasks', 'list', '--search', 'Bulk task', '--limit', '50', ...format], { ws });
    expect(printed.code, printed.stderr).toBe(0);
    const listedIds = json(await run(['tasks', 'list', '--search', 'Bulk task', '--limit', '50', '--json'], { ws })).map((task: { id: string }) => task.id);
    expect(listedIds).toEqual(expect.arrayContaining(ids));
    ws.log.length = 0;
    const result = await run(['tasks', 'complete', '-', '--json'], { ws, stdin: printed.stdout });
    expect(result.code, result.stderr).toBe(0);
    expect(writes().sort()).toEqual(listedIds.map((id: string) => `POST /api/v1/tasks/${id}/complete`).sort());
  });

  it('one JSON string a line (what jq prints without -r): each is its id, not its quotes', async () => {
    const ids = newTasks(2);
    const result = await run(['tasks', 'complete', '-', '--json'], { ws, stdin: `${ids.map((id) => JSON.stringify(id)).join('\n')}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(writes().sort()).toEqual(ids.map((id) => `POST /api/v1/tasks/${id}/complete`).sort());
  });

  it('one email a line: each looked up, then written by its id', async () => {
    const contacts = newContacts(2);
    const result = await run(['contacts', 'update', '-', '--status', 'customer', '--json'], { ws, stdin: contacts.map((contact) => contact.email.toUpperCase()).join('\n') });
    expect(result.code, result.stderr).toBe(0);
    expect(writes().sort()).toEqual(contacts.map((contact) => `PATCH /api/v1/contacts/${contact.id}`).sort());
    expect(sent().filter((request) => request.startsWith('GET /api/v1/contacts?search='))).toHaveLength(2);
    expect(json(result).map((row: { id: string }) => row.id)).toEqual(contacts.map((contact) => contact.id));
  });

  it('ai accept - accepts what `crm ai suggestions --json` printed', async () => {
    const pending = json(await run(['ai', 'suggestions', '--limit', '2', '--json'], { ws })).map((suggestion: { id: string }) => suggestion.id);
    expect(pending).toHaveLength(2);
    ws.log.length = 0;
    const result = await run(['ai', 'accept', '-', '--json'], { ws, stdin: JSON.stringify(pending.map((id: string) => ({ id }))) });
    expect(result.code, result.stderr).toBe(0);
    expect(writes().sort()).toEqual(pending.map((id: string) => `POST /api/v1/ai/suggestions/${id}/accept`).sort());
  });

  it('deals stage - STAGE: the deals from stdin, the stage as the argument', async () => {
    const deals = [0, 1].map((n) => ws.api('POST', '/deals', { name: `Piped deal ${n}` }).data.id as string);
    const result = await run(['deals', 'stage', '-', 'proposal', '--json'], { ws, stdin: `${deals.join('\n')}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(writes().sort()).toEqual(deals.map((id) => `POST /api/v1/deals/${id}/stage`).sort());
  });
});

describe('a report: every record accounted for', () => {
  it('some failed: exit 7 naming them; every row has the same members in the same order', async () => {
    const [a, b] = newTasks(2);
    const result = await run(['tasks', 'update', a!, 'task_missing_1', b!, '--status', 'completed', '--json'], { ws });
    expect(result.code).toBe(7);
    expect(result.stderr.split('\n')[0]).toBe('crm: 1 of 3 failed: task_missing_1');
    const rows = json(result);
    expect(rows.map((row: { id: string; result: string }) => [row.id, row.result])).toEqual([
      [a, 'updated'],
      ['task_missing_1', 'not_found'],
      [b, 'updated'],
    ]);
    expect(new Set(rows.map((row: object) => Object.keys(row).join(',')))).toEqual(new Set(['id,ok,result,error,record']));
    expect(writes()).toHaveLength(3);
  });

  it('the exit code follows what was given, as the shape does: `-` holding one id that failed, or one id twice, is exit 7 as two would be; one id alone keeps its own code', async () => {
    const piped = await run(['tasks', 'complete', '-', '--json'], { ws, stdin: 'task_missing_1\n' });
    expect(piped.code).toBe(7);
    expect(json(piped)).toMatchObject([{ id: 'task_missing_1', ok: false, result: 'not_found' }]);
    expect(piped.stderr.trimEnd().split('\n').at(-1)).toContain('"code":"partial_failure"');
    const twice = await run(['tasks', 'update', 'task_missing_1', 'task_missing_1', '--priority', 'low'], { ws });
    expect(twice.code).toBe(7);
    const read = await run(['tasks', 'get', '-'], { ws, stdin: 'task_missing_1\n' });
    expect(read.code).toBe(7);
    expect(read.stdout).toBe('');
    const enrolled = await run(['sequences', 'enroll', DEMO.sequence, '-'], { ws, stdin: 'nobody.here@example.com\n' });
    expect(enrolled.code).toBe(7);
    // One id, as an argument: the failure's own code (4), as `tasks get ID` exits.
    const one = await run(['tasks', 'complete', 'task_missing_1'], { ws });
    expect(one.code).toBe(4);
    const alone = await run(['tasks', 'update', 'task_missing_1', '--priority', 'low'], { ws });
    expect(alone.code).toBe(4);
    const enrolledAlone = await run(['sequences', 'enroll', DEMO.sequence, 'nobody.here@example.com'], { ws });
    expect(enrolledAlone.code).toBe(4);
  });

  it('--fields and --jq pick from the report of several records', async () => {
    const [a, b] = newTasks(2);
    const fields = await run(['tasks', 'update', a!, b!, '--priority', 'low', '-o', 'tsv', '--fields', 'id,result'], { ws });
    expect(fields.code, fields.stderr).toBe(0);
    expect(fields.stdout).toBe(`${a}\tupdated\n${b}\tupdated\n`);
    const jq = await run(['tasks', 'update', a!, b!, '--priority', 'high', '--jq', '.[].record.priority'], { ws });
    expect(jq.code, jq.stderr).toBe(0);
    expect(jq.stdout).toBe('high\nhigh\n');
  });

  it('an email that names no contact is a row of its own; the others are written', async () => {
    const [a] = newContacts(1);
    const result = await run(['contacts', 'delete', a!.id, 'nobody.here@example.com', '--yes', '--json'], { ws });
    expect(result.code).toBe(7);
    expect(json(result).map((row: { id: string; result: string }) => [row.id, row.result])).toEqual([
      [a!.id, 'deleted'],
      ['nobody.here@example.com', 'not_found'],
    ]);
    expect(writes()).toEqual([`DELETE /api/v1/contacts/${a!.id}`]);
  });

  it('the key refused (401): what is not under way yet is not sent, the report says so, exit 3', async () => {
    const ids = newTasks(12);
    ws.fault({ match: /PATCH/, status: 401, body: JSON.stringify({ data: null, error: { message: 'invalid API key', code: 'unauthorized' } }), times: Infinity });
    const result = await run(['tasks', 'update', ...ids, '--priority', 'low', '--json'], { ws });
    expect(result.code).toBe(3);
    const rows = json(result) as Array<{ id: string; result: string }>;
    expect(rows.map((row) => row.id)).toEqual(ids);
    const unsent = rows.filter((row) => row.result === 'not_sent');
    expect(unsent.length).toBeGreaterThan(0);
    // Every record is either sent (and refused) or reported as not sent.
    expect(writes().length + unsent.length).toBe(12);
    expect(result.stderr.split('\n')[0]).toBe(`crm: invalid API key; ${unsent.length} of 12 were not sent`);
  });

  it('sequences enroll: the key refused (401) for a batch, the batches after it are not sent (each contact a not_sent row), exit 3', async () => {
    const ids = Array.from({ length: 60 }, (_, n) => `con_refused${n}`);
    ws.fault({ match: /POST \/api\/v1\/sequences\/.*\/enroll/, status: 401, body: JSON.stringify({ data: null, error: 'Invalid or revoked API key' }), times: Infinity });
    const result = await run(['sequences', 'enroll', DEMO.sequence, '-', '--json'], { ws, stdin: ids.join('\n') });
    expect(result.code).toBe(3);
    expect(writes()).toHaveLength(1);
    const rows = json(result) as Array<{ id: string; result: string }>;
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.map((row) => row.result)).toEqual([...Array(50).fill('failed'), ...Array(10).fill('not_sent')]);
  });
});

describe('SIGTERM through the Context\'s signals (an emitter of the test\'s own: it reaches this command alone)', () => {
  it('tasks complete A..H --concurrency 1, SIGTERM as the second is answered: no other id is started, the report accounts for all; exit 130', async () => {
    const ids = newTasks(8);
    const signals = new EventEmitter();
    let completed = 0;
    const transport: Workspace['transport'] = async (request) => {
      const response = await ws.transport(request);
      if (request.method === 'POST' && ++completed === 2) signals.emit('SIGTERM');
      return response;
    };
    const result = await run(['tasks', 'complete', ...ids, '--concurrency', '1', '--json'], { ws: { ...ws, transport } as Workspace, signals });
    expect(result.code, result.stderr).toBe(130);
    const rows = json(result) as Array<{ id: string; result: string; error: string | null }>;
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.map((row) => row.result)).toEqual([...Array(2).fill('completed'), ...Array(6).fill('not_sent')]);
    expect(rows.slice(2).every((row) => row.error === 'not sent: stopped by SIGTERM')).toBe(true);
    expect(writes()).toHaveLength(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: stopped by SIGTERM after 2 of 8 (2 completed, 6 not sent)');
    expect(signals.listenerCount('SIGTERM')).toBe(0);
  });
});

describe('--dry-run lists every request and sends no write', () => {
  it('an update of three records: three PATCHes planned, none sent', async () => {
    const ids = newTasks(3);
    const result = await run(['tasks', 'update', ...ids, '--priority', 'high', '--dry-run', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const plan = json(result) as Array<{ method: string; url: string; body: unknown }>;
    expect(plan.map((request) => `${request.method} ${request.url}`).sort()).toEqual(ids.map((id) => `PATCH ${BASE_URL}/tasks/${id}`).sort());
    expect(plan.every((request) => JSON.stringify(request.body) === '{"priority":"high"}')).toBe(true);
    expect(ws.requests()).toHaveLength(0);
  });

  it('emails: the look-ups are sent and planned, then a write for each', async () => {
    const contacts = newContacts(2);
    const result = await run(['contacts', 'delete', ...contacts.map((contact) => contact.email), '--dry-run', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const plan = (json(result) as Array<{ method: string; url: string }>).map((request) => `${request.method} ${request.url}`);
    expect(plan.filter((request) => request.startsWith('GET '))).toHaveLength(2);
    expect(plan.filter((request) => request.startsWith('DELETE ')).sort()).toEqual(contacts.map((contact) => `DELETE ${BASE_URL}/contacts/${contact.id}`).sort());
    expect(writes()).toHaveLength(0);
  });
});

describe('--concurrency: requests at a time, as contacts import takes it', () => {
  /**
   * The workspace, holding each write until CAP of them are waiting, then letting them go together:
   * the most writes ever under way at once is counted, whatever the machine's speed.
   */
  function capped(cap: number): { ws: Workspace; most: () => number } {
    let underWay = 0;
    let most = 0;
    let waiting: Array<() => void> = [];
    const transport: Workspace['transport'] = async (request) => {
      if (request.method === 'GET') return ws.transport(request);
      most = Math.max(most, ++underWay);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === cap) [waiting, waiting = []][0].forEach((release) => release());
      });
      try {
        return await ws.transport(request);
      } finally {
        underWay--;
      }
    };
    return { ws: { ...ws, transport } as Workspace, most: () => most };
  }

  it.each([
    [1, ['tasks', 'update', '-', '--priority', 'high']],
    [2, ['tasks', 'complete', '-']],
    [3, ['tasks', 'delete', '-', '--yes']],
  ])('--concurrency %i: never more writes under way at once, and every record written', async (cap, argv) => {
    const ids = newTasks(6);
    const held = capped(cap);
    const result = await run([...argv, '--concurrency', String(cap), '--json'], { ws: held.ws, stdin: ids.join('\n') });
    expect(result.code, result.stderr).toBe(0);
    expect((json(result) as Array<{ id: string; ok: boolean }>).map((row) => [row.id, row.ok])).toEqual(ids.map((id) => [id, true]));
    expect(writes()).toHaveLength(6);
    expect(held.most()).toBe(cap);
  });
});

describe('confirmation', () => {
  it('more than 10 records at a terminal: asked, naming the count; no sends nothing', async () => {
    const ids = newTasks(11);
    const prompter = scriptedPrompter([false]);
    const result = await run(['tasks', 'complete', ...ids], { ws, tty: terminal, prompter });
    expect(result.code).toBe(130);
    expect(prompter.asked).toEqual(['Complete 11 tasks?']);
    expect(ws.requests()).toHaveLength(0);
  });

  it('more than 10 at a terminal, yes: all sent; 10 are not asked about', async () => {
    const ids = newTasks(11);
    const prompter = scriptedPrompter([true]);
    const result = await run(['tasks', 'update', ...ids, '--priority', 'low'], { ws, tty: terminal, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked).toEqual(['Update 11 tasks?']);
    expect(writes()).toHaveLength(11);
    ws.log.length = 0;
    const ten = await run(['tasks', 'update', ...ids.slice(1), '--priority', 'high'], { ws, tty: terminal, prompter: scriptedPrompter([]) });
    expect(ten.code, ten.stderr).toBe(0);
    expect(writes()).toHaveLength(10);
  });

  it('a delete of several at a terminal is always asked', async () => {
    const ids = newTasks(2);
    const prompter = scriptedPrompter([true]);
    const result = await run(['tasks', 'delete', ...ids], { ws, tty: terminal, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked).toEqual(['Delete 2 tasks?']);
    expect(writes().sort()).toEqual(ids.map((id) => `DELETE /api/v1/tasks/${id}`).sort());
  });

  it('a script deletes several only with --yes: without it, exit 2 and nothing sent (emails not even looked up)', async () => {
    const contacts = newContacts(2);
    const refused = await run(['contacts', 'delete', contacts[0]!.email, contacts[1]!.id], { ws });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('crm: refusing to delete 2 contacts without confirmation\nhint: pass --yes to confirm\n');
    expect(ws.requests()).toHaveLength(0);
    const piped = await run(['tasks', 'delete', '-'], { ws, stdin: 'task_a\ntask_b\n' });
    expect(piped.code).toBe(2);
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('get of several: the records themselves, in the order given', () => {
  const ids = (records: Array<{ id: string }>) => records.map((record) => record.id);

  it('contacts get A MISSING B EMAIL: the records found in order (--json an array of them), the missing one on stderr, exit 7', async () => {
    const [a, b, c] = newContacts(3, 'Read');
    const result = await run(['contacts', 'get', b!.id, 'con_missing', a!.id, c!.email.toUpperCase(), '--json'], { ws });
    expect(result.code).toBe(7);
    expect(ids(json(result))).toEqual([b!.id, a!.id, c!.id]);
    expect(json(result)[0]).toEqual(ws.api('GET', `/contacts/${b!.id}`).data);
    expect(result.stderr.split('\n')).toEqual(expect.arrayContaining(['con_missing: contact con_missing not found']));
    expect(result.stderr).toContain('"message":"1 of 4 failed: con_missing"');
    expect(sent().sort()).toEqual(
      [...[b!.id, 'con_missing', a!.id, c!.id].map((id) => `GET /api/v1/contacts/${id}`), `GET /api/v1/contacts?search=${encodeURIComponent(c!.email.toUpperCase())}&limit=50&offset=0`].sort(),
    );
  });

  it('an email that names no contact is a line on stderr; -q prints the ids found, in order; a terminal is told the counts', async () => {
    const [a, b] = newContacts(2, 'Quiet');
    const quiet = await run(['contacts', 'get', a!.id, 'nobody.at.all@example.com', b!.email, '-q'], { ws, tty: { stderr: true } });
    expect(quiet.code).toBe(7);
    expect(quiet.stdout).toBe(`${a!.id}\n${b!.id}\n`);
    expect(quiet.stderr).toContain('nobody.at.all@example.com: no contact with email nobody.at.all@example.com\n');
    const counted = await run(['contacts', 'get', a!.id, 'nobody.at.all@example.com', b!.email], { ws, tty: { stderr: true } });
    expect(counted.stderr).toContain('2 found, 1 not found\n');
    expect(counted.stdout.trim().split('\n').map((line) => line.split('\t')[0])).toEqual([a!.id, b!.id]);
  });

  it.each([
    ['accounts', () => [DEMO.accountName, DEMO.account], () => [ws.api('GET', `/accounts?search=${encodeURIComponent(DEMO.accountName)}`).data.accounts.find((account: { name: string }) => account.name === DEMO.accountName).id, DEMO.account]],
    ['deals', () => ws.api('GET', '/deals?limit=2').data.deals.map((deal: { id: string }) => deal.id).reverse(), undefined],
    ['sequences', () => ws.api('GET', '/sequences?limit=2').data.sequences.map((sequence: { id: string }) => sequence.id).reverse(), undefined],
    ['tasks', () => newTasks(2).reverse(), undefined],
  ] as Array<[string, () => string[], (() => string[]) | undefined]>)('%s get A B: both records, in the order given, one GET each', async (resource, given, expected) => {
    const values = given();
    const wanted = expected?.() ?? values;
    ws.log.length = 0;
    const result = await run([resource, 'get', ...values, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(ids(json(result))).toEqual(wanted);
    expect(sent().filter((request) => !request.includes('?search='))).toEqual(expect.arrayContaining(wanted.map((id) => `GET /api/v1/${resource}/${id}`)));
  });

  it('one id prints one record as it always did; `-` holding one id prints an array of one', async () => {
    const one = await run(['tasks', 'get', DEMO.task, '--json'], { ws });
    expect(one.code, one.stderr).toBe(0);
    expect(json(one)).toMatchObject({ id: DEMO.task });
    const piped = await run(['tasks', 'get', '-', '--json'], { ws, stdin: `${DEMO.task}\n` });
    expect(piped.code, piped.stderr).toBe(0);
    expect(ids(json(piped))).toEqual([DEMO.task]);
  });

  it.each([
    ['--json', ['--json']],
    ['-o ndjson', ['-o', 'ndjson']],
    ['tsv (a pipe\'s default)', []],
  ])('tasks get - reads what `crm tasks list %s` printed: the same records, in the same order', async (_name, format) => {
    newTasks(3);
    const listed = await run(['tasks', 'list', '--search', 'Bulk task', '--limit', '3', ...format], { ws });
    const expected = json(await run(['tasks', 'list', '--search', 'Bulk task', '--limit', '3', '--json'], { ws }));
    ws.log.length = 0;
    const result = await run(['tasks', 'get', '-', '-o', 'ndjson'], { ws, stdin: listed.stdout });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(expected);
    expect(sent()).toEqual(expect.arrayContaining(ids(expected).map((id: string) => `GET /api/v1/tasks/${id}`)));
    expect(sent()).toHaveLength(3);
  });

  it('the same id twice (or an id and its email): one GET, an array of one record, as for two different ids (`--jq .[]` works whatever the values)', async () => {
    const [a] = newContacts(1, 'Twice');
    for (const given of [[a!.id, a!.id], [a!.id, a!.email]]) {
      ws.log.length = 0;
      const result = await run(['contacts', 'get', ...given, '--jq', '.[].email'], { ws });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${a!.email}\n`);
      expect(sent().filter((request) => !request.includes('?search='))).toEqual([`GET /api/v1/contacts/${a!.id}`]);
    }
  });

  it('exit 7 with --json: the records on stdout, and stderr ends with the error object, every member of it as README names them', async () => {
    const [a] = newTasks(1);
    const result = await run(['tasks', 'get', a!, 'task_gone', '--json'], { ws });
    expect(result.code).toBe(7);
    expect(ids(json(result))).toEqual([a]);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('task_gone: task task_gone not found');
    const { error } = JSON.parse(lines.at(-1)!);
    expect(error).toMatchObject({ code: 'partial_failure', exit_code: 7, message: '1 of 2 failed: task_gone' });
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const documented = /`\{"error":\s*\{([^}]*)\}\}`/.exec(readme)![1]!.match(/"[a-z_]+"/g)!.map((name) => JSON.parse(name));
    expect(documented).toEqual(expect.arrayContaining(Object.keys(error)));
  });

  it('`-` among ids: the ids stdin lists come at its place, in the order given', async () => {
    const [a, b, c, d] = newTasks(4);
    const result = await run(['tasks', 'get', b!, '-', a!, '--json'], { ws, stdin: `${d}\n${c}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(ids(json(result))).toEqual([b, d, c, a]);
    const updated = await run(['tasks', 'update', '-', a!, '--priority', 'low', '--json'], { ws, stdin: `${c}\n` });
    expect(updated.code, updated.stderr).toBe(0);
    expect(ids(json(updated))).toEqual([c, a]);
  });

  it('at the pace of bulk work: one record answered 429 more often than a single command retries is waited out, every record printed', async () => {
    const [a, b] = newTasks(2);
    ws.fault({ match: new RegExp(`^GET /api/v1/tasks/${a}$`), status: 429, headers: { 'retry-after': '0' }, times: 5 });
    const result = await run(['tasks', 'get', a!, b!, '--json', '--concurrency', '1'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(ids(json(result))).toEqual([a, b]);
    expect(ws.requests(new RegExp(`^GET /api/v1/tasks/${a}$`))).toHaveLength(6);
  });

  it('more than 10 at a terminal are read without a question', async () => {
    const many = newTasks(12);
    const prompter = scriptedPrompter([]);
    const result = await run(['tasks', 'get', ...many], { ws, tty: terminal, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked).toEqual([]);
    expect(sent()).toHaveLength(12);
  });

  it.each([
    ['an id with a space among good ones', ['contacts', 'get', DEMO.contact, 'con x', DEMO.email], undefined, 'crm: invalid ID "con x"'],
    ['a bad email on stdin', ['contacts', 'get', '-'], `${DEMO.contact}\nada@\n`, 'crm: id on stdin line 2: invalid email "ada@"'],
    ['a line of stdin that is not JSON', ['deals', 'get', '-'], `${DEMO.deal}\n{"id": }\n`, 'crm: stdin line 2: invalid JSON'],
    ['--concurrency 0', ['tasks', 'get', DEMO.task, 'task_b', '--concurrency', '0'], undefined, 'crm: invalid --concurrency "0"'],
    ['a misspelt --fields', ['tasks', 'get', DEMO.task, 'task_b', '--fields', 'titel'], undefined, 'crm: unknown field "titel" for tasks'],
  ])('%s: exit 2 naming it, nothing sent (not even the look-ups)', async (_name, argv, stdin, message) => {
    const result = await run(argv, { ws, stdin });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.startsWith(message), result.stderr).toBe(true);
    expect(ws.requests()).toEqual([]);
  });
});

describe('many ids', () => {
  it('300,000 ids on stdin are read and checked whole: a script deleting them without --yes is refused by their count, nothing sent', async () => {
    const ids = Array.from({ length: 300_000 }, (_, n) => `task_${n}`);
    const result = await run(['tasks', 'delete', '-'], { ws, stdin: `${ids.join('\n')}\n` });
    expect(result.stderr).toMatch(/^crm: refusing to delete 300000 tasks without confirmation/);
    expect(result.code).toBe(2);
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('bad input: exit 2 naming it, nothing sent', () => {
  it.each([
    ['a line that is not JSON', ['tasks', 'complete', '-'], 'task_1\n{"id": }\n', 'crm: stdin line 2: invalid JSON'],
    ['a record without an id', ['tasks', 'complete', '-'], '[{"title":"x"}]', 'crm: stdin item 1: a record without an "id"'],
    ['an empty stdin', ['contacts', 'update', '-', '--status', 'customer'], '\n# nothing\n', 'crm: no contact id or email given'],
    ['a bad email among good ids', ['contacts', 'update', '-', '--status', 'customer'], `${DEMO.contact}\nada@\n`, 'crm: id on stdin line 2: invalid email "ada@"'],
    ['an id with a space', ['tasks', 'update', 'task_1', 'task 2', '--priority', 'low'], undefined, 'crm: invalid ID "task 2"'],
    ['nothing to update', ['tasks', 'update', 'task_1', 'task_2'], undefined, 'crm: nothing to update'],
    ['an unknown stage', ['deals', 'stage', DEMO.deal, 'deal_x', 'nowhere'], undefined, 'crm: unknown stage "nowhere"'],
    ['deals from stdin without a stage', ['deals', 'stage', '-'], 'deal_x\ndeal_y\n', 'crm: missing STAGE'],
    ['an empty stdin for deals stage', ['deals', 'stage', '-'], '', 'crm: no deal ids given\nhint: stdin was empty\n'],
    ['the JSON of a list that found nothing, for a get', ['tasks', 'get', '-'], '[]\n', 'crm: no task id given\nhint: stdin held an empty list\n'],
    ['ids and --data both from stdin', ['contacts', 'update', '-', '--data', '-'], `${DEMO.contact}\n`, 'crm: the ids (-) and --data - both read stdin\nhint: give one of them a file\n'],
    ['ids and --file both from stdin', ['sequences', 'enroll', DEMO.sequence, '-', '--file', '-'], `${DEMO.contact}\n`, 'crm: --file and the ids (-) both read stdin\n'],
    ['--concurrency 0', ['tasks', 'complete', '-', '--concurrency', '0'], 'task_a\ntask_b\n', 'crm: invalid --concurrency "0" (expected an integer between 1 and 32)\n'],
    ['--concurrency 33, dry run', ['contacts', 'update', '-', '--status', 'lead', '--concurrency', '33', '--dry-run'], `${DEMO.contact}\n`, 'crm: invalid --concurrency "33"'],
    ['--concurrency of a delete', ['tasks', 'delete', 'task_a', 'task_b', '--yes', '--concurrency', 'many'], undefined, 'crm: invalid --concurrency "many"'],
    ['--concurrency of a stage move', ['deals', 'stage', DEMO.deal, 'deal_x', 'proposal', '--concurrency', '0'], undefined, 'crm: invalid --concurrency "0"'],
    // A line of megabytes is no id: refused without quoting it back (it would fill the terminal), nothing sent.
    ['a huge line among ids', ['tasks', 'complete', '-'], `task_a\n${'x'.repeat(2_000_000)}\n`, 'crm: invalid id on stdin line 2 (2,000,000 characters: an id is at most 1,024)\n'],
    // The hint names no --encoding: contacts import has one, a command that reads ids does not.
    ['ids that are not UTF-8', ['tasks', 'complete', '-'], Buffer.from('task_a\ntask_\xff\n', 'latin1'), 'crm: the ids (-) (stdin) is not UTF-8 (line 2)\nhint: save it as UTF-8\n'],
  ])('%s', async (_name, argv, stdin, message) => {
    const result = await run(argv, { ws, stdin });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.startsWith(message), result.stderr).toBe(true);
    expect(writes()).toHaveLength(0);
  });
});
