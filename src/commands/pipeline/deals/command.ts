// crm pipeline deals: deal count and total value per stage; a bar chart on a terminal.

import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['pipeline', 'deals'],
  summary: 'Deal count and total value per stage',
  endpoint: 'pipeline_deals',
  columns: ['name', 'count', 'total_value', 'id'],
  printed: ['id', 'name', 'position', 'probability', 'is_closed', 'is_won', 'count', 'total_value'],
  examples: [ex('crm pipeline deals', 'a bar chart of value per stage on a terminal')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
