// crm status: the day at a glance. Each part is checked against the workspace read directly; the
// request log shows what was sent, a held transport that every part's request was sent before the
// first was answered, a workspace that ignores the assumed filters that crm checks what comes back.
import { describe, expect, it } from 'vitest';
import { parseDate } from '../../src/cli/input.js';
import { PART_READ_MAX } from '../../src/registry/local.js';
import { json, openWorkspace, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';
import { holding, ignoring } from '../helpers/transports.js';

const ws = useWorkspace();

const day = (relative: string) => parseDate(relative, 'test', new Date());

/** Every record of a list, newest first, read directly. */
function all(workspace: Workspace, plural: string, key = plural): any[] {
  const records: any[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = workspace.api('GET', `/${plural}?limit=50&offset=${offset}`).data[key];
    records.push(...page);
    if (page.length < 50) return records;
  }
}

const ids = (records: any[]) => records.map((record) => record.id);
const sortedIds = (records: any[]) => ids(records).sort();

/** The parts as crm should find them, from the workspace read whole. */
function expectedParts(workspace: Workspace) {
  const open = all(workspace, 'tasks').filter((task) => task.status === 'open' && task.due_date);
  const since = Date.now() - 7 * 86_400_000;
  return {
    overdue: open.filter((task) => task.due_date < day('today')),
    today: open.filter((task) => task.due_date === day('today')),
    week: open.filter((task) => task.due_date >= day('tomorrow') && task.due_date <= day('+6d')),
    closing: all(workspace, 'deals').filter((deal) => deal.status === 'open' && deal.close_date >= day('today') && deal.close_date <= day('+14d')),
    suggestions: all(workspace, 'ai/suggestions', 'suggestions'),
    // A minute's slack either side of the 7 days: the test and crm read the clock at different times.
    fresh: all(workspace, 'contacts').filter((contact) => Date.parse(contact.created_at) >= since + 60_000),
    freshMost: all(workspace, 'contacts').filter((contact) => Date.parse(contact.created_at) >= since - 60_000),
  };
}

const FIRST_REQUESTS = [
  'GET /api/v1/pipeline/stages?limit=50&offset=0',
  'GET /api/v1/tasks?status=open&overdue=true&limit=50',
  'GET /api/v1/tasks?status=open&limit=50&offset=0',
  'GET /api/v1/deals?status=open&limit=50&offset=0',
  'GET /api/v1/ai/suggestions?limit=50',
  'GET /api/v1/contacts?limit=50&offset=0',
];

describe('crm status', () => {
  it('--json: one object with every part, each counted, its first records soonest due, and what crm filtered itself', async () => {
    ws.api('POST', '/tasks', { title: 'Due today', due_date: day('today') });
    ws.api('POST', '/tasks', { title: 'Due in a week', due_date: day('+7d') });
    const expected = expectedParts(ws);
    const result = await run(['status', '--json', '--limit', '50'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const status = json(result);
    expect(status.today).toBe(day('today'));
    expect(sortedIds(status.tasks_overdue.records)).toEqual(sortedIds(expected.overdue));
    expect(status.tasks_overdue).toMatchObject({ count: expected.overdue.length, complete: true, filtered_locally: false });
    expect(sortedIds(status.tasks_due_today.records)).toEqual(sortedIds(expected.today));
    expect(status.tasks_due_today.count).toBeGreaterThan(0);
    expect(sortedIds(status.tasks_due_this_week.records)).toEqual(sortedIds(expected.week));
    expect(status.tasks_due_this_week).toMatchObject({ from: day('tomorrow'), to: day('+6d'), complete: true, filtered_locally: true });
    const dues = status.tasks_due_this_week.records.map((task: any) => task.due_date);
    expect(dues).toEqual([...dues].sort());
    expect(sortedIds(status.deals_closing.records)).toEqual(sortedIds(expected.closing));
    expect(status.deals_closing.count).toBeGreaterThan(0);
    expect(sortedIds(status.suggestions.records)).toEqual(sortedIds(expected.suggestions));
    expect(status.suggestions).toMatchObject({ count: expected.suggestions.length, filtered_locally: false });
    for (const contact of expected.fresh) expect(ids(status.contacts_new.records)).toContain(contact.id);
    for (const id of ids(status.contacts_new.records)) expect(ids(expected.freshMost)).toContain(id);
    expect(status.filtered_locally).toEqual(['tasks_due_today', 'tasks_due_this_week', 'deals_closing', 'contacts_new']);
    expect(status.errors).toBeUndefined();
    expect(result.stderr).toMatch(/^Filtered by crm \(the service has no such filter\): tasks due today and this week \(from the \d+ open tasks\), deals closing \(from the \d+ open deals\), new contacts \(from the \d+ newest contacts\)\.\n$/);
    expect(ws.requests().map((request) => `${request.method} ${request.url}`).sort()).toEqual([...FIRST_REQUESTS].sort());
  });

  it('deals closing: by stage, in pipeline order, with value and weighted value by the stage probability', async () => {
    const proposal = ws.api('POST', '/deals', { name: 'Soon A', amount: 10000, stage: 'proposal', close_date: day('+3d') }).data;
    ws.api('POST', '/deals', { name: 'Soon B', amount: 30000, stage: 'proposal', close_date: day('+14d') });
    ws.api('POST', '/deals', { name: 'Soon C', amount: 4000, stage: 'prospecting', close_date: day('today') });
    ws.api('POST', '/deals', { name: 'Too late', amount: 99999, stage: 'proposal', close_date: day('+15d') });
    ws.api('POST', '/deals', { name: 'Won already', amount: 99999, stage: 'closed_won', close_date: day('+2d') });
    const closing = expectedParts(ws).closing;
    const status = json(await run(['status', '--json'], { ws }));
    const stages = ws.api('GET', '/pipeline/stages').data.stages as any[];
    const rows = stages
      .map((stage) => {
        const deals = closing.filter((deal) => deal.stage === stage.id);
        const value = deals.reduce((sum, deal) => sum + deal.amount, 0);
        return { stage: stage.id, name: stage.name, probability: stage.probability, currency: 'USD', count: deals.length, value, weighted_value: Math.round(value * stage.probability) / 100 };
      })
      .filter((row) => row.count > 0);
    expect(status.deals_closing.by_stage).toEqual(rows);
    expect(status.deals_closing.by_stage.find((row: any) => row.stage === 'proposal').count).toBeGreaterThanOrEqual(2);
    expect(status.deals_closing.records.length).toBeLessThanOrEqual(5);
    expect(status.deals_closing.count).toBe(closing.length);
    expect(ids(closing)).toContain(proposal.id);
    const closes = status.deals_closing.records.map((deal: any) => deal.close_date);
    expect(closes).toEqual([...closes].sort());
  });

  it('sends every part\'s request before the first is answered', async () => {
    const held = holding(ws);
    const running = run(['status', '--json'], { ws: held });
    await held.untilHeld(FIRST_REQUESTS.length);
    expect([...held.held()].sort()).toEqual([...FIRST_REQUESTS].sort());
    held.release();
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).tasks_overdue.count).toBeGreaterThan(0);
  });

  it('checks what comes back: a workspace that ignores the status and overdue filters gives the same parts, and stderr says crm filtered them', async () => {
    const loose = ignoring(ws, ['status', 'overdue']);
    const strict = json(await run(['status', '--json'], { ws }));
    const result = await run(['status', '--json'], { ws: loose });
    expect(result.code, result.stderr).toBe(0);
    const status = json(result);
    for (const part of ['tasks_overdue', 'tasks_due_today', 'tasks_due_this_week', 'deals_closing', 'suggestions']) {
      expect({ part, records: ids(status[part].records), count: status[part].count }).toEqual({ part, records: ids(strict[part].records), count: strict[part].count });
    }
    expect(status.tasks_overdue.filtered_locally).toBe(true);
    expect(status.filtered_locally).toContain('tasks_overdue');
    expect(result.stderr).toMatch(/Filtered by crm \(the service has no such filter\): overdue tasks \(from the \d+ open tasks\), /);
    // The overdue part asked for one page, found tasks that were not overdue in it, and read the list.
    const overdueRequests = loose.sent.filter((request) => request.includes('overdue=true'));
    expect(overdueRequests.slice(0, 2)).toEqual(['GET /api/v1/tasks?status=open&overdue=true&limit=50', 'GET /api/v1/tasks?status=open&overdue=true&limit=50&offset=0']);
  });

  it('a task due on crm\'s today that the service, its day already the next, calls overdue is shown as due today', async () => {
    // crm's clock two days back: whatever the machine's time zone, its today is before the service's
    // UTC day, as in Los Angeles every afternoon; the service's overdue filter then holds today's task.
    const now = Date.now() - 2 * 86_400_000;
    const today = parseDate('today', 'test', new Date(now));
    const task = ws.api('POST', '/tasks', { title: 'Due on our today', due_date: today }).data;
    expect(ids(ws.api('GET', '/tasks?status=open&overdue=true&limit=50').data.tasks)).toContain(task.id);
    const result = await run(['status', '--json'], { ws, now });
    expect(result.code, result.stderr).toBe(0);
    const status = json(result);
    expect(status.today).toBe(today);
    expect(ids(status.tasks_due_today.records)).toContain(task.id);
    expect(ids(status.tasks_overdue.records)).not.toContain(task.id);
  });

  it(`reads at most ${PART_READ_MAX} records of a list the service cannot select from, and says the part may be missing some`, async () => {
    const big = await openWorkspace();
    try {
      const early = big.api('POST', '/tasks', { title: 'Created first, due tomorrow', due_date: day('tomorrow') }).data;
      for (let index = 0; index < PART_READ_MAX; index++) big.api('POST', '/tasks', { title: `Filler ${index}`, due_date: '2099-01-01' });
      const result = await run(['status', '--json'], { ws: big });
      expect(result.code, result.stderr).toBe(0);
      const status = json(result);
      expect(status.tasks_due_this_week).toMatchObject({ complete: false, read: PART_READ_MAX });
      expect(ids(status.tasks_due_this_week.records)).not.toContain(early.id);
      const open = all(big, 'tasks').filter((task) => task.status === 'open').length;
      expect(result.stderr).toContain(`crm: warning: tasks due today and this week: crm read the ${PART_READ_MAX} newest open tasks of ${open} and no more; there may be others.`);
      // The walk's pages (each overlaps the one before by two records), none asking for more than 50.
      const pages = big.requests(/tasks\?status=open&limit=/);
      expect(pages).toHaveLength(1 + Math.ceil((PART_READ_MAX - 50) / 48));
      for (const page of pages) expect(Number(/limit=(\d+)/.exec(page.url)![1])).toBeLessThanOrEqual(50);
    } finally {
      big.close();
    }
  });

  it('on a terminal: one screen of titled parts, at most --limit records each, with a count of the rest', async () => {
    const overdue = expectedParts(ws).overdue.length;
    expect(overdue).toBeGreaterThan(2);
    const result = await run(['status', '--limit', '2', '--no-color'], { ws, tty: { stdout: true, stderr: true, columns: 100 } });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toContain(`Overdue tasks (${overdue})\nID`);
    expect(out).toContain(`…and ${overdue - 2} more: crm tasks list --due overdue --sort due\n`);
    for (const title of ['Due today (', `Due this week, ${day('tomorrow')} to ${day('+6d')} (`, `Deals closing by ${day('+14d')} (`, 'Closing, by stage\nNAME', 'Pending AI suggestions (', 'New contacts since ']) expect(out).toContain(title);
    expect(out).toMatch(/Total [\d,]+ USD, weighted [\d,.]+\n/);
    const overdueBlock = out.slice(out.indexOf('Overdue tasks'), out.indexOf('…and'));
    expect(overdueBlock.trim().split('\n')).toHaveLength(4);
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(result.stderr).toContain('Filtered by crm');
  });

  it('on a terminal: the new contacts\' title names the local day the 7 days began, not the UTC one', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      // 16:30 on the 25th in Los Angeles, 00:30 on the 26th in UTC: the 7 days began on the 18th there.
      const result = await run(['status', '--no-color'], { ws, tty: { stdout: true, stderr: true, columns: 100 }, now: Date.parse('2026-11-26T00:30:00Z') });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('\nNew contacts since 2026-11-18 (');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  describe('"today" is the user\'s day, in their time zone, at its boundaries (the service\'s day is UTC\'s)', () => {
    // A task due on the 26th (Y) and one due on the 27th (T), seen from Auckland (UTC+13 in November)
    // and New York (UTC-5) just before and at local midnight, and in Auckland at 08:00 on the 27th.
    it.each([
      ['Pacific/Auckland', '2026-11-26T10:59:59.999Z', '2026-11-26', true, 'today', 'week'],
      ['Pacific/Auckland', '2026-11-26T11:00:00.000Z', '2026-11-27', false, 'overdue', 'today'],
      ['Pacific/Auckland', '2026-11-26T19:00:00.000Z', '2026-11-27', false, 'overdue', 'today'],
      ['America/New_York', '2026-11-27T04:59:59.999Z', '2026-11-26', true, 'today', 'week'],
      ['America/New_York', '2026-11-27T05:00:00.000Z', '2026-11-27', true, 'overdue', 'today'],
    ] as const)('%s at %s: today is %s', async (timeZone, at, today, asksService, yesterdayTask, todayTask) => {
      const local = await openWorkspace();
      try {
        const y = local.api('POST', '/tasks', { title: 'Due on the 26th', due_date: '2026-11-26' }).data;
        const t = local.api('POST', '/tasks', { title: 'Due on the 27th', due_date: '2026-11-27' }).data;
        const utcDay = at.slice(0, 10);
        if (asksService) {
          // The answer of a service whose day is UTC's at that instant: open tasks due before it.
          const tasks = all(local, 'tasks').filter((task) => task.status === 'open' && task.due_date && task.due_date < utcDay);
          local.fault({ match: /^GET \/api\/v1\/tasks\?status=open&overdue=true&limit=50$/, status: 200, body: JSON.stringify({ data: { tasks, total: tasks.length }, error: null }) });
        }
        const result = await run(['status', '--json', '--limit', '50'], { ws: local, now: Date.parse(at), timeZone });
        expect(result.code, result.stderr).toBe(0);
        const status = json(result);
        expect(status.today).toBe(today);
        // East of UTC with the user's day ahead of UTC's, the service is not asked which tasks are overdue: crm chooses them.
        expect(local.requests(/overdue=true/).length > 0).toBe(asksService);
        const where = (task: { id: string }) => (['tasks_overdue', 'tasks_due_today', 'tasks_due_this_week'] as const).filter((part) => ids(status[part].records).includes(task.id));
        const name = { overdue: 'tasks_overdue', today: 'tasks_due_today', week: 'tasks_due_this_week' } as const;
        expect(where(y)).toEqual([name[yesterdayTask]]);
        expect(where(t)).toEqual([name[todayTask]]);
        expect(status.tasks_overdue.count).toBe(status.tasks_overdue.records.length);
        local.verifyFaults();
      } finally {
        local.close();
      }
    });
  });

  it('contacts whose created_at is an epoch number (seconds or milliseconds) are new when created in the last 7 days, and the read stops at the first older one', async () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const contacts = [
      { id: 'con_epoch_s', name: 'Seconds', email: 's@example.com', created_at: Math.floor(now / 1000) - 3600 },
      { id: 'con_epoch_ms', name: 'Milliseconds', email: 'ms@example.com', created_at: now - 2 * 86_400_000 },
      { id: 'con_epoch_old', name: 'Old', email: 'old@example.com', created_at: Math.floor(now / 1000) - 30 * 86_400 },
    ];
    ws.fault({ match: /^GET \/api\/v1\/contacts\?limit=50&offset=0$/, status: 200, body: JSON.stringify({ data: { contacts, total: 3 }, error: null }) });
    const result = await run(['status', '--json'], { ws, now });
    expect(result.code, result.stderr).toBe(0);
    const fresh = json(result).contacts_new;
    expect(ids(fresh.records)).toEqual(['con_epoch_s', 'con_epoch_ms']);
    expect(fresh).toMatchObject({ count: 2, complete: true, read: 3 });
    // On a terminal such a created_at is a time (1 hour ago), not a count (1,795,...).
    ws.fault({ match: /^GET \/api\/v1\/contacts(\?|$)/, status: 200, body: JSON.stringify({ data: { contacts, total: 3 }, error: null }) });
    const table = await run(['contacts', 'list', '--no-color'], { ws, now, tty: { stdout: true, stderr: true, columns: 120 } });
    expect(table.stdout).toContain('con_epoch_s');
    expect(table.stdout).toMatch(/con_epoch_s .* 1 hour ago/);
    expect(table.stdout).not.toContain('1,795,');
  });

  it('into a pipe: one record as key<TAB>value lines', async () => {
    const result = await run(['status'], { ws });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe(`today\t${day('today')}`);
    expect(lines).toContainEqual(expect.stringMatching(/^tasks_overdue\.count\t\d+$/));
    expect(lines).toContainEqual('filtered_locally\t["tasks_due_today","tasks_due_this_week","deals_closing","contacts_new"]');
  });

  it('a part the key may not read is said in its place, the others shown, exit 7', async () => {
    ws.fault({ match: /ai\/suggestions/, status: 403, body: JSON.stringify({ data: null, error: 'Missing scope ai:read' }) });
    const result = await run(['status', '--json'], { ws });
    expect(result.code).toBe(7);
    const status = json(result);
    expect(status).toHaveProperty('suggestions', null);
    expect(status.errors).toEqual([{ part: 'suggestions', message: 'Missing scope ai:read', status: 403 }]);
    expect(status.tasks_overdue.count).toBeGreaterThan(0);
    expect(result.stderr).toContain('crm: crm status: some parts could not be read: suggestions (Missing scope ai:read)');
  });

  it('a part the service fails (500 after the retries, a timeout, a 400 for a filter it refuses) is said in its place, the others shown, exit 7', async () => {
    ws.fault({ match: /ai\/suggestions/, status: 500, times: Infinity, body: JSON.stringify({ data: null, error: 'AI service unavailable' }) });
    ws.fault({ match: /^GET \/api\/v1\/contacts\?/, network: { code: 'ETIMEDOUT', delivered: true }, times: Infinity });
    ws.fault({ match: /overdue=true/, status: 400, body: JSON.stringify({ data: null, error: 'Unknown parameter: overdue' }) });
    const result = await run(['status', '--json'], { ws, now: Date.parse('2026-11-26T12:00:00Z'), timeZone: 'UTC' });
    expect(result.code, result.stderr).toBe(7);
    const status = json(result);
    expect(status.errors.map((failure: { part: string; status?: number }) => [failure.part, failure.status])).toEqual([['tasks_overdue', 400], ['suggestions', 500], ['contacts_new', undefined]]);
    expect(status.errors[1].message).toBe('AI service unavailable');
    // Each failed part is there, null: the keys are the same whatever failed; errors says which failed.
    expect(status).toHaveProperty('suggestions', null);
    expect(status).toHaveProperty('contacts_new', null);
    expect(status).toHaveProperty('tasks_overdue', null);
    expect(status.tasks_due_today.complete).toBe(true);
    expect(status.deals_closing.count).toBeGreaterThan(0);
    expect(result.stderr).toContain('crm: crm status: some parts could not be read: tasks overdue (Unknown parameter: overdue); suggestions (AI service unavailable); contacts new (');
  });

  it('a service that fails every part fails the command as the first part did (not exit 7 with nothing to show)', async () => {
    ws.fault({ network: { code: 'ECONNRESET', delivered: true }, times: Infinity });
    const result = await run(['status', '--json'], { ws });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('"code":"econnreset"');
  });

  it('a workspace whose stage ids are numbers: deals closing are named and weighted by their stage, and one in a closed stage is left out', async () => {
    const stages = [
      { id: 1, name: 'Discovery', probability: 20, is_closed: false },
      { id: 2, name: 'Won', probability: 100, is_closed: true },
    ];
    const deals = [
      { id: 10, name: 'Open one', amount: 1000, currency: 'USD', stage: 1, close_date: day('+2d') },
      { id: 11, name: 'Won one', amount: 5000, currency: 'USD', stage: 2, close_date: day('+3d') },
    ];
    ws.fault({ match: /^GET \/api\/v1\/pipeline\/stages/, status: 200, body: JSON.stringify({ data: { stages, total: 2 }, error: null }) });
    ws.fault({ match: /^GET \/api\/v1\/deals\?/, status: 200, body: JSON.stringify({ data: { deals, total: 2 }, error: null }) });
    const result = await run(['status', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const status = json(result);
    expect(ids(status.deals_closing.records)).toEqual([10]);
    expect(status.deals_closing.by_stage).toEqual([{ stage: '1', name: 'Discovery', probability: 20, currency: 'USD', count: 1, value: 1000, weighted_value: 200 }]);
  });

  it('a workspace that writes numbers as text: a stage\'s probability "0.2" and a deal\'s amount "1000.50" are weighed as numbers', async () => {
    const stages = [
      { id: 'disc', name: 'Discovery', probability: '0.2', is_closed: false },
      { id: 'neg', name: 'Negotiation', probability: '0.75', is_closed: false },
    ];
    const deals = [{ id: 'd1', name: 'Text amounts', amount: '1000.50', currency: 'USD', stage: 'disc', status: 'open', close_date: day('+2d') }];
    ws.fault({ match: /^GET \/api\/v1\/pipeline\/stages/, status: 200, body: JSON.stringify({ data: { stages, total: '2' }, error: null }) });
    ws.fault({ match: /^GET \/api\/v1\/deals\?/, status: 200, body: JSON.stringify({ data: { deals, total: '1' }, error: null }) });
    const result = await run(['status', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).deals_closing.by_stage).toEqual([{ stage: 'disc', name: 'Discovery', probability: 20, currency: 'USD', count: 1, value: 1000.5, weighted_value: 200.1 }]);
  });

  it('a workspace that sends due and close dates as epoch numbers (seconds or milliseconds): each is on the day it falls on in the user\'s zone, as a timestamp\'s text is', async () => {
    // 19:30 UTC on the 26th: 08:30 on the 27th in Auckland.
    const now = Date.parse('2026-11-26T19:30:00Z');
    const seconds = (iso: string) => Date.parse(iso) / 1000;
    const tasks = [
      { id: 't_overdue', title: 'Yesterday in Auckland', status: 'open', due_date: seconds('2026-11-26T09:00:00Z') },
      { id: 't_today', title: 'Today in Auckland', status: 'open', due_date: Date.parse('2026-11-26T20:00:00Z') },
      { id: 't_week', title: 'In three days', status: 'open', due_date: seconds('2026-11-29T20:00:00Z') },
    ];
    const deals = [{ id: 'd_epoch', name: 'Closing', amount: 100, currency: 'USD', stage: 'proposal', status: 'open', close_date: seconds('2026-12-01T00:00:00Z') }];
    ws.fault({ match: /^GET \/api\/v1\/tasks\?/, status: 200, times: Infinity, body: JSON.stringify({ data: { tasks, total: 3 }, error: null }) });
    ws.fault({ match: /^GET \/api\/v1\/deals\?/, status: 200, body: JSON.stringify({ data: { deals, total: 1 }, error: null }) });
    const result = await run(['status', '--json'], { ws, now, timeZone: 'Pacific/Auckland' });
    expect(result.code, result.stderr).toBe(0);
    const status = json(result);
    expect(status.today).toBe('2026-11-27');
    expect(ids(status.tasks_overdue.records)).toEqual(['t_overdue']);
    expect(ids(status.tasks_due_today.records)).toEqual(['t_today']);
    expect(ids(status.tasks_due_this_week.records)).toEqual(['t_week']);
    expect(ids(status.deals_closing.records)).toEqual(['d_epoch']);
    // Keys as the service sent them: the numbers are printed as numbers.
    expect(status.tasks_due_today.records[0].due_date).toBe(Date.parse('2026-11-26T20:00:00Z'));
  });

  it('a workspace whose tasks and suggestions carry no status (missing or null): a task is open unless it has a completion time, a suggestion pending', async () => {
    const tasks = [
      { id: 't_missing', title: 'No status', due_date: day('today') },
      { id: 't_null', title: 'Null status', status: null, completed_at: null, due_date: day('tomorrow') },
      { id: 't_done', title: 'Done', status: null, completed_at: '2026-11-01T10:00:00Z', due_date: day('today') },
    ];
    const suggestions = [{ id: 's_null', title: 'Call back', status: null }];
    ws.fault({ match: /^GET \/api\/v1\/tasks\?/, status: 200, times: Infinity, body: JSON.stringify({ data: { tasks, total: 3 }, error: null }) });
    ws.fault({ match: /^GET \/api\/v1\/ai\/suggestions/, status: 200, body: JSON.stringify({ data: { suggestions, total: 1 }, error: null }) });
    const result = await run(['status', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const status = json(result);
    expect(ids(status.tasks_due_today.records)).toEqual(['t_missing']);
    expect(ids(status.tasks_due_this_week.records)).toEqual(['t_null']);
    expect(ids(status.suggestions.records)).toEqual(['s_null']);
    const listed = await run(['tasks', 'list', '--due', 'week', '-q'], { ws });
    expect(listed.stdout.trim().split('\n')).toEqual(['t_missing', 't_null']);
  });

  it('a key the service refuses fails the whole command', async () => {
    const result = await run(['status'], { ws, env: { ...process.env, HOME: ws.home, CRM_BASE_URL: 'http://127.0.0.1:9/api/v1', CRM_API_KEY: 'sbx_test_wrong' } });
    expect(result.code).toBe(3);
  });

  it('--dry-run plans every part\'s request and sends none', async () => {
    const result = await run(['status', '--dry-run'], { ws });
    expect(result.code).toBe(0);
    for (const request of FIRST_REQUESTS) expect(result.stdout).toContain(request.replace('GET /api/v1', 'GET http://127.0.0.1:9/api/v1'));
    expect(ws.log).toHaveLength(0);
  });

  it.each([
    [['--limit', '0'], 'invalid --limit "0" (expected an integer between 1 and 50)'],
    [['--limit', '51'], 'invalid --limit "51" (expected an integer between 1 and 50)'],
    [['--fields', 'tasks'], 'unknown field "tasks" for crm status'],
  ])('%j is exit 2 and sends nothing', async (flags, message) => {
    const result = await run(['status', ...flags], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(ws.log).toHaveLength(0);
  });
});
