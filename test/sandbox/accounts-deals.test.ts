import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Json, type TestSandbox } from './helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

const STAGE_IDS = ['prospecting', 'qualification', 'proposal', 'negotiation', 'closed_won', 'closed_lost'];

describe('accounts', () => {
  it('GET /accounts lists seeded accounts newest first, filtered by search and industry', async () => {
    const { status, body } = await sb.api('GET', '/accounts?limit=50');
    expect(status).toBe(200);
    expect(body.data.total).toBe(15);
    expect(Object.keys(body.data.accounts[0])).toEqual(['id', 'name', 'domain', 'industry', 'employees', 'created_at', 'updated_at']);
    const software = await sb.api('GET', '/accounts?industry=software');
    expect(software.body.data.total).toBeGreaterThan(1);
    expect(software.body.data.accounts.every((account: Json) => account.industry === 'Software')).toBe(true);
    const search = await sb.api('GET', '/accounts?search=hooli');
    expect(search.body.data.accounts.map((account: Json) => account.name)).toEqual(['Hooli Cloud']);
  });

  it('POST /accounts creates an account (201) and validates', async () => {
    const { status, body } = await sb.api('POST', '/accounts', { name: 'Contoso', domain: 'contoso.example', industry: 'Retail', employees: 120 });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ name: 'Contoso', domain: 'contoso.example', industry: 'Retail', employees: 120 });
    expect(body.data.id).toMatch(/^acc_[a-z0-9]{16}$/);
    expect((await sb.api('POST', '/accounts', {})).body.error).toBe('name is required');
    expect((await sb.api('POST', '/accounts', { name: 'X', employees: -1 })).body.error).toBe('employees must be an integer of 0 or more, or null');
    expect((await sb.api('POST', '/accounts', { name: 'X', employees: 1.5 })).status).toBe(400);
  });

  it('GET /accounts/{id}, PATCH /accounts/{id} and DELETE /accounts/{id}', async () => {
    const account = (await sb.api('POST', '/accounts', { name: 'Fabrikam' })).body.data;
    expect((await sb.api('GET', `/accounts/${account.id}`)).body).toEqual({ data: account, error: null });

    const patched = await sb.api('PATCH', `/accounts/${account.id}`, { industry: 'Textiles', domain: null });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: account.id, name: 'Fabrikam', industry: 'Textiles', domain: null });
    expect((await sb.api('PATCH', `/accounts/${account.id}`, { id: 'acc_other' })).body.error).toBe('id is read-only');

    const deleted = await sb.api('DELETE', `/accounts/${account.id}`);
    expect(deleted.body).toEqual({ data: { id: account.id, deleted: true }, error: null });
    expect((await sb.api('GET', `/accounts/${account.id}`)).body).toEqual({ data: null, error: 'Account not found' });
    expect((await sb.api('GET', '/accounts?search=Fabrikam')).body.data.total).toBe(0);
  });
});

