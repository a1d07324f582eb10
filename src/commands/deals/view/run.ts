// crm deals view: the deal (with the stage history its GET carries) and its open tasks at once, its
// account and contact as soon as the deal names them (./command.ts).

import { STATUS } from '../../../registry/resources.js';
import type { Section } from '../../../cli/result.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';
import { VIEW_LIMIT } from '../../../registry/local.js';
import type { Handler } from '../../command.js';
import { gather, partOf, partSection, readOne, readRecord, recordSection, refOf, scan, settle, viewResult, type Failure } from '../../parts.js';
import { byDueDate, hasStatus } from '../../tasks/due.js';
import type { Spec } from './command.js';

const DEAL = ENDPOINTS.deals_get;
const ACCOUNT = ENDPOINTS.accounts_get;
const CONTACT = ENDPOINTS.contacts_get;
const TASKS = ENDPOINTS.tasks_list;

export const run: Handler<Spec> = async (ctx, { args, options }) => {
  const id = args.id;
  const shown = options.limit ?? VIEW_LIMIT;
  const client = await ctx.client();
  const failures: Failure[] = [];

  const deal = readRecord(client, 'deal', DEAL.path, id);
  const tasks = settle('tasks_open', () => scan(client, TASKS.path, { deal_id: id, status: STATUS.task.open }, { key: TASKS.listKey, selected: true, matches: (task) => refOf(task, 'deal_id') === id && hasStatus(task, STATUS.task.open) }), failures);
  const related = (part: 'account' | 'contact', path: string, field: string) =>
    deal.then((found) => {
      const at = refOf(found, field);
      return at === undefined ? null : settle(part, () => readOne(client, part, path, at), failures);
    });
  const [found, taskScan, account, contact] = await gather([deal, tasks, related('account', ACCOUNT.path, 'account_id'), related('contact', CONTACT.path, 'contact_id')]);

  const parts = { deal: found, account, contact, tasks_open: taskScan && partOf(taskScan, shown, { order: byDueDate(ctx.timeZone()) }) };
  const sections: Section[] = [
    { title: `Deal ${id}`, path: 'deal', columns: ['id', 'name', 'amount', 'currency', 'stage', 'status', 'close_date', 'created_at'] },
    ...(Array.isArray(found.activities) ? [{ title: 'Stage history', path: 'deal.activities', columns: ['created_at', 'from_stage', 'to_stage'], empty: 'No stage moves.' }] : []),
    recordSection('Account', 'account', account, ['id', 'name', 'domain', 'industry'], 'No account.'),
    recordSection('Contact', 'contact', contact, ['id', 'name', 'email', 'title', 'status'], 'No contact.'),
    partSection('Open tasks', 'tasks_open', parts.tasks_open, ['id', 'title', 'due_date', 'priority', 'contact_id'], 'No open tasks.', `crm tasks list --deal-id ${id} --status open`),
  ];
  return viewResult(`crm deals view ${id}`, parts, sections, failures, { tasks_open: ['open tasks', taskScan, 'open tasks'] });
};
