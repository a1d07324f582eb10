// crm tasks list --due and --sort due: the service has no due-date filter or sort, so crm walks the
// list with the filters it has (status open; the sandbox's overdue=true, an assumption) and checks
// every task itself. What was sent is read from the request log; bad input sends nothing.
import { describe, expect, it } from 'vitest';
import { parseDate } from '../../src/cli/input.js';
import { json, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';
import { ignoring } from '../helpers/transports.js';

const ws = useWorkspace();

const day = (relative: string) => parseDate(relative, 'test', new Date());

/** Every task of the workspace, newest first, read directly. */
function allTasks(workspace: Workspace = ws): any[] {
  const tasks: any[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = workspace.api('GET', `/tasks?limit=50&offset=${offset}`).data.tasks;
    tasks.push(...page);
    if (page.length < 50) return tasks;
  }
}

const ids = (tasks: any[]) => tasks.map((task) => task.id);
const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean);

describe('crm tasks list --due', () => {
  it('today: the open tasks due today, newest first, from one walk of the open tasks', async () => {
    const created = ws.api('POST', '/tasks', { title: 'Due today', due_date: day('today') }).data;
    ws.api('POST', '/tasks', { title: 'Done today', due_date: day('today'), status: 'completed' });
    ws.api('POST', '/tasks', { title: 'Due tomorrow', due_date: day('tomorrow') });
    const expected = allTasks().filter((task) => task.status === 'open' && task.due_date === day('today'));
    expect(ids(expected)).toContain(created.id);
    const result = await run(['tasks', 'list', '--due', 'today', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(ids(json(result))).toEqual(ids(expected));
    expect(ws.requests().map((request) => request.url)).toEqual(['/api/v1/tasks?status=open&limit=50&offset=0']);
  });

  it('overdue: sends the overdue filter, and keeps only open tasks due before today', async () => {
    const expected = allTasks().filter((task) => task.status === 'open' && task.due_date !== null && task.due_date < day('today'));
    expect(expected.length).toBeGreaterThan(0);
    const result = await run(['tasks', 'list', '--due', 'overdue', '--all', '-q'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual(ids(expected));
    expect(ws.requests().map((request) => request.url)).toEqual(['/api/v1/tasks?status=open&overdue=true&limit=50&offset=0']);
  });

  it('overdue, in Auckland at 08:00 (still yesterday in UTC): the service is not asked (its day may be behind), and a task due yesterday there is overdue', async () => {
    const yesterday = ws.api('POST', '/tasks', { title: 'Due on the 26th', due_date: '2026-11-26' }).data;
    const today = ws.api('POST', '/tasks', { title: 'Due on the 27th', due_date: '2026-11-27' }).data;
    const result = await run(['tasks', 'list', '--due', 'overdue', '--all', '--json'], { ws, now: Date.parse('2026-11-26T19:00:00Z'), timeZone: 'Pacific/Auckland' });
    expect(result.code, result.stderr).toBe(0);
    const listed = ids(json(result));
    expect(listed).toContain(yesterday.id);
    expect(listed).not.toContain(today.id);
    expect(ws.requests().map((request) => request.url)).toEqual(['/api/v1/tasks?status=open&limit=50&offset=0']);
  });

  it('checks what comes back: a workspace that ignores the status and overdue filters still gets only the overdue tasks', async () => {
    const loose = ignoring(ws, ['status', 'overdue']);
    const expected = allTasks().filter((task) => task.status === 'open' && task.due_date !== null && task.due_date < day('today'));
    const result = await run(['tasks', 'list', '--due', 'overdue', '--all', '-q'], { ws: loose });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual(ids(expected));
    // The service was asked for them, and sent every task instead.
    expect(loose.sent[0]).toBe('GET /api/v1/tasks?status=open&overdue=true&limit=50&offset=0');
    expect(ws.requests()[0]!.url).toBe('/api/v1/tasks?limit=50&offset=0');
    expect(allTasks().length).toBeGreaterThan(expected.length);
  });

  it('week --sort due: the open tasks due today to 6 days on, soonest first', async () => {
    ws.api('POST', '/tasks', { title: 'In six days', due_date: day('+6d') });
    ws.api('POST', '/tasks', { title: 'In seven days', due_date: day('+7d') });
    const expected = allTasks().filter((task) => task.status === 'open' && task.due_date >= day('today') && task.due_date <= day('+6d'));
    const result = await run(['tasks', 'list', '--due', 'week', '--sort', 'due', '--all', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const got = json(result);
    expect(new Set(ids(got))).toEqual(new Set(ids(expected)));
    const dues = got.map((task: any) => task.due_date);
    expect(dues).toEqual([...dues].sort());
    expect(dues).toContain(day('+6d'));
    expect(dues).not.toContain(day('+7d'));
  });

  it('DATE..DATE with an open end, and a single day; --status chooses other tasks than the open ones', async () => {
    const far = ws.api('POST', '/tasks', { title: 'Far out', due_date: '2099-06-15' }).data;
    const farDone = ws.api('POST', '/tasks', { title: 'Far out, done', due_date: '2099-06-16', status: 'completed' }).data;
    const from = await run(['tasks', 'list', '--due', '2099-01-01..', '--all', '-q'], { ws });
    expect(lines(from.stdout)).toEqual([far.id]);
    const completed = await run(['tasks', 'list', '--due', '..2099-12-31', '--status', 'completed', '--all', '-q'], { ws });
    expect(lines(completed.stdout)).toContain(farDone.id);
    expect(lines(completed.stdout)).not.toContain(far.id);
    const one = await run(['tasks', 'list', '--due', '2099-06-15', '-q'], { ws });
    expect(lines(one.stdout)).toEqual([far.id]);
    expect(ws.requests().map((request) => request.url)).toContain('/api/v1/tasks?status=completed&limit=50&offset=0');
  });

  it('--contact-id takes the contact\'s email: it is looked up first, then the walk asks for its tasks', async () => {
    const contact = ws.api('GET', '/contacts?limit=1').data.contacts[0];
    const mine = ws.api('POST', '/tasks', { title: 'Mine, due today', due_date: day('today'), contact_id: contact.id }).data;
    const result = await run(['tasks', 'list', '--due', 'today', '--contact-id', contact.email.toUpperCase(), '-q'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([mine.id]);
    expect(ws.requests().map((request) => request.url)).toEqual([`/api/v1/contacts?search=${encodeURIComponent(contact.email.toUpperCase())}&limit=50&offset=0`, `/api/v1/tasks?contact_id=${contact.id}&status=open&limit=50&offset=0`]);
  });

  it('--limit N: the first N tasks due, and no page read past them', async () => {
    for (let index = 0; index < 3; index++) ws.api('POST', '/tasks', { title: `Soon ${index}`, due_date: day('+1d') });
    const result = await run(['tasks', 'list', '--due', 'week', '--limit', '2', '-q'], { ws });
    expect(lines(result.stdout)).toHaveLength(2);
    expect(ws.requests()).toHaveLength(1);
  });

  it('--sort due without --due reads every task the filters select and sorts them', async () => {
    const expected = allTasks().filter((task) => task.priority === 'high');
    const result = await run(['tasks', 'list', '--sort', 'due', '--priority', 'high', '--limit', '5', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const soonest = [...expected].sort((a, b) => (a.due_date === b.due_date ? 0 : a.due_date === null ? 1 : b.due_date === null ? -1 : a.due_date < b.due_date ? -1 : 1));
    expect(ids(json(result))).toEqual(ids(soonest.slice(0, 5)));
    expect(ws.requests()[0]!.url).toBe('/api/v1/tasks?priority=high&limit=50&offset=0');
  });

  it('on a terminal: a table, and stderr says crm filtered the list', async () => {
    ws.api('POST', '/tasks', { title: 'Table today', due_date: day('today') });
    const result = await run(['tasks', 'list', '--due', 'today', '--no-color'], { ws, tty: { stdout: true, stderr: true, columns: 120 } });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^ID\s+TITLE\s+DUE_DATE\s+STATUS/);
    expect(result.stdout).toContain('Table today');
    expect(result.stderr).toContain('Filtered by due date by crm: the service has no due-date filter.');
  });

  it('--dry-run plans the walk it would start', async () => {
    const result = await run(['tasks', 'list', '--due', 'overdue', '--dry-run'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('GET http://127.0.0.1:9/api/v1/tasks?status=open&overdue=true&limit=50&offset=0');
    expect(ws.requests()).toHaveLength(0);
  });

  it.each([
    [['--due', 'someday'], 'invalid --due "someday" (expected overdue, today, week, a date or DATE..DATE; dates as YYYY-MM-DD, today, tomorrow, +Nd or +Nw)'],
    [['--due', '2025-05-10..2025-05-01'], 'invalid --due "2025-05-10..2025-05-01": the range ends before it starts'],
    [['--due', '..'], 'invalid --due ".."'],
    [['--due', 'today..2025-02-30'], 'invalid --due "2025-02-30"'],
    [['--due', 'a..b..c'], 'invalid --due "a..b..c"'],
    [['--sort', 'name'], 'invalid --sort "name" (expected one of: due)'],
    [['--due', 'today', '--offset', '5'], '--offset cannot be used with --due'],
    [['--due', 'today', '--overdue'], '--due and --overdue cannot be used together'],
  ])('%j is exit 2, naming what is wrong, and sends nothing', async (flags, message) => {
    const result = await run(['tasks', 'list', ...flags], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(ws.log).toHaveLength(0);
  });
});

describe('date flags read "today" from the injected clock, in the zone crm decides days in', () => {
  // 11:30 UTC on 15 January 2030: already the 16th in Auckland (UTC+13), still the 15th in Los Angeles (UTC-8).
  const aucklandMorning = Date.parse('2030-01-15T11:30:00Z');
  // 07:30 UTC on 16 January 2030: 23:30 on the 15th in Los Angeles, 20:30 on the 16th in Auckland.
  const losAngelesNight = Date.parse('2030-01-16T07:30:00Z');

  it.each([
    ['Pacific/Auckland', aucklandMorning, 'today', '2030-01-16'],
    ['Pacific/Auckland', aucklandMorning, 'tomorrow', '2030-01-17'],
    ['America/Los_Angeles', losAngelesNight, 'today', '2030-01-15'],
    ['America/Los_Angeles', losAngelesNight, '+3d', '2030-01-18'],
  ])('tasks create --due in %s: %s', async (timeZone, now, given, sent) => {
    const result = await run(['tasks', 'create', '--title', 'Call back', '--due', given, '--json'], { ws, now, timeZone });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(ws.requests()[0]!.body).due_date).toBe(sent);
  });

  it('deals update --close-date and contacts tasks add --due, with --dry-run too', async () => {
    const deal = ws.api('GET', '/deals?limit=1').data.deals[0];
    const contact = ws.api('GET', '/contacts?limit=1').data.contacts[0];
    const options = { ws, now: losAngelesNight, timeZone: 'America/Los_Angeles' };
    const updated = await run(['deals', 'update', deal.id, '--close-date', '+1w', '--json'], options);
    expect(updated.code, updated.stderr).toBe(0);
    expect(json(updated).close_date).toBe('2030-01-22');
    const planned = await run(['contacts', 'tasks', 'add', contact.id, '--title', 'Follow up', '--due', 'tomorrow', '--dry-run'], { ...options, timeZone: 'Pacific/Auckland' });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('"due_date": "2030-01-17"');
  });
});

describe('due dates sent as epoch numbers', () => {
  // 07:30 UTC on 16 January 2030: 23:30 on the 15th in Los Angeles, 20:30 on the 16th in Auckland.
  const now = Date.parse('2030-01-16T07:30:00Z');
  const tasks = [
    { id: 't_ms', title: 'Milliseconds', status: 'open', due_date: Date.parse('2030-01-16T05:00:00Z') },
    { id: 't_text', title: 'Text', status: 'open', due_date: '2030-01-15' },
    { id: 't_s', title: 'Seconds', status: 'open', due_date: Date.parse('2030-01-16T09:00:00Z') / 1000 },
  ];
  // The first page; a walk's pages in flight after it are the sandbox's, left unread after a short first page.
  const served = () => ws.fault({ match: /^GET \/api\/v1\/tasks(?!.*offset=[1-9])/, status: 200, body: JSON.stringify({ data: { tasks, total: tasks.length }, error: null }) });

  it.each([
    // 05:00 UTC on the 16th is the 15th in Los Angeles (21:00), the 16th in Auckland (18:00); 09:00 UTC the 16th in both (01:00, 22:00).
    ['America/Los_Angeles', 'today', ['t_ms', 't_text']],
    ['America/Los_Angeles', 'tomorrow', ['t_s']],
    ['Pacific/Auckland', 'today', ['t_ms', 't_s']],
  ])('tasks list --due in %s, %s: each on the day it falls on there', async (timeZone, due, expected) => {
    served();
    const result = await run(['tasks', 'list', '--due', due as string, '--json'], { ws, now, timeZone });
    expect(result.code, result.stderr).toBe(0);
    expect(ids(json(result)).sort()).toEqual(expected);
  });

  it('--sort due orders them with dates sent as text, and a terminal shows such a due date as a time, not a count', async () => {
    served();
    const sorted = await run(['tasks', 'list', '--sort', 'due', '--json'], { ws, now, timeZone: 'Pacific/Auckland' });
    expect(sorted.code, sorted.stderr).toBe(0);
    expect(ids(json(sorted))).toEqual(['t_text', 't_ms', 't_s']);
    served();
    const table = await run(['tasks', 'list', '--no-color'], { ws, now, timeZone: 'Pacific/Auckland', tty: { stdout: true, stderr: true, columns: 160 } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).not.toMatch(/1,894,|1,\d{3},\d{3},\d{3}/);
    expect(table.stdout).toMatch(/t_ms .*2 hours ago/);
  });
});
