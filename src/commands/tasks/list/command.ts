// crm tasks list: the tasks, newest first as the service lists them; with --due, those due in a
// range of days, and with --sort due, soonest first. The service has neither (the sandbox's
// `overdue` filter is an assumption), so crm reads the list and filters and sorts it itself.

import { RESOURCES } from '../../../registry/resources.js';
import { DATE_FORMS, example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['tasks', 'list'],
  aliases: ['ls'],
  summary: 'List tasks, newest first (or by due date)',
  endpoint: 'tasks_list',
  columns: RESOURCES.task.columns,
  options: [
    {
      name: 'due',
      type: 'string',
      description:
        `only tasks due: overdue, today, week (today and the 6 days after), a date or DATE..DATE (${DATE_FORMS}; either end may be left out); open tasks unless --status says otherwise. The service has no due-date filter: crm reads the list and keeps the tasks due`,
      example: 'week',
      forAgents: `only tasks due: overdue, today, week (today and the 6 days after), a date or DATE..DATE (${DATE_FORMS}; either end may be left out); open tasks unless status says otherwise`,
    },
    {
      name: 'sort',
      type: 'string',
      choices: ['due'],
      description: 'due: soonest due first, tasks without a due date last. The service lists newest first only: crm reads every task the filters select, then sorts',
      forAgents: 'due: soonest due first, tasks without a due date last; every matching task is read, then the first limit returned (no cursor)',
    },
  ],
  examples: [
    ex('crm tasks list --overdue', 'overdue tasks', { tool: { overdue: true } }),
    ex('crm tasks list --due today', 'open tasks due today', { tool: { due: 'today' } }),
    ex('crm tasks list --due week --sort due', 'open tasks due in the next 7 days, soonest first', { tool: { due: 'week', sort: 'due' } }),
    ex('crm tasks list --due today..+30d --priority high', 'high-priority tasks due within a month', { tool: { due: 'today..+30d', priority: 'high' } }),
    ex('crm tasks list --status open --priority high', 'open high-priority tasks'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
