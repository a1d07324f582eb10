// What every command shares: the global flags, the environment crm reads, its exit codes and output
// formats. One description each, read by the command tree, the help topics, the completions and
// the docs; a test holds the README's tables and the CLI's exit codes to them.

import type { FieldSpec } from './types.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;

/** --timeout (and the profile's timeout setting): seconds a request may take. */
export const TIMEOUT_DEFAULT_SECONDS = 30;
export const TIMEOUT_MAX_SECONDS = 86_400;

/** Flags every command takes (commander's keys: --base-url → baseUrl, --no-input → input: false). */
export const GLOBAL_OPTIONS: readonly FieldSpec[] = [
  { name: 'json', type: 'boolean', description: 'machine output: JSON (same as -o json)' },
  { name: 'output', short: 'o', type: 'string', placeholder: 'format', choices: OUTPUT_FORMATS, description: 'output format' },
  { name: 'fields', type: 'list', description: 'comma-separated fields to keep, in this order (an unknown name is exit 2); --json a,b is --json --fields a,b' },
  {
    name: 'jq',
    type: 'string',
    placeholder: 'expression',
    description: 'filter the JSON output with a jq expression (jq 1.8); implies --json; a string result prints as its text; with -o ndjson each record is filtered as it arrives',
  },
  { name: 'escape_formulas', type: 'boolean', description: "csv: prefix ' to cells that begin with = + - @ (or a tab or CR), which a spreadsheet would run as formulas (contacts import --unescape-formulas reads them back)" },
  { name: 'quiet', short: 'q', type: 'boolean', description: 'print only ids (list, create; a bulk command: the ids that succeeded); nothing for other commands' },
  { name: 'profile', type: 'string', placeholder: 'name', known: 'profiles', description: 'stored workspace profile to use (env CRM_PROFILE)' },
  { name: 'base_url', type: 'string', placeholder: 'url', description: 'service base URL, overrides the profile (env CRM_BASE_URL)' },
  { name: 'no_input', type: 'boolean', description: 'never prompt; fail naming the missing flags (env CRM_NO_INPUT=1)' },
  { name: 'no_color', type: 'boolean', description: 'no colour (env NO_COLOR; FORCE_COLOR forces it)' },
  { name: 'debug', type: 'boolean', description: 'trace requests and responses on stderr, key redacted (env CRM_DEBUG=1)' },
  { name: 'dry_run', type: 'boolean', description: 'print the requests that would be sent, and send nothing but the reads they depend on' },
  { name: 'timeout', type: 'number', placeholder: 'seconds', description: `per-request timeout in seconds (default ${TIMEOUT_DEFAULT_SECONDS}, at most ${TIMEOUT_MAX_SECONDS})` },
  { name: 'wait', type: 'boolean', description: 'wait out a long Retry-After instead of exiting 5' },
  { name: 'insecure', type: 'boolean', description: 'allow sending the API key over plain HTTP to a non-local host' },
];

/** commander's own flags: help on every command, the version on `crm`. */
export const HELP_FLAG: FieldSpec = { name: 'help', short: 'h', type: 'boolean', description: 'show help' };
export const VERSION_FLAG: FieldSpec = { name: 'version', short: 'V', type: 'boolean', description: 'print the version' };

interface Described {
  name: string;
  description: string;
}

