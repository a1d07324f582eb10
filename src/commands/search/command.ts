// crm search QUERY [--types ...]: results of the four searchable resources, grouped by type in a table.

import { RESOURCES } from '../../registry/resources.js';
import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

/** Flat results, and grouped ones: the records themselves. */
const PRINTED = [...new Set(['type', 'id', 'title', 'subtitle', 'created_at', ...(['contact', 'deal', 'account', 'task'] as const).flatMap((name) => [...RESOURCES[name].fields.map((field) => field.name), ...(RESOURCES[name].members ?? [])])])];

const spec = {
  command: ['search'],
  summary: 'Search contacts, deals, accounts and tasks',
  endpoint: 'search',
  args: [{ name: 'q', flag: 'query', type: 'string', description: 'text to search for', example: 'globex' }],
  columns: ['type', 'id', 'title', 'subtitle'],
  printed: PRINTED,
  examples: [ex('crm search globex', 'everything that mentions Globex', { tool: { q: 'globex' } }), ex('crm search globex --types contacts,deals', 'only contacts and deals')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
