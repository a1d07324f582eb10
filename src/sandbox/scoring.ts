// The AI agent of the service, as the sandbox runs it (hourly, and caught up when a command finds it
// late): an explainable score of each contact, its next best action, and suggestions (deal risks).

import type { SuggestionType } from '../registry/resources.js';
import type { ContactStatus } from './contact-model.js';
import { newId } from './ids.js';
import { utcDate } from './records.js';
import type { Store } from './store.js';

const DAY_MS = 86_400_000;
/** The agent runs hourly; catch-up runs it when the last run is this old. */
export const AGENT_INTERVAL_MS = 3_600_000;

interface ScoreFactor {
  factor: string;
  points: number;
  detail: string;
}

export interface SuggestionAction {
  type: 'create_task';
  title: string;
  due_date: string;
}

/** What the score is computed from: one contact's activity, deals, emails and tasks. */
interface ContactFacts {
  id: string;
  name: string;
  status: ContactStatus;
  created_at: string;
  last_activity_at: string | null;
  activities_30d: number;
  open_deals: number;
  open_deal_value: number;
  email_opens_30d: number;
  email_replies_30d: number;
  overdue_tasks: number;
}

/** Parameters @id, @now (ISO), @since (ISO, 30 days before now), @today (YYYY-MM-DD). */
const CONTACT_FACTS_SQL = `
  WITH events (at) AS (
    SELECT created_at FROM notes WHERE contact_id = @id
    UNION ALL SELECT created_at FROM tasks WHERE contact_id = @id AND deleted_at IS NULL
    UNION ALL SELECT completed_at FROM tasks WHERE contact_id = @id AND deleted_at IS NULL AND completed_at IS NOT NULL
    UNION ALL SELECT sent_at FROM emails WHERE contact_id = @id
    UNION ALL SELECT opened_at FROM emails WHERE contact_id = @id AND opened_at IS NOT NULL
    UNION ALL SELECT replied_at FROM emails WHERE contact_id = @id AND replied_at IS NOT NULL
    UNION ALL SELECT enrolled_at FROM enrollments WHERE contact_id = @id
  ),
  open_deals AS (
    SELECT d.amount FROM deals d JOIN stages s ON s.id = d.stage
    WHERE d.contact_id = @id AND d.deleted_at IS NULL AND NOT s.is_closed
  )
  SELECT c.id, c.name, c.status, c.created_at,
    (SELECT MAX(at) FROM events WHERE at <= @now) AS last_activity_at,
    (SELECT COUNT(*) FROM events WHERE at > @since AND at <= @now) AS activities_30d,
    (SELECT COUNT(*) FROM open_deals) AS open_deals,
    (SELECT TOTAL(amount) FROM open_deals) AS open_deal_value,
    (SELECT COUNT(*) FROM emails WHERE contact_id = @id AND opened_at > @since AND opened_at <= @now) AS email_opens_30d,
    (SELECT COUNT(*) FROM emails WHERE contact_id = @id AND replied_at > @since AND replied_at <= @now) AS email_replies_30d,
    (SELECT COUNT(*) FROM tasks WHERE contact_id = @id AND deleted_at IS NULL AND status = 'open' AND due_date < @today) AS overdue_tasks
  FROM contacts c WHERE c.id = @id AND c.deleted_at IS NULL`;

/** One reading of the clock, so that a whole agent run stamps and measures with the same now. */
interface Clock {
  now: string;
  since: string;
  today: string;
  nowMs: number;
}

