// crm sync [TABLE...] [--new | --full] | --status | --forget: the profile's local replica (src/mirror/).

import { REPLICA_TABLES } from '../../registry/local.js';
import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const spec = {
  command: ['sync'],
  summary: 'Keep a local replica of the workspace (SQLite) for crm query and crm watch --changes',
  args: [
    {
      name: 'resources',
      flag: 'resource',
      type: 'string',
      variadic: true,
      optional: true,
      choices: REPLICA_TABLES,
      description: 'the tables to sync (default: all but notes, which take a request per contact: name them to sync them)',
    },
  ],
  options: [
    { name: 'new', type: 'boolean', description: 'only the records created since the last sync (each list from its head until a run of records held): a few requests; updates and deletions wait for a full sync' },
    { name: 'full', type: 'boolean', description: 'read every list whole: new records, updates and deletions (the default)' },
    { name: 'status', type: 'boolean', description: 'what the replica holds and when each table was synced; sends nothing' },
    { name: 'forget', type: 'boolean', description: "delete the profile's replica; sends nothing" },
  ],
  printed: ['resource', 'mode', 'added', 'changed', 'removed', 'records', 'requests', 'error', 'synced_at', 'new_synced_at', 'profile', 'path', 'deleted'],
  examples: [
    ex('crm sync', 'every table but notes: new records, updates and deletions, reported per table'),
    ex('crm sync --new', 'only the new records: a few requests (cron, every few minutes)'),
    ex('crm sync contacts notes', 'contacts and their notes (a request per contact)'),
    ex('crm sync --status', 'what the replica holds and how old it is'),
    ex('crm sync --forget', "delete the profile's replica"),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
