// crm tasks complete ID...: each id completed and reported.

import { DEMO } from '../../../registry/demo.js';
import { CONCURRENCY_OPTIONS } from '../../../registry/options.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['tasks', 'complete'],
  aliases: ['done'],
  summary: 'Mark tasks complete',
  endpoint: 'tasks_complete',
  args: [{ name: 'ids', type: 'ids', description: 'task ids; several, or `-` to read them from stdin', forAgents: 'task ids', references: 'task', variadic: true }],
  options: CONCURRENCY_OPTIONS,
  columns: ['id', 'result', 'record.title', 'error'],
  printsReport: true,
  examples: [
    ex(`crm tasks complete ${DEMO.task}`, 'complete one task', { tool: { ids: [DEMO.task] } }),
    ex('crm tasks list --overdue -q | xargs crm tasks complete', 'complete every overdue task of the page'),
  ],
  // Completing again changes nothing (already_completed); it is tasks_update's change of status.
  mcp: { idempotent: true, sameChangeAs: 'tasks_update' },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
