import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Json, type TestSandbox } from './helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

describe('GET /pipeline/stages', () => {
  it('lists the six stages in position order', async () => {
    const { status, body } = await sb.api('GET', '/pipeline/stages');
    expect(status).toBe(200);
    expect(body.data.total).toBe(6);
    expect(body.data.stages[0]).toEqual({ id: 'prospecting', name: 'Prospecting', position: 1, probability: 10, is_closed: false, is_won: false });
    expect(body.data.stages.map((stage: Json) => [stage.id, stage.probability])).toEqual([
      ['prospecting', 10],
      ['qualification', 25],
      ['proposal', 50],
      ['negotiation', 75],
      ['closed_won', 100],
      ['closed_lost', 0],
    ]);
    expect(body.data.stages[4]).toMatchObject({ name: 'Closed Won', is_closed: true, is_won: true });
  });
});

describe('the pipeline lists are paged as every list is (limit, offset): they answered every stage whatever limit asked', () => {
  for (const path of ['/pipeline/stages', '/pipeline/deals']) {
    it(path, async () => {
      const ids = (query: string) => sb.api('GET', `${path}?${query}`).then(({ status, body }) => ({ status, ids: body.data?.stages.map((stage: Json) => stage.id), total: body.data?.total, error: body.error }));
      expect(await ids('limit=2')).toEqual({ status: 200, ids: ['prospecting', 'qualification'], total: 6, error: null });
      expect(await ids('limit=2&offset=4')).toEqual({ status: 200, ids: ['closed_won', 'closed_lost'], total: 6, error: null });
      expect(await ids('offset=6')).toEqual({ status: 200, ids: [], total: 6, error: null });
      expect((await ids('limit=0')).status).toBe(400);
      expect((await ids('offset=-1')).error).toBe('offset must be an integer of 0 or more');
    });
  }
});

describe('GET /pipeline/deals', () => {
  it('gives every stage with the count and total value of its live deals', async () => {
    const { status, body } = await sb.api('GET', '/pipeline/deals');
    expect(status).toBe(200);
    expect(body.data.total).toBe(6);
    expect(Object.keys(body.data.stages[0])).toEqual(['id', 'name', 'position', 'count', 'total_value']);
    const deals = (await sb.api('GET', '/deals?limit=50')).body.data.deals as Json[];
    for (const stage of body.data.stages) {
      const inStage = deals.filter((deal) => deal.stage === stage.id);
      expect(stage.count).toBe(inStage.length);
      expect(stage.total_value).toBe(inStage.reduce((sum, deal) => sum + deal.amount, 0));
    }
  });

  it('keeps empty stages, with zeros', async () => {
    const empty = await startSandbox({ seed: false });
    try {
      const { body } = await empty.api('GET', '/pipeline/deals');
      expect(body.data.stages).toHaveLength(6);
      expect(body.data.stages.every((stage: Json) => stage.count === 0 && stage.total_value === 0)).toBe(true);
    } finally {
      await empty.close();
    }
  });
});

