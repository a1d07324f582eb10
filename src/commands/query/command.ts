// crm query SQL | --file F | - [--fresh] | --schema: read-only SQL on the profile's replica.

import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const REPLICA = 'a replica: crm sync first';

const spec = {
  command: ['query'],
  summary: 'Run read-only SQL on the local replica (crm sync keeps it): joins, GROUP BY, offline',
  args: [{ name: 'sql', type: 'string', optional: true, description: 'one SQL statement that reads (SELECT, WITH, VALUES, EXPLAIN, PRAGMA); - reads it from stdin' }],
  options: [
    { name: 'file', type: 'file', description: 'read the SQL from this file (- for stdin)' },
    { name: 'fresh', type: 'boolean', description: 'sync first (every table but notes, as `crm sync`)' },
    { name: 'schema', type: 'boolean', description: 'list the tables, views and columns' },
  ],
  examples: [
    ex('crm query --fresh "SELECT stage_name, count(*) AS deals, sum(weighted_value) AS weighted FROM deals_with_stage GROUP BY stage_name"', 'the pipeline, weighted, after a sync'),
    ex(`crm query "SELECT a.name, sum(d.amount) AS open_value FROM deals d JOIN accounts a ON a.id = d.account_id WHERE d.status = 'open' GROUP BY a.id HAVING open_value > 10000"`, 'accounts with open deals over 10k', { needs: REPLICA }),
    ex("crm query \"SELECT * FROM changes WHERE resource = 'deals' AND event = 'updated'\" -o ndjson", 'every deal change the syncs found', { needs: REPLICA }),
    ex('crm query --schema', 'the tables, views and columns'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
