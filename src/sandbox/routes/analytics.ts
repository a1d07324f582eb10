import { badRequest, ok, queryText, type Reply, type RequestContext, type Route } from '../http.js';
import { CONTACT_STATUSES, PERIODS } from '../../registry/resources.js';
import { utcDate } from '../records.js';

type Period = (typeof PERIODS)[number];
const PERIOD_DAYS: Record<Period, number> = { '7d': 7, '30d': 30, '90d': 90 };
const DAY_MS = 86_400_000;

/** A ratio rounded to three decimals; 0 when there is nothing to divide by. */
function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;
}

function analytics({ store, query }: RequestContext): Reply {
  const periodText = queryText(query, 'period') ?? '30d';
  if (!(PERIODS as readonly string[]).includes(periodText)) throw badRequest(`period must be one of: ${PERIODS.join(', ')}`);
  const period = periodText as Period;
  const now = store.now();
  const window = { from: new Date(now.getTime() - PERIOD_DAYS[period] * DAY_MS).toISOString(), to: now.toISOString() };

  const contacts = store.get<{ total: number; new: number }>(
    `SELECT COUNT(*) AS total, COUNT(*) FILTER (WHERE created_at BETWEEN @from AND @to) AS new
     FROM contacts WHERE deleted_at IS NULL`,
    window,
  );
  const statusCounts = store.all<{ status: string; count: number }>(
    'SELECT status, COUNT(*) AS count FROM contacts WHERE deleted_at IS NULL GROUP BY status',
  );
  const byStatus = Object.fromEntries(
    CONTACT_STATUSES.map((status) => [status, statusCounts.find((row) => row.status === status)?.count ?? 0]),
  );

  // A closed deal counts in the window when it entered its closing stage there (its last stage move).
  const deals = store.get<{ open: number; new: number; won: number; lost: number; won_value: number; open_value: number }>(
    `WITH live AS (
       SELECT d.amount, d.created_at, s.is_closed, s.is_won,
         COALESCE((SELECT MAX(a.created_at) FROM deal_activities a WHERE a.deal_id = d.id), d.created_at) AS stage_entered_at
       FROM deals d JOIN stages s ON s.id = d.stage WHERE d.deleted_at IS NULL
     )
     SELECT COUNT(*) FILTER (WHERE NOT is_closed) AS open,
       COUNT(*) FILTER (WHERE created_at BETWEEN @from AND @to) AS new,
       COUNT(*) FILTER (WHERE is_won AND stage_entered_at BETWEEN @from AND @to) AS won,
       COUNT(*) FILTER (WHERE is_closed AND NOT is_won AND stage_entered_at BETWEEN @from AND @to) AS lost,
       TOTAL(amount) FILTER (WHERE is_won AND stage_entered_at BETWEEN @from AND @to) AS won_value,
       TOTAL(amount) FILTER (WHERE NOT is_closed) AS open_value
     FROM live`,
    window,
  );

  // Emails are the ones sent in the window; opened and replied count those among them.
  const emails = store.get<{ sent: number; opened: number; replied: number }>(
    `SELECT COUNT(*) AS sent, COUNT(e.opened_at) AS opened, COUNT(e.replied_at) AS replied
     FROM emails e JOIN contacts c ON c.id = e.contact_id
     WHERE c.deleted_at IS NULL AND e.sent_at BETWEEN @from AND @to`,
    window,
  );

  const tasks = store.get<{ created: number; completed: number; open: number; overdue: number }>(
    `SELECT COUNT(*) FILTER (WHERE created_at BETWEEN @from AND @to) AS created,
       COUNT(*) FILTER (WHERE completed_at BETWEEN @from AND @to) AS completed,
       COUNT(*) FILTER (WHERE status = 'open') AS open,
       COUNT(*) FILTER (WHERE status = 'open' AND due_date < @today) AS overdue
     FROM tasks WHERE deleted_at IS NULL`,
    { ...window, today: utcDate(now) },
  );

  if (!contacts || !deals || !emails || !tasks) throw new Error('An aggregate query returned no row');
  return ok({
    period,
    from: window.from,
    to: window.to,
    contacts: { total: contacts.total, new: contacts.new, by_status: byStatus },
    deals: { ...deals, win_rate: rate(deals.won, deals.won + deals.lost) },
    emails: { ...emails, open_rate: rate(emails.opened, emails.sent), reply_rate: rate(emails.replied, emails.sent) },
    tasks,
  });
}

export const analyticsRoutes: Route[] = [{ method: 'GET', path: '/analytics', handler: analytics }];
