// Commands that are not one endpoint of the service: auth, profiles, config, the sandbox, raw API
// access. Data only, like the operations: the code is in src/commands/local/, loaded on use.

import type { OUTPUT_FORMATS } from './global.js';
import { RESOURCES } from './resources.js';
import { DELETE_OPTIONS } from './options.js';
import { GROUP_NAMES, example as ex, type Example, type FieldSpec, type ResourceName } from './types.js';

export type LocalHandlerName =
  | 'auth.login' | 'auth.status' | 'auth.logout'
  | 'profiles.list' | 'profiles.use' | 'profiles.remove'
  | 'config.get' | 'config.set' | 'config.unset' | 'config.list'
  | 'sandbox.init' | 'sandbox.serve' | 'sandbox.reset' | 'sandbox.status'
  | 'api.run'
  | 'mcp.serve'
  | 'completion.script'
  | 'watch.run' | 'contacts.import' | 'contacts.export'
  | 'sync.run' | 'query.run';

export interface LocalCommand {
  name: string;
  command: readonly string[];
  summary: string;
  aliases?: readonly string[];
  args: readonly FieldSpec[];
  options: readonly FieldSpec[];
  handler: LocalHandlerName;
  examples: readonly Example[];
  /** The format when no flag asks for one (crm api prints JSON, as gh api does). */
  defaultFormat?: (typeof OUTPUT_FORMATS)[number];
  /** The format into a pipe when nothing asks for one (crm watch streams NDJSON). */
  pipeFormat?: 'ndjson';
  /** This option picks the output format as -o does (contacts export --format). */
  formatOption?: string;
  /** The profile's output setting does not apply: `crm config` must work while that setting is bad. */
  ignoresOutputSetting?: boolean;
  /** Top-level fields it prints, for checking --fields (with `printsResource`, besides that resource's). */
  printed?: readonly string[];
  /** It prints records of this resource (watch: of the one its argument names). */
  printsResource?: ResourceName | 'argument';
}

export const LOCAL_GROUPS: ReadonlyArray<[string, string]> = [
  ['auth', 'Log in to a workspace, check or remove the stored key'],
  ['profiles', 'Stored workspaces: list, switch, remove'],
  ['config', 'Settings of the active profile'],
  ['sandbox', 'The local sandbox workspace (embedded default and test server)'],
];

/** What `crm watch` follows: the lists of the service that grow with new records. */
export const WATCHABLE = ['contacts', 'deals', 'tasks', 'accounts', 'sequences'] as const;
/**
 * The tables of the local replica (`crm sync`), parents before the lists read under them; each is
 * defined in src/mirror/schema.ts. Notes are listed per contact only: a request per contact, so they
 * are synced when named.
 */
export const REPLICA_TABLES = ['contacts', 'accounts', 'deals', 'sequences', 'tasks', 'stages', 'enrollments', 'notes'] as const;
export type ReplicaTable = (typeof REPLICA_TABLES)[number];
const EXPORT_FORMATS = ['csv', 'ndjson', 'json'] as const;
export const IMPORT_FORMATS = ['csv', 'ndjson'] as const;
/** latin1 is read as windows-1252 (cp1252), its superset, as browsers read it. */
export const TEXT_ENCODINGS = ['utf8', 'latin1', 'cp1252'] as const;

const SETTING_NAMES = ['base_url', 'output', 'timeout', 'api_key'] as const;
const setting: FieldSpec = { name: 'key', type: 'string', description: 'base_url, output, timeout or api_key (masked)', known: SETTING_NAMES };
const profileArg = (description: string): FieldSpec => ({ name: 'name', type: 'string', description, known: 'profiles' });
const WORKSPACE = 'a real workspace and its key';