export function clockOf(store: Store): Clock {
  const now = store.now();
  return {
    now: now.toISOString(),
    since: new Date(now.getTime() - 30 * DAY_MS).toISOString(),
    today: utcDate(now),
    nowMs: now.getTime(),
  };
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

function formatAmount(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function daysSince(iso: string, clock: Clock): number {
  return Math.floor((clock.nowMs - Date.parse(iso)) / DAY_MS);
}

function dateInDays(clock: Clock, days: number): string {
  return utcDate(new Date(clock.nowMs + days * DAY_MS));
}

function recencyFactor(idleDays: number | null): ScoreFactor {
  if (idleDays === null) return { factor: 'recency', points: 0, detail: 'No recorded activity' };
  const detail = `Last activity ${plural(idleDays, 'day')} ago`;
  if (idleDays <= 7) return { factor: 'recency', points: 20, detail: `${detail} (within 7 days)` };
  if (idleDays <= 30) return { factor: 'recency', points: 10, detail: `${detail} (within 30 days)` };
  return { factor: 'recency', points: 0, detail: `${detail} (over 30 days)` };
}

/** A factor worth `each` points a time, `most` in all; `what` says how many times it counted. */
function perEach(factor: string, count: number, each: number, most: number, what: string): ScoreFactor {
  return { factor, points: Math.min(count * each, most), detail: `${what} (${each} points each, at most ${most})` };
}

/** The explainable score: every rule appears with its points, and the points add up to the score. */
function scoreFactors(facts: ContactFacts, clock: Clock): ScoreFactor[] {
  const factors: ScoreFactor[] = [{ factor: 'base', points: 20, detail: 'Every contact starts at 20' }];

  factors.push(recencyFactor(facts.last_activity_at === null ? null : daysSince(facts.last_activity_at, clock)));
  factors.push(perEach('activity', facts.activities_30d, 3, 15, `${plural(facts.activities_30d, 'activity', 'activities')} in the last 30 days`));
  factors.push(perEach('open_deals', facts.open_deals, 10, 20, plural(facts.open_deals, 'open deal')));
  const value = facts.open_deal_value;
  factors.push({
    factor: 'deal_value',
    points: value >= 100_000 ? 15 : value >= 25_000 ? 10 : value > 0 ? 5 : 0,
    detail: `Open deal value ${formatAmount(value)} (100,000 or more: 15, 25,000 or more: 10, any: 5)`,
  });
  factors.push(perEach('email_replies', facts.email_replies_30d, 8, 16, `${plural(facts.email_replies_30d, 'email reply', 'email replies')} in the last 30 days`));
  factors.push(perEach('email_opens', facts.email_opens_30d, 2, 10, `${plural(facts.email_opens_30d, 'email')} opened in the last 30 days`));
  factors.push({
    factor: 'overdue_tasks',
    points: -Math.min(facts.overdue_tasks * 5, 15),
    detail: `${plural(facts.overdue_tasks, 'overdue task')} (-5 each, at most -15)`,
  });
  const statusPoints: Record<ContactStatus, number> = { lead: 0, prospect: 5, customer: 10, churned: -20 };
  factors.push({ factor: 'status', points: statusPoints[facts.status], detail: `Status ${facts.status}` });

  const sum = factors.reduce((total, factor) => total + factor.points, 0);
  if (sum > 100) factors.push({ factor: 'cap', points: 100 - sum, detail: 'Scores are capped at 100' });
  if (sum < 0) factors.push({ factor: 'floor', points: -sum, detail: 'Scores do not go below 0' });
  return factors;
}

interface Recommendation {
  /** The contact's next_best_action sentence, also the suggestion's title. */
  text: string;
  reason: string;
  action: SuggestionAction | null;
  /** Backed by a concrete signal (overdue task, live deal, reply, silence): the hourly agent files these. */
  urgent: boolean;
}

/** The next best action: the first rule that applies, most pressing first. */
function recommend(store: Store, facts: ContactFacts, clock: Clock): Recommendation {
  const task = (title: string, dueInDays: number): SuggestionAction => ({ type: 'create_task', title, due_date: dateInDays(clock, dueInDays) });

  const overdue = store.get<{ title: string; due_date: string }>(
    `SELECT title, due_date FROM tasks WHERE contact_id = ? AND deleted_at IS NULL AND status = 'open' AND due_date < ?
     ORDER BY due_date, rowid LIMIT 1`,
    facts.id,
    clock.today,
  );
  if (overdue) {
    return {
      text: `Complete the overdue task "${overdue.title}" (due ${overdue.due_date})`,
      reason: `${plural(facts.overdue_tasks, 'task')} for ${facts.name} ${facts.overdue_tasks === 1 ? 'is' : 'are'} overdue.`,
      action: null,
      urgent: true,
    };
  }

  const liveDeal = store.get<{ name: string; amount: number; currency: string; stage_name: string }>(
    `SELECT d.name, d.amount, d.currency, s.name AS stage_name FROM deals d JOIN stages s ON s.id = d.stage
     WHERE d.contact_id = ? AND d.deleted_at IS NULL AND d.stage IN ('proposal', 'negotiation')
     ORDER BY d.amount DESC, d.rowid LIMIT 1`,
    facts.id,
  );
  if (liveDeal) {
    return {
      text: `Follow up on the deal "${liveDeal.name}" in ${liveDeal.stage_name}`,
      reason: `The deal is worth ${liveDeal.currency} ${formatAmount(liveDeal.amount)} and is in ${liveDeal.stage_name}, where follow-up decides the outcome.`,
      action: task(`Follow up on "${liveDeal.name}"`, 1),
      urgent: true,
    };
  }

  // A reply nobody has acted on: no note or task for the contact since it arrived.
  const reply = store.get<{ subject: string; replied_at: string }>(
    `SELECT e.subject, e.replied_at FROM emails e
     WHERE e.contact_id = @id AND e.replied_at > @since AND e.replied_at <= @now
       AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.contact_id = e.contact_id AND n.created_at > e.replied_at)
       AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.contact_id = e.contact_id AND t.deleted_at IS NULL AND t.created_at > e.replied_at)
     ORDER BY e.replied_at DESC LIMIT 1`,
    { id: facts.id, since: clock.since, now: clock.now },
  );
  if (reply) {
    return {
      text: `Reply to ${facts.name}, who answered "${reply.subject}"`,
      reason: `${facts.name} replied on ${reply.replied_at.slice(0, 10)} and nothing has been logged since.`,
      action: task(`Reply to ${facts.name}`, 0),
      urgent: true,
    };
  }

  const silentDays = daysSince(facts.last_activity_at ?? facts.created_at, clock);
  if (facts.status !== 'churned' && silentDays > 30) {
    return {
      text: `Re-engage ${facts.name}: no activity for ${plural(silentDays, 'day')}`,
      reason: `Nothing has happened with this ${facts.status} for over 30 days.`,
      action: task(`Re-engage ${facts.name}`, 2),
      urgent: true,
    };
  }

  if (facts.status === 'churned') {
    return {
      text: `Win back ${facts.name} with a check-in call`,
      reason: `${facts.name} has churned; a personal call is the usual first step back.`,
      action: task(`Call ${facts.name} to win them back`, 7),
      urgent: false,
    };
  }

  const inSequence = store.get(
    `SELECT 1 FROM enrollments e JOIN sequences s ON s.id = e.sequence_id
     WHERE e.contact_id = ? AND e.status = 'active' AND s.status = 'active' AND s.deleted_at IS NULL`,
    facts.id,
  );
  if (!inSequence && (facts.status === 'lead' || facts.status === 'prospect')) {
    return {
      text: `Enrol ${facts.name} in a sequence`,
      reason: `This ${facts.status} is not in any active sequence.`,
      action: task(`Choose a sequence for ${facts.name}`, 3),
      urgent: false,
    };
  }

  return {
    text: `Schedule a check-in with ${facts.name}`,
    reason: `No pressing signal; a regular check-in keeps the relationship warm.`,
    action: task(`Check in with ${facts.name}`, 7),
    urgent: false,
  };
}

interface SuggestionContent {
  type: SuggestionType;
  contactId: string | null;
  dealId: string | null;
  title: string;
  reason: string;
  action: SuggestionAction | null;
}

/**
 * Files a pending suggestion, keeping at most one pending per contact (contact-level suggestions)
 * and one per deal (deal risks): an existing pending one is rewritten rather than duplicated.
 */
export function fileSuggestion(store: Store, content: SuggestionContent, clock: Clock): { id: string; changed: boolean } {
  const action = content.action ? JSON.stringify(content.action) : null;
  const pending = content.dealId
    ? store.get<{ id: string; type: string; title: string; reason: string; action: string | null }>(
        `SELECT id, type, title, reason, action FROM suggestions WHERE deal_id = ? AND status = 'pending'`,
        content.dealId,
      )
    : store.get<{ id: string; type: string; title: string; reason: string; action: string | null }>(
        `SELECT id, type, title, reason, action FROM suggestions WHERE contact_id = ? AND deal_id IS NULL AND status = 'pending'`,
        content.contactId,
      );
  if (pending) {
    const same = pending.type === content.type && pending.title === content.title && pending.reason === content.reason && pending.action === action;
    if (same) return { id: pending.id, changed: false };
    store.run(
      'UPDATE suggestions SET type = ?, contact_id = ?, title = ?, reason = ?, action = ?, created_at = ? WHERE id = ?',
      content.type,
      content.contactId,
      content.title,
      content.reason,
      action,
      clock.now,
      pending.id,
    );
    return { id: pending.id, changed: true };
  }
  const id = newId('sug');
  store.run(
    `INSERT INTO suggestions (id, type, contact_id, deal_id, title, reason, action, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    id,
    content.type,
    content.contactId,
    content.dealId,
    content.title,
    content.reason,
    action,
    clock.now,
  );
  return { id, changed: true };
}

export interface ContactScore {
  contact_id: string;
  score: number;
  factors: ScoreFactor[];
  next_best_action: string;
  scored_at: string;
  recommendation: Recommendation;
}

/** Scores a live contact and stores score, next_best_action and scored_at on it; undefined when there is no such contact. */
export function scoreContact(store: Store, contactId: string, clock: Clock = clockOf(store)): ContactScore | undefined {
  const facts = store.get<ContactFacts>(CONTACT_FACTS_SQL, { id: contactId, now: clock.now, since: clock.since, today: clock.today });
  if (!facts) return undefined;
  const factors = scoreFactors(facts, clock);
  const score = factors.reduce((total, factor) => total + factor.points, 0);
  const recommendation = recommend(store, facts, clock);
  store.run('UPDATE contacts SET score = ?, next_best_action = ?, scored_at = ? WHERE id = ?', score, recommendation.text, clock.now, contactId);
  return { contact_id: contactId, score, factors, next_best_action: recommendation.text, scored_at: clock.now, recommendation };
}

export function suggestNextAction(store: Store, scored: ContactScore, clock: Clock): { id: string; changed: boolean } {
  const { recommendation } = scored;
  return fileSuggestion(
    store,
    {
    type: 'next_best_action',
    contactId: scored.contact_id,
    dealId: null,
    title: recommendation.text,
      reason: `${recommendation.reason} Score ${scored.score}/100.`,
      action: recommendation.action,
    },
    clock,
  );
}

/** Open deals whose close date has passed or whose stage has not moved for 30 days. */
export function findDealRisks(store: Store, clock: Clock): SuggestionContent[] {
  const deals = store.all<{ id: string; name: string; contact_id: string | null; close_date: string | null; stage_name: string; stage_entered_at: string }>(
    `SELECT d.id, d.name, c.id AS contact_id, d.close_date, s.name AS stage_name,
       COALESCE((SELECT MAX(a.created_at) FROM deal_activities a WHERE a.deal_id = d.id), d.created_at) AS stage_entered_at
     FROM deals d JOIN stages s ON s.id = d.stage
       LEFT JOIN contacts c ON c.id = d.contact_id AND c.deleted_at IS NULL
     WHERE d.deleted_at IS NULL AND NOT s.is_closed
     ORDER BY d.created_at, d.rowid`,
  );
  const risks: SuggestionContent[] = [];
  for (const deal of deals) {
    const reasons: string[] = [];
    if (deal.close_date !== null && deal.close_date < clock.today) {
      reasons.push(`Its close date ${deal.close_date} has passed.`);
    }
    const stuckDays = daysSince(deal.stage_entered_at, clock);
    if (stuckDays >= 30) reasons.push(`It has been in ${deal.stage_name} for ${stuckDays} days.`);
    if (reasons.length === 0) continue;
    risks.push({
      type: 'deal_risk',
      contactId: deal.contact_id,
      dealId: deal.id,
      title: `Deal "${deal.name}" is at risk`,
      reason: reasons.join(' '),
      action: { type: 'create_task', title: `Review "${deal.name}": confirm the next step and close date`, due_date: dateInDays(clock, 1) },
    });
  }
  return risks;
}

interface AgentRun {
  scored: number;
  suggestions: number;
}

/** One run of the hourly agent: score every live contact, file urgent next actions and deal risks. */
export function runScoringAgent(store: Store): AgentRun {
  return store.write(() => {
    const clock = clockOf(store);
    const contacts = store.all<{ id: string }>('SELECT id FROM contacts WHERE deleted_at IS NULL ORDER BY created_at, rowid');
    let suggestions = 0;
    for (const { id } of contacts) {
      const scored = scoreContact(store, id, clock);
      if (scored?.recommendation.urgent && suggestNextAction(store, scored, clock).changed) suggestions += 1;
    }
    for (const risk of findDealRisks(store, clock)) {
      if (fileSuggestion(store, risk, clock).changed) suggestions += 1;
    }
    store.setMeta('agent_last_run', clock.now);
    return { scored: contacts.length, suggestions };
  });
}

function agentIsDue(store: Store): boolean {
  const lastRun = store.meta('agent_last_run');
  return lastRun === undefined || store.now().getTime() - Date.parse(lastRun) >= AGENT_INTERVAL_MS;
}

/**
 * Runs the agent when its last run is an hour old or more. The check is repeated under the write
 * lock so that, of several processes catching up at once, one runs it.
 */
export function catchUpScoringAgent(store: Store): boolean {
  if (!agentIsDue(store)) return false;
  return store.write(() => {
    if (!agentIsDue(store)) return false;
    runScoringAgent(store);
    return true;
  });
}
