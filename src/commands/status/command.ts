// crm status: the day at a glance, as gh status gives it: tasks overdue, due today and this week,
// deals closing in the next 14 days (by stage, with value and weighted value), pending AI
// suggestions, contacts created in the last 7 days. Every part is read at once, in parallel.

import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';
import { PART_READ_MAX } from '../../registry/local.js';

const spec = {
  command: ['status'],
  summary: 'The day at a glance: tasks overdue and due, deals closing, suggestions, new contacts',
  description: `Open tasks overdue, due today and in the 6 days after; open deals closing in the next 14 days, by stage with value and weighted value; pending AI suggestions; contacts created in the last 7 days. The parts are read in parallel. The service cannot select tasks or deals by date, so those lists are read from their head, at most ${PART_READ_MAX} records each, and crm keeps the records due: stderr (and filtered_locally in --json) says which parts crm filtered, and which it could not read whole.`,
  options: [{ name: 'limit', short: 'L', type: 'integer', min: 1, max: 50, description: 'records shown in each part (default 5); each says how many more there are' }],
  printed: ['today', 'tasks_overdue', 'tasks_due_today', 'tasks_due_this_week', 'deals_closing', 'suggestions', 'contacts_new', 'filtered_locally', 'errors'],
  examples: [
    ex('crm status', 'the day at a glance: one screen of parts, each with a count of the rest'),
    ex('crm status --json', 'the same parts as one JSON object, with what crm filtered itself'),
    ex('crm status --limit 10', 'ten records a part'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