export const ENVIRONMENT: readonly Described[] = [
  { name: 'CRM_API_KEY', description: "API key; overrides the profile's (needs a base URL from CRM_BASE_URL, --base-url or the profile)" },
  { name: 'CRM_BASE_URL', description: 'service base URL (as --base-url)' },
  { name: 'CRM_PROFILE', description: 'profile to use (as --profile)' },
  { name: 'CRM_OUTPUT', description: 'default output format: table, json, ndjson, csv or tsv' },
  { name: 'CRM_NO_INPUT', description: '1: never prompt (as --no-input)' },
  { name: 'CRM_DEBUG', description: '1: trace requests on stderr, key redacted (as --debug)' },
  { name: 'CRM_CONFIG_DIR', description: 'where config.json lives (default $XDG_CONFIG_HOME/crm, else ~/.config/crm)' },
  { name: 'CRM_DATA_DIR', description: 'where the sandbox database and the replicas of crm sync live (default $XDG_DATA_HOME/crm, else ~/.local/share/crm)' },
  { name: 'CRM_SQLITE', description: "the sandbox's SQLite: node:sqlite or better-sqlite3 (default: node:sqlite where Node has it, else better-sqlite3)" },
  { name: 'XDG_CACHE_HOME', description: "shell completion's caches and V8's compiled code of crm (v8/) live in its crm folder (default ~/.cache/crm)" },
  { name: 'NODE_COMPILE_CACHE', description: "Node's name, read by crm too: V8's compiled code of crm is kept in its crm folder instead (a command starts 10-25 ms sooner with it)" },
  { name: 'NODE_DISABLE_COMPILE_CACHE', description: "Node's: 1 keeps no compiled code between runs (every start compiles crm afresh, 15-25 ms more)" },
  { name: 'CRM_WATCH_SECRET', description: 'crm watch --forward-to: sign each delivery with this secret (as --secret)' },
  { name: 'CRM_READ_ONLY', description: 'crm mcp: 1 serves only the tools that read (as --read-only)' },
  { name: 'CRM_TOOLSETS', description: 'crm mcp: only the tools of these groups, comma-separated (as --toolsets)' },
  { name: 'HTTPS_PROXY', description: 'proxy for https:// workspaces (https_proxy too): requests go through it in a CONNECT tunnel' },
  { name: 'HTTP_PROXY', description: 'proxy for http:// URLs, and for https:// when HTTPS_PROXY is not set (http_proxy too)' },
  { name: 'NO_PROXY', description: 'hosts reached directly, comma-separated (no_proxy too; * for all); this machine always is' },
  { name: 'NODE_EXTRA_CA_CERTS', description: 'a PEM file of certificate authorities to trust as well (a private CA)' },
  { name: 'VISUAL', description: 'the editor a long text is written in at a terminal (a note without --body), unless TERM is dumb' },
  { name: 'EDITOR', description: 'the editor when VISUAL is not set (default vi; on a dumb terminal, none)' },
  { name: 'NO_COLOR', description: 'set: no colour' },
  { name: 'FORCE_COLOR', description: 'set (not 0): colour even into a pipe, but for JSON, which a pipe gets plain (CI sets FORCE_COLOR for all)' },
  { name: 'TERM', description: 'dumb: no colour (unless FORCE_COLOR), no spinner or progress bar, EDITOR rather than VISUAL' },
];

interface ExitCodeSpec {
  /** How the code reads in the source: ExitCode.notFound (src/cli/errors.ts). */
  name: string;
  code: number;
  meaning: string;
}

export const EXIT_CODES = [
  { name: 'ok', code: 0, meaning: 'success (an empty list is a success)' },
  { name: 'service', code: 1, meaning: 'the service answered with an error not covered below (a redirect included), a walk of a list that changed faster than it could follow (walk_outpaced) or whose records created at one instant the service lists in another order for each page (walk_unordered), a --jq expression that failed on the data (jq_error), or an unexpected failure (stdout cannot be written)' },
  { name: 'usage', code: 2, meaning: 'invalid usage or input, caught before anything was sent' },
  { name: 'auth', code: 3, meaning: 'authentication or permission (401, 403, no key configured)' },
  { name: 'notFound', code: 4, meaning: 'not found (404)' },
  { name: 'rateLimited', code: 5, meaning: 'rate limited (429) after the allowed retries, or a 429 or 503 whose Retry-After is longer than crm may wait' },
  { name: 'network', code: 6, meaning: 'network: unreachable, reset, timed out, cut short, TLS; a malformed response (not JSON, no list, a 2xx without the record asked for)' },
  { name: 'partial', code: 7, meaning: 'partial failure in a bulk command (some items failed; see its report; a get of several: some not read, each named on stderr; contacts import: a row not imported; crm sync: a table not synced; crm status and a view: a part not read, the others shown)' },
  { name: 'interrupted', code: 130, meaning: 'interrupted (Ctrl-C or SIGTERM, or a prompt or confirmation declined; SIGTERM to contacts import or a command acting on several records after its report; crm watch, crm mcp and crm sandbox serve exit 0 on SIGTERM)' },
] as const satisfies readonly ExitCodeSpec[];

/** `crm help TOPIC`. */
export const HELP_TOPICS = ['environment', 'exit-codes', 'output', 'flags'] as const;

export const FORMAT_DESCRIPTIONS: Readonly<Record<(typeof OUTPUT_FORMATS)[number], string>> = {
  table: 'default on a terminal: columns that fit its width, times relative, ids in full',
  tsv: 'default in a pipe: one record a line, no header, ISO times; one record as key<TAB>value lines',
  json: '--json: an array for lists ([] when empty), an object for one record, 2-space indent',
  ndjson: 'one JSON record a line; --all streams as pages arrive',
  csv: 'RFC 4180 with a header row (an empty list too); nested values as JSON text',
};