describe('deals', () => {
  it('GET /deals lists deals with status derived from stage, and filters', async () => {
    const { status, body } = await sb.api('GET', '/deals?limit=50');
    expect(status).toBe(200);
    expect(body.data.total).toBe(25);
    expect(Object.keys(body.data.deals[0])).toEqual([
      'id', 'name', 'amount', 'currency', 'stage', 'status', 'account_id', 'contact_id', 'close_date', 'created_at', 'updated_at',
    ]);
    expect(new Set(body.data.deals.map((deal: Json) => deal.stage))).toEqual(new Set(STAGE_IDS));
    for (const deal of body.data.deals) {
      expect(deal.status).toBe(deal.stage === 'closed_won' ? 'won' : deal.stage === 'closed_lost' ? 'lost' : 'open');
    }
    const won = await sb.api('GET', '/deals?status=won');
    expect(won.body.data.deals.every((deal: Json) => deal.stage === 'closed_won')).toBe(true);
    const byName = await sb.api('GET', '/deals?stage=Closed%20Lost');
    expect(byName.body.data.deals.every((deal: Json) => deal.stage === 'closed_lost')).toBe(true);
    expect((await sb.api('GET', '/deals?stage=nowhere')).status).toBe(400);
    const account = body.data.deals[0].account_id;
    const byAccount = await sb.api('GET', `/deals?account_id=${account}`);
    expect(byAccount.body.data.deals.every((deal: Json) => deal.account_id === account)).toBe(true);
  });

  it('POST /deals creates a deal with defaults, and checks references', async () => {
    const { status, body } = await sb.api('POST', '/deals', { name: 'Small pilot' });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ name: 'Small pilot', amount: 0, currency: 'USD', stage: 'prospecting', status: 'open', contact_id: null, close_date: null });
    expect(body.data.id).toMatch(/^deal_/);

    const full = await sb.api('POST', '/deals', { name: 'Big one', amount: 125000.5, currency: 'eur', stage: 'Proposal', close_date: '2031-03-31' });
    expect(full.body.data).toMatchObject({ amount: 125000.5, currency: 'EUR', stage: 'proposal', close_date: '2031-03-31' });

    expect((await sb.api('POST', '/deals', { name: 'x', amount: -5 })).body.error).toBe('amount must be a number of 0 or more');
    expect((await sb.api('POST', '/deals', { name: 'x', contact_id: 'con_ghost' })).body.error).toBe("contact_id 'con_ghost' does not match any contact");
    expect((await sb.api('POST', '/deals', { name: 'x', status: 'won' })).body.error).toBe('status is read-only');
    expect((await sb.api('POST', '/deals', { name: 'x', stage: 'limbo' })).body.error).toMatch(/^Unknown stage 'limbo'\. Valid stages: prospecting, qualification/);
  });

  it('POST /deals/{id}/stage moves the deal and logs an activity, shown by GET /deals/{id}', async () => {
    const deal = (await sb.api('POST', '/deals', { name: 'Moving deal', amount: 5000 })).body.data;
    const moved = await sb.api('POST', `/deals/${deal.id}/stage`, { stage: 'QUALIFICATION' });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ id: deal.id, stage: 'qualification', status: 'open' });
    const activity = moved.body.data.activity;
    expect(Object.keys(activity)).toEqual(['id', 'deal_id', 'type', 'from_stage', 'to_stage', 'created_at']);
    expect(activity).toMatchObject({ deal_id: deal.id, type: 'stage_change', from_stage: 'prospecting', to_stage: 'qualification' });
    expect(activity.id).toMatch(/^act_/);

    const won = await sb.api('POST', `/deals/${deal.id}/stage`, { stage: 'Closed Won' });
    expect(won.body.data).toMatchObject({ stage: 'closed_won', status: 'won' });

    const { status, body } = await sb.api('GET', `/deals/${deal.id}`);
    expect(status).toBe(200);
    expect(body.data.activities).toEqual([won.body.data.activity, activity]);

    const same = await sb.api('POST', `/deals/${deal.id}/stage`, { stage: 'closed_won' });
    expect(same.status).toBe(409);
    const unknown = await sb.api('POST', `/deals/${deal.id}/stage`, { stage: 'heaven' });
    expect(unknown.body).toEqual({
      data: null,
      error: "Unknown stage 'heaven'. Valid stages: prospecting, qualification, proposal, negotiation, closed_won, closed_lost",
    });
    expect((await sb.api('POST', `/deals/${deal.id}/stage`, {})).body.error).toBe('stage is required');
    expect((await sb.api('POST', '/deals/deal_ghost/stage', { stage: 'proposal' })).body.error).toBe('Deal not found');
  });

  it('GET /deals/{id} shows seeded stage history', async () => {
    const negotiation = (await sb.api('GET', '/deals?stage=negotiation')).body.data.deals[0];
    const { body } = await sb.api('GET', `/deals/${negotiation.id}`);
    expect(body.data.activities.map((activity: Json) => activity.to_stage)).toEqual(['negotiation', 'proposal', 'qualification']);
  });

  it('PATCH /deals/{id} updates fields; a stage change is validated and logged', async () => {
    const deal = (await sb.api('POST', '/deals', { name: 'Patch me' })).body.data;
    const patched = await sb.api('PATCH', `/deals/${deal.id}`, { amount: 900, stage: 'negotiation' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ amount: 900, stage: 'negotiation' });
    expect(patched.body.data).not.toHaveProperty('activity');
    const history = (await sb.api('GET', `/deals/${deal.id}`)).body.data.activities;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ from_stage: 'prospecting', to_stage: 'negotiation' });

    expect((await sb.api('PATCH', `/deals/${deal.id}`, { stage: 'negotiation', name: 'Renamed' })).status).toBe(200);
    expect((await sb.api('GET', `/deals/${deal.id}`)).body.data.activities).toHaveLength(1);
    expect((await sb.api('PATCH', `/deals/${deal.id}`, { stage: 'mars' })).status).toBe(400);
    expect((await sb.api('PATCH', `/deals/${deal.id}`, { close_date: '31/12/2030' })).status).toBe(400);
  });

  it('DELETE /deals/{id} soft-deletes and drops the deal from pipeline totals', async () => {
    const before = (await sb.api('GET', '/pipeline/deals')).body.data.stages.find((stage: Json) => stage.id === 'proposal');
    const deal = (await sb.api('POST', '/deals', { name: 'Doomed', amount: 1000, stage: 'proposal' })).body.data;
    const during = (await sb.api('GET', '/pipeline/deals')).body.data.stages.find((stage: Json) => stage.id === 'proposal');
    expect(during).toMatchObject({ count: before.count + 1, total_value: before.total_value + 1000 });

    expect((await sb.api('DELETE', `/deals/${deal.id}`)).body).toEqual({ data: { id: deal.id, deleted: true }, error: null });
    expect((await sb.api('GET', `/deals/${deal.id}`)).status).toBe(404);
    const after = (await sb.api('GET', '/pipeline/deals')).body.data.stages.find((stage: Json) => stage.id === 'proposal');
    expect(after).toEqual(before);
  });
});
