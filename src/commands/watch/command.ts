// crm watch RESOURCE: follow a list, emit each new record once (run, forward, score it).

import { WATCHABLE } from '../../registry/local.js';
import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const spec = {
  command: ['watch'],
  summary: 'Follow a list: emit each new record (or, with --changes, each change) once, oldest first (run a command, forward it to a URL, score it)',
  args: [{ name: 'resource', type: 'string', description: 'the records to watch', choices: WATCHABLE }],
  options: [
    { name: 'interval', type: 'duration', min: 1000, description: 'time between polls: 30s, 5m, 1h (default 60s, at least 1s)', example: '30s' },
    { name: 'once', type: 'boolean', description: 'poll once and exit (cron; with --state)' },
    { name: 'since_start', type: 'boolean', description: 'the first poll emits every existing record instead of only setting the baseline' },
    { name: 'state', type: 'file', description: 'remember what was handled in this file (written atomically), so a restart neither repeats nor misses a record' },
    { name: 'max_failures', type: 'integer', min: 1, description: 'exit after this many consecutive failed polls or deliveries (default 10)' },
    { name: 'exec', type: 'string', description: 'run this shell command for each new record: the record as JSON on stdin, CRM_RECORD_ID and CRM_RESOURCE set' },
    { name: 'exec_timeout', type: 'duration', min: 1000, description: 'kill an --exec command still running after this long: a failed delivery, run again at the next poll (default 10m)', example: '2m' },
    { name: 'forward_to', type: 'string', description: 'POST each new record as JSON to this URL (event id header, retries; a signature with --secret)', example: 'http://localhost:3000/hooks/crm' },
    { name: 'secret', type: 'string', description: 'sign forwarded records with HMAC-SHA256 in X-CRM-Signature (env CRM_WATCH_SECRET)' },
    { name: 'score', type: 'boolean', description: 'contacts: score each new contact (POST /ai/trigger, within its rate limit)' },
    {
      name: 'changes',
      type: 'boolean',
      description: 'emit created, updated (the fields before and after) and deleted events: each poll syncs the resource into the local replica (crm sync) and emits what changed',
    },
  ],
  printsResource: 'argument',
  // A change event's members, with --changes.
  printed: ['event_id', 'seq', 'event', 'resource', 'id', 'changed', 'changes', 'record', 'detected_at'],
  pipeFormat: 'ndjson',
  examples: [
    ex('crm watch contacts --interval 30s', 'a line for each new contact, as it arrives', { needs: 'Ctrl-C to stop it' }),
    ex('crm watch deals --once --since-start --fields id,name', 'every deal there is, oldest first, then exit'),
    ex('crm watch deals --once --state deals-seen.json', 'from cron: what is new since the last run', { needs: 'a state file it may write' }),
    ex('crm watch contacts --forward-to http://localhost:3000/hooks/crm', 'webhooks for a local app', { needs: 'a receiver at the URL, and Ctrl-C to stop it' }),
    ex("crm watch contacts --exec 'jq -r .email >> new-emails.txt'", 'run a command for each new contact', { needs: 'jq, and Ctrl-C to stop it' }),
    ex('crm watch deals --changes --once --since-start', 'every change the replica has logged for deals, then exit'),
    ex('crm watch deals --changes --state deal-changes.json --forward-to http://localhost:3000/hooks/crm', 'each deal created, updated (a stage move) or deleted, as a webhook', {
      needs: 'a receiver at the URL, and Ctrl-C to stop it',
    }),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
