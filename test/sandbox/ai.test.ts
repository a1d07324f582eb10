import { openDatabase, type SqlParam } from '../../src/sqlite/database.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Json, type TestSandbox } from './helpers.js';
import { until } from '../helpers/wait.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

function inDatabase<T>(dbPath: string, sql: string, ...params: SqlParam[]): T[] {
  const db = openDatabase(dbPath, { readOnly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function newContact(fields: Record<string, unknown> = {}): Promise<Json> {
  const unique = Math.random().toString(36).slice(2, 10);
  return (await sb.api('POST', '/contacts', { name: `Ai ${unique}`, email: `ai.${unique}@example.com`, ...fields })).body.data;
}

describe('GET /ai/suggestions', () => {
  it('lists the seeded pending suggestions of every type', async () => {
    const { status, body } = await sb.api('GET', '/ai/suggestions');
    expect(status).toBe(200);
    expect(body.data.total).toBe(8);
    expect(new Set(body.data.suggestions.map((suggestion: Json) => suggestion.type))).toEqual(new Set(['next_best_action', 'follow_up', 'deal_risk']));
    expect(Object.keys(body.data.suggestions[0])).toEqual([
      'id', 'type', 'contact_id', 'deal_id', 'title', 'reason', 'action', 'status', 'created_at', 'accepted_at', 'task_id',
    ]);
    for (const suggestion of body.data.suggestions) {
      expect(suggestion.status).toBe('pending');
      expect(suggestion.id).toMatch(/^sug_/);
      if (suggestion.action) expect(suggestion.action).toEqual({ type: 'create_task', title: expect.any(String), due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    }
    const risks = await sb.api('GET', '/ai/suggestions?type=deal_risk');
    expect(risks.body.data.suggestions.every((suggestion: Json) => suggestion.type === 'deal_risk' && suggestion.deal_id)).toBe(true);
    expect((await sb.api('GET', '/ai/suggestions?limit=3')).body.data.suggestions).toHaveLength(3);
  });
});

describe('POST /ai/suggestions/{id}/accept', () => {
  it('accepts a suggestion, creating its task, then refuses a second accept', async () => {
    const pending = (await sb.api('GET', '/ai/suggestions?limit=50')).body.data.suggestions as Json[];
    const withAction = pending.find((suggestion) => suggestion.action !== null);
    const { status, body } = await sb.api('POST', `/ai/suggestions/${withAction.id}/accept`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: withAction.id, status: 'accepted', accepted_at: expect.stringMatching(/Z$/), task_id: expect.stringMatching(/^task_/) });
    const task = (await sb.api('GET', `/tasks/${body.data.task_id}`)).body.data;
    expect(task).toMatchObject({ title: withAction.action.title, due_date: withAction.action.due_date, contact_id: withAction.contact_id, deal_id: withAction.deal_id, status: 'open' });

    const after = (await sb.api('GET', '/ai/suggestions?limit=50')).body.data;
    expect(after.total).toBe(pending.length - 1);
    expect(after.suggestions.map((suggestion: Json) => suggestion.id)).not.toContain(withAction.id);

    const again = await sb.api('POST', `/ai/suggestions/${withAction.id}/accept`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`Suggestion ${withAction.id} is already accepted`);
    expect((await sb.api('POST', '/ai/suggestions/sug_ghost/accept')).body).toEqual({ data: null, error: 'Suggestion not found' });
  });

  it('accepts a suggestion without an action without creating a task', async () => {
    const contact = await newContact();
    await sb.api('POST', `/contacts/${contact.id}/tasks`, { title: 'Late thing', due_date: '2000-01-01' });
    const triggered = (await sb.api('POST', '/ai/trigger', { contact_id: contact.id })).body.data;
    const { body } = await sb.api('POST', `/ai/suggestions/${triggered.suggestion_id}/accept`);
    expect(body.data).toMatchObject({ status: 'accepted', action: null, task_id: null });
  });
});

describe('POST /ai/trigger', () => {
  it('scores a contact with explained factors, persists it and files one pending suggestion', async () => {
    const contact = await newContact();
    const first = await sb.api('POST', '/ai/trigger', { contact_id: contact.id });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.data)).toEqual(['contact_id', 'score', 'factors', 'next_best_action', 'suggestion_id', 'scored_at']);
    // A new lead with no history: only the base points.
    expect(first.body.data).toMatchObject({ contact_id: contact.id, score: 20, next_best_action: `Enrol ${contact.name} in a sequence` });
    expect(first.body.data.factors.map((factor: Json) => factor.factor)).toEqual([
      'base', 'recency', 'activity', 'open_deals', 'deal_value', 'email_replies', 'email_opens', 'overdue_tasks', 'status',
    ]);
    for (const factor of first.body.data.factors) expect(factor).toEqual({ factor: expect.any(String), points: expect.any(Number), detail: expect.any(String) });

    const stored = (await sb.api('GET', `/contacts/${contact.id}`)).body.data;
    expect(stored).toMatchObject({ score: 20, next_best_action: first.body.data.next_best_action, scored_at: first.body.data.scored_at });

    // A note (recent activity), an overdue task and customer status change the score and the advice.
    await sb.api('POST', `/contacts/${contact.id}/notes`, { body: 'Talked today.' });
    await sb.api('POST', `/contacts/${contact.id}/tasks`, { title: 'Send contract', due_date: '2001-02-03' });
    await sb.api('PATCH', `/contacts/${contact.id}`, { status: 'customer' });
    const second = (await sb.api('POST', '/ai/trigger', { contact_id: contact.id })).body.data;
    const points = Object.fromEntries(second.factors.map((factor: Json) => [factor.factor, factor.points]));
    expect(points).toMatchObject({ base: 20, recency: 20, activity: 6, overdue_tasks: -5, status: 10 });
    expect(second.score).toBe(51);
    // Each factor says why, in words a person reads (the rule's points and its cap).
    expect(second.factors.map((factor: Json) => factor.detail)).toEqual([
      'Every contact starts at 20',
      'Last activity 0 days ago (within 7 days)',
      '2 activities in the last 30 days (3 points each, at most 15)',
      '0 open deals (10 points each, at most 20)',
      'Open deal value 0 (100,000 or more: 15, 25,000 or more: 10, any: 5)',
      '0 email replies in the last 30 days (8 points each, at most 16)',
      '0 emails opened in the last 30 days (2 points each, at most 10)',
      '1 overdue task (-5 each, at most -15)',
      'Status customer',
    ]);
    expect(second.factors.reduce((sum: number, factor: Json) => sum + factor.points, 0)).toBe(second.score);
    expect(second.next_best_action).toBe('Complete the overdue task "Send contract" (due 2001-02-03)');

    // Still one pending suggestion for the contact: the first one, rewritten.
    expect(second.suggestion_id).toBe(first.body.data.suggestion_id);
    const pending = (await sb.api('GET', `/ai/suggestions?contact_id=${contact.id}`)).body.data;
    expect(pending.total).toBe(1);
    expect(pending.suggestions[0]).toMatchObject({ type: 'next_best_action', title: second.next_best_action, action: null });
  });

  it('requires a live contact_id', async () => {
    expect((await sb.api('POST', '/ai/trigger', {})).body).toEqual({ data: null, error: 'contact_id is required' });
    expect((await sb.api('POST', '/ai/trigger', { contact_id: 'con_ghost' })).body).toEqual({ data: null, error: 'Contact not found' });
    const contact = await newContact();
    await sb.api('DELETE', `/contacts/${contact.id}`);
    expect((await sb.api('POST', '/ai/trigger', { contact_id: contact.id })).status).toBe(404);
    expect((await sb.api('POST', '/ai/trigger', { contact_id: contact.id, extra: 1 })).body.error).toBe('Unknown field: extra');
  });

  it('allows 10 triggers a minute; the 11th gets 429 with Retry-After until the window frees', async () => {
    const limited = await startSandbox();
    try {
      const contactId = (await limited.api('GET', '/contacts?limit=1')).body.data.contacts[0].id;
      // Failed calls do not use up the allowance.
      expect((await limited.api('POST', '/ai/trigger', { contact_id: 'con_ghost' })).status).toBe(404);
      for (let call = 0; call < 10; call++) {
        expect((await limited.api('POST', '/ai/trigger', { contact_id: contactId })).status).toBe(200);
      }
      limited.advanceClock(30_000);
      const refused = await limited.api('POST', '/ai/trigger', { contact_id: contactId });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ data: null, error: 'Too many requests. Try again in a minute.' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(29);
      expect(retryAfter).toBeLessThanOrEqual(30);

      // Other routes are not limited.
      expect((await limited.api('GET', '/contacts?limit=1')).status).toBe(200);

      limited.advanceClock(retryAfter * 1000);
      expect((await limited.api('POST', '/ai/trigger', { contact_id: contactId })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the hourly scoring agent', () => {
  it('scores every live contact and keeps one pending suggestion per contact and per deal', async () => {
    const run = sb.sandbox.runScoringAgent();
    const live = sb.sandbox.counts().contacts;
    expect(run.scored).toBe(live);
    expect(run.suggestions).toBeGreaterThan(0);

    const unscored = inDatabase(sb.dbPath, 'SELECT id FROM contacts WHERE deleted_at IS NULL AND (score IS NULL OR next_best_action IS NULL)');
    expect(unscored).toEqual([]);
    const scores = inDatabase<{ score: number }>(sb.dbPath, 'SELECT score FROM contacts WHERE deleted_at IS NULL');
    expect(scores.every(({ score }) => score >= 0 && score <= 100)).toBe(true);
    expect(new Set(scores.map(({ score }) => score)).size).toBeGreaterThan(5);

    const perContact = inDatabase(sb.dbPath, `SELECT contact_id FROM suggestions WHERE status = 'pending' AND deal_id IS NULL GROUP BY contact_id HAVING COUNT(*) > 1`);
    const perDeal = inDatabase(sb.dbPath, `SELECT deal_id FROM suggestions WHERE status = 'pending' AND deal_id IS NOT NULL GROUP BY deal_id HAVING COUNT(*) > 1`);
    expect(perContact).toEqual([]);
    expect(perDeal).toEqual([]);
    const risks = (await sb.api('GET', '/ai/suggestions?type=deal_risk&limit=50')).body.data;
    expect(risks.total).toBeGreaterThan(2);

    // Nothing has changed, so a second run rewrites nothing.
    expect(sb.sandbox.runScoringAgent().suggestions).toBe(0);
  });

  it('catches up once when its last run is an hour old or more', async () => {
    const fresh = await startSandbox();
    try {
      const lastRun = () => inDatabase<{ value: string }>(fresh.dbPath, `SELECT value FROM meta WHERE key = 'agent_last_run'`)[0].value;
      const seededRun = lastRun();
      expect(fresh.sandbox.catchUpScoringAgent()).toBe(false);
      fresh.advanceClock(59 * 60 * 1000);
      expect(fresh.sandbox.catchUpScoringAgent()).toBe(false);
      fresh.advanceClock(61 * 60 * 1000);
      expect(fresh.sandbox.catchUpScoringAgent()).toBe(true);
      expect(Date.parse(lastRun()) - Date.parse(seededRun)).toBeGreaterThanOrEqual(2 * HOUR_MS);
      expect(fresh.sandbox.catchUpScoringAgent()).toBe(false);
      // Two hours on, the seed's open deals have aged, and the run saw them.
      const scoredAt = inDatabase<{ scored_at: string }>(fresh.dbPath, 'SELECT DISTINCT scored_at FROM contacts WHERE deleted_at IS NULL');
      expect(scoredAt).toEqual([{ scored_at: lastRun() }]);
    } finally {
      await fresh.close();
    }
  });

  it('runs on the server timer', async () => {
    const timed = await startSandbox({ agentIntervalMs: 40 });
    try {
      const lastRun = () => inDatabase<{ value: string }>(timed.dbPath, `SELECT value FROM meta WHERE key = 'agent_last_run'`)[0].value;
      const before = lastRun();
      timed.advanceClock(DAY_MS);
      // The timer's next tick runs the agent, whenever a busy machine gets to it.
      await until(() => Date.parse(lastRun()) - Date.parse(before) >= DAY_MS, 'a run of the agent on its timer');
    } finally {
      await timed.close();
    }
  });
});