describe('GET /search', () => {
  it('finds contacts, deals, accounts and tasks, newest first', async () => {
    // One millisecond apart at least, so that newest first has one answer.
    const account = (await sb.api('POST', '/accounts', { name: 'Zephyrine Labs', domain: 'zephyrine.example', industry: 'Research' })).body.data;
    sb.advanceClock(5);
    const contact = (await sb.api('POST', '/contacts', { name: 'Zora Zephyrine', email: 'zora@zephyrine.example' })).body.data;
    sb.advanceClock(5);
    const deal = (await sb.api('POST', '/deals', { name: 'Zephyrine rollout', amount: 12345 })).body.data;
    sb.advanceClock(5);
    const task = (await sb.api('POST', '/tasks', { title: 'Call Zephyrine', due_date: '2031-01-02' })).body.data;

    const { status, body } = await sb.api('GET', '/search?q=ZEPHYRINE');
    expect(status).toBe(200);
    expect(body.data.total).toBe(4);
    expect(body.data.results).toEqual([
      { type: 'task', id: task.id, title: 'Call Zephyrine', subtitle: 'open · due 2031-01-02', created_at: task.created_at },
      { type: 'deal', id: deal.id, title: 'Zephyrine rollout', subtitle: 'Prospecting · open · USD 12,345', created_at: deal.created_at },
      { type: 'contact', id: contact.id, title: 'Zora Zephyrine', subtitle: 'zora@zephyrine.example', created_at: contact.created_at },
      { type: 'account', id: account.id, title: 'Zephyrine Labs', subtitle: 'zephyrine.example · Research', created_at: account.created_at },
    ]);

    const seeded = await sb.api('GET', '/search?q=acme&limit=50');
    const times = seeded.body.data.results.map((result: Json) => result.created_at);
    expect(times.length).toBeGreaterThan(2);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('honours types and paging', async () => {
    const { body } = await sb.api('GET', '/search?q=acme&types=deals,accounts');
    expect(body.data.results.every((result: Json) => result.type === 'deal' || result.type === 'account')).toBe(true);
    const page = await sb.api('GET', '/search?q=a&limit=3&offset=2');
    expect(page.body.data.results).toHaveLength(3);
    expect(page.body.data.total).toBeGreaterThan(5);
  });

  it('requires q and known types', async () => {
    expect((await sb.api('GET', '/search')).body).toEqual({ data: null, error: 'q is required: the text to search for' });
    expect((await sb.api('GET', '/search?q=')).status).toBe(400);
    const badType = await sb.api('GET', '/search?q=a&types=contacts,widgets');
    expect(badType.status).toBe(400);
    expect(badType.body.error).toBe("Unknown type 'widgets'. Valid types: contacts, deals, accounts, tasks");
  });
});

describe('GET /analytics', () => {
  it('rolls up every section with non-trivial figures for 7d, 30d and 90d on the seed', async () => {
    let previous: Json;
    for (const period of ['7d', '30d', '90d']) {
      const { status, body } = await sb.api('GET', `/analytics?period=${period}`);
      expect(status).toBe(200);
      const data = body.data;
      expect(Object.keys(data)).toEqual(['period', 'from', 'to', 'contacts', 'deals', 'emails', 'tasks']);
      expect(data.period).toBe(period);
      expect(Date.parse(data.to) - Date.parse(data.from)).toBe(Number.parseInt(period, 10) * 86_400_000);
      expect(Object.keys(data.contacts.by_status)).toEqual(['lead', 'prospect', 'customer', 'churned']);
      expect(Object.keys(data.deals)).toEqual(['open', 'new', 'won', 'lost', 'won_value', 'open_value', 'win_rate']);
      expect(Object.keys(data.emails)).toEqual(['sent', 'opened', 'replied', 'open_rate', 'reply_rate']);
      expect(Object.keys(data.tasks)).toEqual(['created', 'completed', 'open', 'overdue']);
      for (const figure of [data.contacts.new, data.deals.new, data.deals.won, data.deals.won_value, data.emails.sent, data.emails.opened, data.tasks.created, data.tasks.completed]) {
        expect(figure).toBeGreaterThan(0);
      }
      expect(data.deals.win_rate).toBeGreaterThan(0);
      expect(data.deals.win_rate).toBeLessThanOrEqual(1);
      expect(data.emails.open_rate).toBeCloseTo(data.emails.opened / data.emails.sent, 3);
      if (previous) {
        expect(data.contacts.new).toBeGreaterThanOrEqual(previous.contacts.new);
        expect(data.emails.sent).toBeGreaterThan(previous.emails.sent);
      }
      previous = data;
    }
  });

  it('defaults to 30d and rejects other periods', async () => {
    expect((await sb.api('GET', '/analytics')).body.data.period).toBe('30d');
    expect((await sb.api('GET', '/analytics?period=1y')).body).toEqual({ data: null, error: 'period must be one of: 7d, 30d, 90d' });
    expect((await sb.api('GET', '/analytics?period=constructor')).status).toBe(400);
  });

  it('counts what happens now and leaves deleted contacts out', async () => {
    const before = (await sb.api('GET', '/analytics?period=7d')).body.data;
    const contact = (await sb.api('POST', '/contacts', { name: 'Fresh Lead', email: 'fresh.lead@example.com' })).body.data;
    const deal = (await sb.api('POST', '/deals', { name: 'Fresh deal', amount: 1000 })).body.data;
    await sb.api('POST', `/deals/${deal.id}/stage`, { stage: 'closed_won' });
    const after = (await sb.api('GET', '/analytics?period=7d')).body.data;
    expect(after.contacts.new).toBe(before.contacts.new + 1);
    expect(after.contacts.by_status.lead).toBe(before.contacts.by_status.lead + 1);
    expect(after.deals.new).toBe(before.deals.new + 1);
    expect(after.deals.won).toBe(before.deals.won + 1);
    expect(after.deals.won_value).toBe(before.deals.won_value + 1000);
    await sb.api('DELETE', `/contacts/${contact.id}`);
    expect((await sb.api('GET', '/analytics?period=7d')).body.data.contacts.new).toBe(before.contacts.new);
  });
});
