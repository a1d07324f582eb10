// crm tasks list: the generic list, unless --due or --sort asks for what the service cannot do. Then
// crm walks the list (src/http/paginate.ts) with the filters the service has (status open unless
// --status says otherwise; the sandbox's `overdue=true` for --due overdue, an assumption, unless the
// user's day is ahead of UTC's: ../due.ts), checks
// each task against the range itself whatever the service did with them, and stops at --limit tasks
// due. --sort due reads every task the filters select before the first is printed.

import { STATUS } from '../../../registry/resources.js';
import { usageError } from '../../../cli/errors.js';
import { formatNumber } from '../../../cli/format.js';
import { list } from '../../../cli/result.js';
import { PAGE_DEFAULT } from '../../../registry/service.js';
import { listQuery, runGeneric, viewOf, walkList } from '../../endpoint.js';
import type { Handler, Values } from '../../command.js';
import { text } from '../../invocation.js';
import { resolveCall } from '../../keys.js';
import { byDueDate, hasStatus, isDue, parseDue } from '../due.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, invocation) => {
  const { command: op, options } = invocation;
  // The endpoint's filters, by name (the registry declares them loosely, so they are not typed).
  const filters: Values = options;
  if (options.due === undefined && options.sort === undefined) return runGeneric(ctx, invocation);
  if (options.offset !== undefined) throw usageError(`--offset cannot be used with ${options.due !== undefined ? '--due' : '--sort'}`, 'the service cannot filter or sort by due date, so crm reads the list from its head; use --limit');
  if (options.due !== undefined && filters.overdue !== undefined) throw usageError('--due and --overdue cannot be used together', 'use --due overdue');
  const due = options.due === undefined ? undefined : parseDue(options.due, new Date(ctx.now()), ctx.timeZone());
  const status = text(filters, 'status') ?? (due ? STATUS.task.open : undefined);
  // A contact's email given for --contact-id is looked up once the checks are done (a request).
  const query = { ...listQuery(await resolveCall(ctx, invocation)), ...(status === undefined ? {} : { status }), ...(due?.askService ? { overdue: true } : {}) };
  const matches = (task: unknown) => (due === undefined || isDue(task, due)) && (status === undefined || hasStatus(task, status));
  const limit = options.all ? Number.POSITIVE_INFINITY : (options.limit ?? PAGE_DEFAULT);
  // An MCP call continues it later from its cursor (resumable), filtering the same way.
  const walk = await walkList(await ctx.client(), invocation, op.path, query);
  const view = viewOf(op);
  if (options.sort === 'due') {
    const tasks: unknown[] = [];
    let read = 0;
    for await (const task of walk) {
      read++;
      if (matches(task)) tasks.push(task);
    }
    // Array.prototype.sort is stable: tasks due the same day stay newest first.
    // More matched than are shown: said (and an agent's has_more is true), since a sorted list has no next page.
    const leftOut = Math.max(0, tasks.length - limit);
    const cut = leftOut > 0 ? `: the first ${formatNumber(limit)} of ${formatNumber(tasks.length)} that match` : '';
    return list(tasks.sort(byDueDate(ctx.timeZone())).slice(0, limit), { ...view, leftOut, summary: `Sorted by due date by crm${cut}, from the ${formatNumber(read)} tasks the service listed.` });
  }
  return list(firstMatches(walk, matches, limit), { ...view, filteredByCrm: true, summary: 'Filtered by due date by crm: the service has no due-date filter.' }, undefined, walk);
};

/** The first `limit` items that match, as they arrive; the walk is not read further. */
async function* firstMatches(items: AsyncIterable<unknown>, matches: (item: unknown) => boolean, limit: number): AsyncGenerator<unknown> {
  let count = 0;
  if (limit <= 0) return;
  for await (const item of items) {
    if (!matches(item)) continue;
    yield item;
    if (++count >= limit) return;
  }
}