export const LOCAL_COMMANDS: readonly LocalCommand[] = [
  {
    name: 'auth_login',
    command: ['auth', 'login'],
    summary: 'Store an API key for a workspace (verified before it is saved)',
    args: [],
    options: [{ name: 'with_key', type: 'boolean', description: 'read the key from stdin instead of prompting' }],
    handler: 'auth.login',
    examples: [
      ex('crm auth login --base-url https://crm.example.com', 'asks for the key (masked)', WORKSPACE),
      ex('crm auth login --base-url https://crm.example.com --with-key < keyfile', 'in a script', WORKSPACE),
    ],
  },
  {
    name: 'auth_status',
    command: ['auth', 'status'],
    summary: 'Show the profile, base URL, key (last 4 characters) and whether it works',
    args: [],
    options: [],
    handler: 'auth.status',
    examples: [ex('crm auth status', 'which workspace, and does the key work')],
  },
  {
    name: 'auth_logout',
    command: ['auth', 'logout'],
    summary: "Remove the profile's stored key (and offer to delete its local replica)",
    args: [],
    options: [],
    handler: 'auth.logout',
    examples: [ex('crm auth logout', "forget the active profile's key")],
  },
  {
    name: 'profiles_list',
    command: ['profiles', 'list'],
    aliases: ['ls'],
    summary: 'List stored profiles',
    args: [],
    options: [],
    handler: 'profiles.list',
    printed: ['name', 'active', 'base_url', 'key'],
    examples: [ex('crm profiles list', 'the built-in sandbox and every stored workspace')],
  },
  {
    name: 'profiles_use',
    command: ['profiles', 'use'],
    summary: 'Make a profile the active one',
    args: [profileArg('profile name (sandbox: the local workspace)')],
    options: [],
    handler: 'profiles.use',
    examples: [ex('crm profiles use sandbox', 'back to the local sandbox')],
  },
  {
    name: 'profiles_remove',
    command: ['profiles', 'remove'],
    aliases: ['rm'],
    summary: 'Remove a stored profile and its key (and offer to delete its local replica)',
    args: [profileArg('profile name')],
    options: [],
    handler: 'profiles.remove',
    examples: [ex('crm profiles remove staging', 'forget a workspace', 'a stored profile named staging')],
  },
  {
    name: 'config_get',
    command: ['config', 'get'],
    summary: 'Print one setting of the active profile',
    args: [setting],
    options: [],
    handler: 'config.get',
    ignoresOutputSetting: true,
    examples: [ex('crm config get output', 'the default output format, if set')],
  },
  {
    name: 'config_set',
    command: ['config', 'set'],
    summary: 'Change one setting of the active profile',
    args: [
      { ...setting, description: 'base_url, output or timeout' },
      { name: 'value', type: 'string', description: 'the new value' },
    ],
    options: [],
    handler: 'config.set',
    ignoresOutputSetting: true,
    examples: [ex('crm config set output json', 'JSON by default, also on a terminal')],
  },
  {
    name: 'config_unset',
    command: ['config', 'unset'],
    summary: 'Remove one setting of the active profile (back to the default)',
    args: [{ ...setting, description: 'base_url, output or timeout' }],
    options: [],
    handler: 'config.unset',
    ignoresOutputSetting: true,
    examples: [ex('crm config unset output', 'back to tables on a terminal')],
  },
  {
    name: 'config_list',
    command: ['config', 'list'],
    aliases: ['ls'],
    summary: 'Print every setting of the active profile',
    args: [],
    options: [],
    handler: 'config.list',
    ignoresOutputSetting: true,
    examples: [ex('crm config list', 'every setting, the key masked')],
  },
  {
    name: 'sandbox_init',
    command: ['sandbox', 'init'],
    summary: 'Create the local sandbox database with demo data',
    args: [],
    options: [{ name: 'force', type: 'boolean', description: 'start again from fresh demo data if it exists' }],
    handler: 'sandbox.init',
    examples: [ex('crm sandbox init --force', 'start again from fresh demo data')],
  },
  {
    name: 'sandbox_serve',
    command: ['sandbox', 'serve'],
    summary: 'Serve the sandbox over HTTP on 127.0.0.1 (with the hourly scoring agent)',
    args: [],
    options: [{ name: 'port', type: 'integer', min: 0, max: 65535, description: 'port to listen on (default 4010; 0 picks a free one)' }],
    handler: 'sandbox.serve',
    examples: [ex('crm sandbox serve --port 0 --json', 'a free port; prints the URL and key as JSON', 'Ctrl-C to stop it (it serves until then)')],
  },
  {
    name: 'sandbox_reset',
    command: ['sandbox', 'reset'],
    summary: 'Replace every record of the local sandbox with fresh demo data (the key stays; safe while it is served)',
    args: [],
    options: DELETE_OPTIONS,
    handler: 'sandbox.reset',
    examples: [ex('crm sandbox reset --yes', 'start again from fresh demo data')],
  },
  {
    name: 'sandbox_status',
    command: ['sandbox', 'status'],
    summary: 'Show the sandbox database path, record counts and its local API key',
    args: [],
    options: [],
    handler: 'sandbox.status',
    examples: [ex('crm sandbox status', 'where the local data is, and how much')],
  },
  {
    name: 'api',
    command: ['api'],
    summary: 'Call any endpoint: crm api METHOD PATH (auth, retries and errors as for every command)',
    args: [
      { name: 'method', type: 'string', description: 'GET, POST, PATCH, PUT or DELETE', choices: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] },
      { name: 'path', type: 'string', description: 'path relative to the base URL, e.g. /contacts' },
    ],
    options: [
      { name: 'field', short: 'f', type: 'string', repeatable: true, description: 'a string field key=value (query for GET, body otherwise); repeatable' },
      { name: 'typed_field', short: 'F', type: 'string', repeatable: true, description: 'a typed field key=value: JSON value, or @file for its text; repeatable' },
      { name: 'input', type: 'file', description: 'request body from a file, or - for stdin' },
      { name: 'paginate', type: 'boolean', description: 'walk every page of a list (GET), streamed' },
      { name: 'raw', type: 'boolean', description: 'print the whole envelope, not only its data' },
    ],
    handler: 'api.run',
    defaultFormat: 'json',
    examples: [ex('crm api GET /contacts -f status=customer --paginate', 'every customer, raw'), ex("crm api POST /contacts -f name=Ada -f email=ada@example.com", 'create a contact')],
  },
  {
    name: 'mcp',
    command: ['mcp'],
    summary: 'Serve every endpoint as a tool for AI agents (Model Context Protocol on stdio)',
    args: [],
    options: [
      { name: 'read_only', type: 'boolean', description: 'leave out every tool that writes (only reads: list, get, search, analytics...)' },
      { name: 'toolsets', type: 'list', choices: GROUP_NAMES, description: 'only the tools of these groups, comma-separated' },
    ],
    handler: 'mcp.serve',
    examples: [
      ex('crm mcp', 'every endpoint as a tool, on the active profile (or the local sandbox)'),
      ex('crm mcp --read-only --toolsets contacts,deals,search', 'reading tools of three groups only'),
    ],
  },
  {
    name: 'completion',
    command: ['completion'],
    summary: 'Print the shell completion script for bash, zsh or fish',
    args: [{ name: 'shell', type: 'string', description: 'the shell', choices: ['bash', 'zsh', 'fish'] }],
    options: [],
    handler: 'completion.script',
    // The script itself, whatever CRM_OUTPUT or the profile say: it is sourced, not read.
    defaultFormat: 'tsv',
    examples: [
      ex('crm completion bash', 'the bash script; load it with `source <(crm completion bash)` in ~/.bashrc'),
      ex('crm completion zsh', 'the zsh script; save it as _crm in a folder of $fpath'),
      ex('crm completion fish', 'the fish script; save it as ~/.config/fish/completions/crm.fish'),
    ],
  },
  {
    name: 'watch',
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
      { name: 'forward_to', type: 'string', description: 'POST each new record as JSON to this URL (event id header, retries; a signature with --secret)', example: 'http://localhost:3000/hooks/crm' },
      { name: 'secret', type: 'string', description: 'sign forwarded records with HMAC-SHA256 in X-CRM-Signature (env CRM_WATCH_SECRET)' },
      { name: 'score', type: 'boolean', description: 'contacts: score each new contact (POST /ai/trigger, within its rate limit)' },
      {
        name: 'changes',
        type: 'boolean',
        description: 'emit created, updated (the fields before and after) and deleted events: each poll syncs the resource into the local replica (crm sync) and emits what changed',
      },
    ],
    handler: 'watch.run',
    printsResource: 'argument',
    // A change event's members, with --changes.
    printed: ['event_id', 'seq', 'event', 'resource', 'id', 'changed', 'changes', 'record', 'detected_at'],
    pipeFormat: 'ndjson',
    examples: [
      ex('crm watch contacts --interval 30s', 'a line for each new contact, as it arrives', 'Ctrl-C to stop it'),
      ex('crm watch deals --once --since-start --fields id,name', 'every deal there is, oldest first, then exit'),
      ex('crm watch deals --once --state deals-seen.json', 'from cron: what is new since the last run', 'a state file it may write'),
      ex('crm watch contacts --forward-to http://localhost:3000/hooks/crm', 'webhooks for a local app', 'a receiver at the URL, and Ctrl-C to stop it'),
      ex("crm watch contacts --exec 'jq -r .email >> new-emails.txt'", 'run a command for each new contact', 'jq, and Ctrl-C to stop it'),
      ex('crm watch deals --changes --once --since-start', 'every change the replica has logged for deals, then exit'),
      ex('crm watch deals --changes --state deal-changes.json --forward-to http://localhost:3000/hooks/crm', 'each deal created, updated (a stage move) or deleted, as a webhook', 'a receiver at the URL, and Ctrl-C to stop it'),
    ],
  },
  {
    name: 'sync',
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
      { name: 'new', type: 'boolean', description: 'only the records created since the last sync (each list from its head until a record held): a few requests; updates and deletions wait for a full sync' },
      { name: 'full', type: 'boolean', description: 'read every list whole: new records, updates and deletions (the default)' },
      { name: 'status', type: 'boolean', description: 'what the replica holds and when each table was synced; sends nothing' },
      { name: 'forget', type: 'boolean', description: "delete the profile's replica; sends nothing" },
    ],
    handler: 'sync.run',
    printed: ['resource', 'mode', 'added', 'changed', 'removed', 'records', 'requests', 'error', 'synced_at', 'new_synced_at', 'profile', 'path', 'deleted'],
    examples: [
      ex('crm sync', 'every table but notes: new records, updates and deletions, reported per table'),
      ex('crm sync --new', 'only the new records: a few requests (cron, every few minutes)'),
      ex('crm sync contacts notes', "contacts and their notes (a request per contact)"),
      ex('crm sync --status', 'what the replica holds and how old it is'),
      ex('crm sync --forget', "delete the profile's replica"),
    ],
  },
  {
    name: 'query',
    command: ['query'],
    summary: 'Run read-only SQL on the local replica (crm sync keeps it): joins, GROUP BY, offline',
    args: [{ name: 'sql', type: 'string', optional: true, description: 'one SQL statement that reads (SELECT, WITH, VALUES, EXPLAIN, PRAGMA); - reads it from stdin' }],
    options: [
      { name: 'file', type: 'file', description: 'read the SQL from this file (- for stdin)' },
      { name: 'fresh', type: 'boolean', description: 'sync first (every table but notes, as `crm sync`)' },
      { name: 'schema', type: 'boolean', description: 'list the tables, views and columns' },
    ],
    handler: 'query.run',
    examples: [
      ex('crm query --fresh "SELECT stage_name, count(*) AS deals, sum(weighted_value) AS weighted FROM deals_with_stage GROUP BY stage_name"', 'the pipeline, weighted, after a sync'),
      ex(`crm query "SELECT a.name, sum(d.amount) AS open_value FROM deals d JOIN accounts a ON a.id = d.account_id WHERE d.status = 'open' GROUP BY a.id HAVING open_value > 10000"`, 'accounts with open deals over 10k', 'a replica: crm sync first'),
      ex("crm query \"SELECT * FROM changes WHERE resource = 'deals' AND event = 'updated'\" -o ndjson", 'every deal change the syncs found', 'a replica: crm sync first'),
      ex('crm query --schema', 'the tables, views and columns'),
    ],
  },
  {
    name: 'contacts_import',
    command: ['contacts', 'import'],
    summary: 'Create contacts from a CSV or NDJSON file: every row checked first, sent concurrently, resumable',
    args: [{ name: 'file', type: 'file', description: 'a CSV file with a header row, an NDJSON file, or - for stdin' }],
    options: [
      { name: 'format', type: 'string', description: 'input format (default: from the file name, else from its first character)', choices: IMPORT_FORMATS },
      { name: 'encoding', type: 'string', description: 'the file\'s encoding when it is not UTF-8: cp1252 (a spreadsheet\'s "CSV" saved on Windows) or latin1', choices: TEXT_ENCODINGS },
      { name: 'map', type: 'string', repeatable: true, description: 'read column COLUMN into contact field FIELD: COLUMN=FIELD (repeatable)', example: 'E-mail=email' },
      { name: 'concurrency', type: 'integer', min: 1, max: 32, description: 'requests at a time (default 4)' },
      { name: 'upsert', type: 'boolean', description: "update the contact that has the row's email (or an earlier row's) instead of creating another" },
      { name: 'score', type: 'boolean', description: 'score each created contact (POST /ai/trigger, within its rate limit)' },
      { name: 'errors', type: 'file', description: 'write invalid and failed rows to this CSV file, with their line number and the reason' },
      { name: 'checkpoint', type: 'file', description: 'where progress is recorded (default: beside the input, FILE.crm-checkpoint)' },
      { name: 'resume', type: 'boolean', description: 'continue from the checkpoint: retry what did not succeed, never create a row twice' },
    ],
    handler: 'contacts.import',
    // The report; a dry run's rows also carry the contact's fields.
    printed: ['line', 'ok', 'result', 'id', 'email', 'error'],
    printsResource: 'contact',
    examples: [
      ex('crm contacts import contacts.csv --errors errors.csv', 'import a spreadsheet; rows that fail go to errors.csv', 'a contacts.csv file'),
      ex('crm contacts import contacts.csv --resume', 'finish an interrupted or partly failed import', 'a contacts.csv file'),
      ex('crm contacts export --format ndjson | crm contacts import - --dry-run', 'check every row, send nothing'),
      ex('crm contacts export --format ndjson | crm contacts import - --upsert', 'update the contacts that have these emails (create the others)'),
    ],
  },
  {
    name: 'contacts_export',
    command: ['contacts', 'export'],
    summary: 'Write every contact as CSV, NDJSON or JSON, page by page in constant memory',
    args: [],
    options: [{ name: 'format', type: 'string', description: 'output format (default csv; the same as -o)', choices: EXPORT_FORMATS }, ...RESOURCES.contact.filters],
    handler: 'contacts.export',
    printsResource: 'contact',
    defaultFormat: 'csv',
    formatOption: 'format',
    examples: [
      ex('crm contacts export', 'every contact as CSV, with a header row'),
      ex('crm contacts export --format ndjson --status customer', 'every customer, one JSON record a line'),
    ],
  },
];
