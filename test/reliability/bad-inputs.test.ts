// Bad input across every command: flags, values, ids that could name another path, control
// characters, files, --data, --set keys, prototype names wherever a name is read. Each one is exit 2
// with one `crm:` line naming the problem, and nothing sent (the workspace's request log stays empty).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { recordFigure } from '../helpers/evidence.js';
import { BASE_URL, homeEnv, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const files = mkdtempSync(join(tmpdir(), 'crm-bad-inputs-'));
const file = (name: string, text: string) => {
  const path = join(files, name);
  writeFileSync(path, text);
  return path;
};
const NDJSON = file('records.ndjson', '{"name":"A","email":"a@example.com"}\n{"name":"B","email":"b@example.com"}\n');
const CSV = file('records.csv', 'name,email\nAda,ada@example.com\n');
const EMPTY = file('empty.txt', '');
const PROTO = file('proto.json', '{"name":"P","email":"p@example.com","__proto__":{"admin":true}}');
const OBJECTS = file('objects.json', '[{"name":"Ada"}]');
const TRAVERSAL_IDS = file('traversal.json', '["con_1", "../deals"]');
const SPACED_IDS = file('spaced.txt', 'con_1\ncon 2\n');
const MISSING = join(files, 'missing.json');

const { contact, deal, sequence, task, account } = DEMO;
const ESC = '\u001b[2J';

interface BadInput {
  argv: string[];
  /** What the message must name. */
  names: string | RegExp;
  stdin?: string;
  env?: NodeJS.ProcessEnv;
  /** Run without --json (which would override what is being tested). */
  plain?: boolean;
}

const bad = (names: string | RegExp, ...argv: string[]): BadInput => ({ argv, names });
const withStdin = (stdin: string, names: string | RegExp, ...argv: string[]): BadInput => ({ argv, names, stdin });
const withEnv = (env: NodeJS.ProcessEnv, names: string | RegExp, ...argv: string[]): BadInput => ({ argv, names, env });

/** Ids that could name another path, or are not one id. */
const BAD_IDS: Array<[string, string | RegExp]> = [
  ['', 'invalid ID ""'],
  ['.', 'invalid ID "."'],
  ['..', 'invalid ID ".."'],
  ['a/b', 'holds no "/"'],
  ['../deals', 'holds no "/"'],
  ['con\\..\\x', 'holds no "\\"'],
  ['con?limit=1', 'holds no "?"'],
  ['con#top', 'holds no "#"'],
  ['con 1', 'holds no whitespace'],
  ['con\t1', 'holds a control character'],
  ['con\n1', 'holds a control character'],
  [`con${ESC}`, 'holds a control character'],
  ['con\u0000', 'holds a control character'],
  ['con\u007f', 'holds a control character'],
  ['con\u009b1', 'holds a control character'],
];

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype'];

const CASES: BadInput[] = [
  // Global flags and their variables, checked before any command runs.
  bad('invalid --output "xml"', 'contacts', 'list', '-o', 'xml'),
  bad('invalid --output ""', 'contacts', 'list', '--output', ''),
  bad('--json and --output csv ask for different formats', 'contacts', 'list', '--json', '-o', 'csv'),
  bad('--fields needs at least one field name', 'contacts', 'list', '--fields', ''),
  bad('--fields needs at least one field name', 'contacts', 'list', '--fields', ', ,'),
  ...PROTOTYPE_NAMES.map((name) => bad(`--fields: "${name}" is not allowed`, 'contacts', 'list', '--fields', `id,${name}`)),
  ...['0', '-1', 'abc', '', ' ', 'Infinity', 'NaN', '86401', '3000000', '1e9'].map((value) => bad(`invalid --timeout "${value}"`, 'contacts', 'list', '--timeout', value)),
  ...['__proto__', 'constructor', 'toString', 'nope'].map((name) => bad(`unknown profile "${name}"`, '--profile', name, 'contacts', 'list')),
  bad('invalid base URL: ftp://crm.example.com (scheme must be http or https)', '--base-url', 'ftp://crm.example.com', 'contacts', 'list'),
  bad('invalid base URL: not a url', '--base-url', 'not a url', 'contacts', 'list'),
  bad('no user or password in the URL', '--base-url', 'https://user:secret@crm.example.com', 'contacts', 'list'),
  bad('no query or fragment allowed', '--base-url', 'https://crm.example.com/api/v1?debug=1', 'contacts', 'list'),
  bad('refusing to send the API key over plain HTTP to crm.example.com', '--base-url', 'http://crm.example.com', 'contacts', 'list'),
  bad('refusing to send the API key over plain HTTP to crm.localhost', '--base-url', 'http://crm.localhost', 'contacts', 'list'),
  bad('refusing to send the API key over plain HTTP to 10.0.0.1', '--base-url', 'http://10.0.0.1', 'contacts', 'list'),
  bad("unknown option '--nope'", 'contacts', 'list', '--nope'),
  bad("unknown command 'contact'", 'contact', 'list'),
  bad("unknown command 'lists'", 'contacts', 'lists'),
  { ...withEnv({ CRM_OUTPUT: 'xml' }, 'invalid CRM_OUTPUT "xml"', 'contacts', 'list'), plain: true },
  withEnv({ CRM_PROFILE: '__proto__' }, 'unknown profile "__proto__"', 'contacts', 'list'),
  withEnv({ CRM_BASE_URL: 'javascript:alert(1)' }, 'invalid base URL: javascript:alert(1)', 'contacts', 'list'),
  withEnv({ CRM_API_KEY: 'sbx_test_with\nnewline' }, 'the API key cannot be sent', 'contacts', 'list'),
  withEnv({ CRM_API_KEY: 'sbx_test_\u0000null' }, 'the API key cannot be sent', 'contacts', 'list'),

  // Paging.
  ...['0', '-5', '1.5', 'abc', '', '9007199254740993'].map((value) => bad(`invalid --limit "${value}"`, 'contacts', 'list', '--limit', value)),
  ...['-1', 'x', '2.5'].map((value) => bad(`invalid --offset "${value}"`, 'contacts', 'list', '--offset', value)),
  bad('--all and --limit cannot be used together', 'contacts', 'list', '--all', '--limit', '5'),
  bad('invalid --limit "0"', 'deals', 'list', '-L', '0'),
  bad('invalid --limit "0"', 'ai', 'suggestions', '--limit', '0'),
  bad('invalid --limit "0"', 'contacts', 'notes', 'list', contact, '--limit', '0'),

  // Ids, as arguments of every kind of command.
  ...BAD_IDS.map(([id, names]) => bad(names, 'contacts', 'get', id)),
  ...BAD_IDS.slice(0, 9).map(([id, names]) => bad(names, 'contacts', 'delete', id, '--yes')),
  bad('holds no "/"', 'contacts', 'update', 'a/b', '--name', 'X'),
  bad('invalid ID ".."', 'contacts', 'notes', 'list', '..'),
  bad('holds no "/"', 'contacts', 'notes', 'add', 'x/y', '--body', 'hi'),
  bad('holds no "?"', 'contacts', 'tasks', 'add', 'con?x', '--title', 'T'),
  bad('invalid ID ".."', 'contacts', 'enroll', '..', '--sequence', sequence),
  bad('invalid ID ".."', 'accounts', 'get', '..'),
  bad('holds no "#"', 'deals', 'get', 'deal#1'),
  bad('invalid ID ".."', 'deals', 'stage', '..', 'proposal'),
  bad('holds no "/"', 'sequences', 'get', 'seq/1'),
  bad('invalid ID ".."', 'sequences', 'contacts', '..'),
  bad('invalid ID ".."', 'sequences', 'enroll', '..', contact),
  bad('holds no "/"', 'tasks', 'update', '../x', '--title', 'T'),
  bad('invalid CONTACT_ID ".."', 'ai', 'trigger', '..'),
  bad('holds no whitespace', 'ai', 'trigger', 'con 1'),
  // Ids as flag values and in lists.
  bad('invalid --sequence ".."', 'contacts', 'enroll', contact, '--sequence', '..'),
  bad('invalid --sequence "seq 1" (an id holds no whitespace)', 'contacts', 'enroll', contact, '--sequence', 'seq 1'),
  bad('invalid --list-id "a/b"', 'contacts', 'list', '--list-id', 'a/b'),
  // An empty filter ("$STATUS" unset) would select every record, to be piped into a delete.
  bad('invalid --status "" (an empty filter)', 'contacts', 'list', '--status', ''),
  bad('invalid --search " " (an empty filter)', 'contacts', 'list', '--search', ' '),
  bad('invalid --status "" (an empty filter)', 'contacts', 'export', '--status', ''),
  bad('invalid --stage "" (an empty filter)', 'deals', 'list', '--stage', ''),
  bad('invalid --priority "" (an empty filter)', 'tasks', 'list', '--priority', ''),
  bad('invalid --type "" (an empty filter)', 'ai', 'suggestions', '--type', ''),
  bad('invalid --account-id', 'deals', 'list', '--account-id', `acc${ESC}`),
  bad('invalid --contact-id ".."', 'tasks', 'list', '--contact-id', '..'),
  bad('holds no "/"', 'tasks', 'complete', task, 'task/2'),
  bad('invalid ID ".."', 'tasks', 'complete', '..'),
  bad('holds no whitespace', 'ai', 'accept', 'sug 1'),
  bad('holds no "/"', 'sequences', 'enroll', sequence, contact, 'con/2'),

  // Required values and commander's own checks.
  bad("missing required argument 'ids'", 'contacts', 'get'),
  bad("too many arguments for 'view'", 'contacts', 'view', contact, 'extra'),
  bad("missing required argument 'query'", 'search'),
  bad("missing required argument 'contact_id'", 'ai', 'trigger'),
  bad("missing required argument 'ids'", 'tasks', 'complete'),
  bad("option '-L, --limit <n>' argument missing", 'contacts', 'list', '--limit'),
  bad('missing required --name, --email', 'contacts', 'create'),
  bad('missing required --name', 'contacts', 'create', '--email', 'a@example.com'),
  bad('missing required --name', 'contacts', 'create', '--name', '  ', '--email', 'a@example.com'),
  bad('missing required --name', 'accounts', 'create'),
  bad('missing required --name', 'deals', 'create'),
  bad('missing required --name', 'sequences', 'create'),
  bad('missing required --title', 'tasks', 'create'),
  bad('missing required --body', 'contacts', 'notes', 'add', contact),
  bad('missing required --title', 'contacts', 'tasks', 'add', contact),
  bad('missing required --sequence', 'contacts', 'enroll', contact),
  bad('missing STAGE', 'deals', 'stage', deal),
  bad('missing suggestion ids', 'ai', 'accept'),
  bad('nothing to update', 'contacts', 'update', contact),
  bad('nothing to update', 'accounts', 'update', account),
  bad('nothing to update', 'tasks', 'update', task),
  bad(`refusing to delete contact ${contact} without confirmation`, 'contacts', 'delete', contact),
  bad(`refusing to delete deal ${deal} without confirmation`, 'deals', 'delete', deal),

  // Typed values.
  ...['not-an-email', '', 'a@', '@example.com', 'a b@example.com'].map((email) => bad(`invalid email "${email}"`, 'contacts', 'create', '--name', 'A', '--email', email)),
  bad('invalid email "nope"', 'contacts', 'update', contact, '--email', 'nope'),
  bad('email: invalid email "bad"', 'contacts', 'create', '--name', 'A', '--set', 'email=bad'),
  bad('email: invalid email "bad"', 'contacts', 'create', '--name', 'A', '--data', '{"email":"bad"}'),
  ...['-1', '1.5', 'many'].map((value) => bad(`invalid --employees "${value}"`, 'accounts', 'create', '--name', 'A', '--employees', value)),
  ...['abc', '-5', ''].map((value) => bad(`invalid --amount "${value}"`, 'deals', 'create', '--name', 'D', '--amount', value)),
  ...['tomorrowish', '2026-13-01', '2026-02-30', '01/12/2026'].map((value) => bad(`invalid --close-date "${value}"`, 'deals', 'create', '--name', 'D', '--close-date', value)),
  ...['next week', '+100000000d', '+3000000d', '+36526d', '', 'yesterday'].map((value) => bad(`invalid --due "${value}"`, 'contacts', 'tasks', 'add', contact, '--title', 'T', '--due', value)),
  bad('invalid --due "never"', 'tasks', 'create', '--title', 'T', '--due', 'never'),
  bad("too many arguments for 'list'", 'tasks', 'list', '--overdue', 'maybe'),
  ...['people', '', 'contacts,people'].map((value) => bad(`invalid --types "${value === 'contacts,people' ? 'people' : value}"`, 'search', 'globex', '--types', value)),
  ...['1y', '', '7'].map((value) => bad(`invalid --period "${value}"`, 'analytics', '--period', value)),
  bad('invalid JSON in --steps', 'sequences', 'create', '--name', 'S', '--steps', 'not json'),
  ...PROTOTYPE_NAMES.map((name) => bad(`--steps: "${name}" is not allowed as a field name`, 'sequences', 'create', '--name', 'S', '--steps', `[{"${name}": {}}]`)),

  // --data.
  bad('invalid JSON in --data (the argument)', 'contacts', 'create', '--data', '{bad json'),
  bad('--data must be a JSON object (the argument holds an array)', 'contacts', 'create', '--data', '[]'),
  bad('--data must be a JSON object (the argument holds string)', 'contacts', 'create', '--data', '"text"'),
  bad('--data must be a JSON object (the argument holds object)', 'contacts', 'create', '--data', 'null'),
  bad('--data must be a JSON object (the argument holds number)', 'contacts', 'create', '--data', '42'),
  ...PROTOTYPE_NAMES.map((name) => bad(`--data: "${name}" is not allowed as a field name`, 'contacts', 'create', '--data', `{"name":"A","email":"a@example.com","${name}":{"x":1}}`)),
  bad('--data: "constructor" is not allowed', 'deals', 'update', deal, '--data', '{"custom":{"nested":{"constructor":{"prototype":{}}}}}'),
  bad(`cannot read --data file ${MISSING}: no such file or directory`, 'contacts', 'create', '--data', `@${MISSING}`),
  bad('cannot read --data file : no such file or directory', 'contacts', 'create', '--data', '@'),
  bad(`cannot read --data file ${files}: is a directory`, 'contacts', 'create', '--data', `@${files}`),
  bad(`invalid JSON in --data (${NDJSON})`, 'contacts', 'create', '--data', `@${NDJSON}`),
  bad('invalid JSON in --data', 'contacts', 'create', '--data', `@${CSV}`),
  bad('invalid JSON in --data', 'contacts', 'create', '--data', `@${EMPTY}`),
  bad('--data: "__proto__" is not allowed as a field name', 'contacts', 'create', '--data', `@${PROTO}`),
  withStdin('not json', 'invalid JSON in --data (stdin)', 'contacts', 'create', '--data', '-'),
  withStdin('', 'invalid JSON in --data (stdin)', 'contacts', 'create', '--data', '-'),
  withStdin('{"a":1}\n{"b":2}\n', 'invalid JSON in --data (stdin)', 'contacts', 'create', '--data', '-'),
  withStdin('{"constructor":{"prototype":{"x":1}}}', '--data: "constructor" is not allowed', 'contacts', 'create', '--data', '-'),

  // --set keys and values.
  bad('invalid --set "novalue" (expected key=value)', 'contacts', 'create', '--set', 'novalue'),
  bad('invalid --set "=x" (expected key=value)', 'contacts', 'create', '--set', '=x'),
  bad('invalid --set "" (expected key=value)', 'contacts', 'update', contact, '--set', ''),
  bad('invalid --set key "a..b"', 'contacts', 'create', '--set', 'a..b=1'),
  bad('invalid --set key ".a"', 'contacts', 'create', '--set', '.a=1'),
  bad('invalid --set key "a."', 'contacts', 'create', '--set', 'a.=1'),
  ...PROTOTYPE_NAMES.map((name) => bad(`invalid --set key "${name}" ("${name}" is not allowed as a name)`, 'contacts', 'create', '--set', `${name}=1`)),
  ...PROTOTYPE_NAMES.map((name) => bad(`("${name}" is not allowed as a name)`, 'deals', 'update', deal, '--set', `custom.${name}.polluted=1`)),
  bad('--set: "__proto__" is not allowed as a field name', 'contacts', 'create', '--set', 'x={"__proto__":{"admin":true}}'),

  // Bulk ids from files and stdin.
  bad('no contact ids or emails given', 'sequences', 'enroll', sequence),
  withStdin('', 'no contact ids or emails given', 'sequences', 'enroll', sequence, '-'),
  withStdin('# only a comment\n\n', 'no contact ids or emails given', 'sequences', 'enroll', sequence, '-'),
  withStdin('["con_1",', 'invalid JSON array in stdin', 'sequences', 'enroll', sequence, '-'),
  withStdin('[{"name":"Ada"}]', 'stdin item 1: a record without an "id"', 'sequences', 'enroll', sequence, '-'),
  withStdin('con_1\n..\n', 'invalid id on stdin line 2 ".."', 'sequences', 'enroll', sequence, '-'),
  withStdin(`con_1\ncon_${ESC}\n`, 'invalid id on stdin line 2 (it holds a control character)', 'sequences', 'enroll', sequence, '-'),
  bad(`cannot read --file ${MISSING}: no such file or directory`, 'sequences', 'enroll', sequence, '--file', MISSING),
  bad(`${OBJECTS} item 1: a record without an "id"`, 'sequences', 'enroll', sequence, '--file', OBJECTS),
  bad('holds no "/"', 'sequences', 'enroll', sequence, '--file', TRAVERSAL_IDS),
  bad('holds no whitespace', 'sequences', 'enroll', sequence, '--file', SPACED_IDS),
  bad('no contact ids or emails given', 'sequences', 'enroll', sequence, '--file', EMPTY),
  bad('empty file name', 'sequences', 'enroll', sequence, '--file', ''),

  // crm api.
  bad('invalid METHOD "FETCH"', 'api', 'FETCH', '/contacts'),
  bad('give a path relative to the base URL, not a full URL', 'api', 'GET', 'https://evil.example/api/v1/contacts'),
  bad('(no . or .. segments)', 'api', 'GET', '/contacts/../admin'),
  bad('(no . or .. segments)', 'api', 'GET', '/%2e%2e/admin'),
  bad('(no . or .. segments)', 'api', 'GET', '/contacts/./x'),
  bad('the path holds a control character', 'api', 'GET', `/contacts${ESC}`),
  bad('invalid -f "novalue" (expected key=value)', 'api', 'GET', '/contacts', '-f', 'novalue'),
  ...PROTOTYPE_NAMES.map((name) => bad(`invalid -f key "${name}"`, 'api', 'GET', '/contacts', '-f', `${name}=1`)),
  ...PROTOTYPE_NAMES.map((name) => bad(`invalid -F key "x.${name}.y"`, 'api', 'POST', '/contacts', '-F', `x.${name}.y=1`)),
  bad('-F: "__proto__" is not allowed as a field name', 'api', 'POST', '/contacts', '-F', 'x={"__proto__":1}'),
  bad(`cannot read -F file ${MISSING}: no such file or directory`, 'api', 'POST', '/contacts', '-F', `note=@${MISSING}`),
  bad('field status: nested values cannot go in a query string', 'api', 'GET', '/contacts', '-F', 'status={"a":1}'),
  bad('--paginate works with GET only', 'api', 'POST', '/contacts', '--paginate'),
  bad(`cannot read --input ${MISSING}: no such file or directory`, 'api', 'POST', '/contacts', '--input', MISSING),
  bad(`invalid JSON in --input ${NDJSON}`, 'api', 'POST', '/contacts', '--input', NDJSON),
  withStdin('nope', 'invalid JSON in --input stdin', 'api', 'POST', '/contacts', '--input', '-'),
  withStdin('{"__proto__":{"admin":true}}', '--input: "__proto__" is not allowed as a field name', 'api', 'POST', '/contacts', '--input', '-'),

  // auth, profiles, config: names read from the user.
  withEnv({ CRM_BASE_URL: '' }, 'missing --base-url', 'auth', 'login', '--with-key'),
  bad('invalid base URL: ftp://crm.example.com', 'auth', 'login', '--base-url', 'ftp://crm.example.com', '--with-key'),
  withStdin('\n', '--with-key read an empty key from stdin', 'auth', 'login', '--base-url', 'https://crm.example.com', '--with-key'),
  bad('no key given', 'auth', 'login', '--base-url', 'https://crm.example.com'),
  withStdin('key_live_abc def', 'the API key contains whitespace', 'auth', 'login', '--base-url', 'https://crm.example.com', '--with-key'),
  withStdin('key_live_abc\ndef', 'the API key contains whitespace', 'auth', 'login', '--base-url', 'https://crm.example.com', '--with-key'),
  withStdin('key_live_abc\u0001def', 'the API key contains a control character', 'auth', 'login', '--base-url', 'https://crm.example.com', '--with-key'),
  withStdin('key_live_abcdefghijklmnop', 'refusing to send the API key over plain HTTP to crm.example.com', 'auth', 'login', '--base-url', 'http://crm.example.com', '--with-key'),
  withStdin('k', 'the sandbox profile uses its local key', 'auth', 'login', '--profile', 'sandbox', '--base-url', 'https://crm.example.com', '--with-key'),
  ...[...PROTOTYPE_NAMES, 'toString', 'bad name!', '-dash', 'a/b', 'x'.repeat(65)].map((name) =>
    withStdin('k', `invalid profile name "${name}"`, 'auth', 'login', '--profile', name, '--base-url', 'https://crm.example.com', '--with-key'),
  ),
  ...[...PROTOTYPE_NAMES, 'toString', 'hasOwnProperty'].map((name) => bad(`invalid profile name "${name}"`, 'profiles', 'use', name)),
  bad('unknown profile "nope"', 'profiles', 'use', 'nope'),
  bad('invalid profile name "a/b"', 'profiles', 'use', 'a/b'),
  bad('the sandbox profile is built in', 'profiles', 'remove', 'sandbox'),
  ...['__proto__', 'valueOf'].map((name) => bad(`invalid profile name "${name}"`, 'profiles', 'remove', name)),
  ...[...PROTOTYPE_NAMES, 'toString', 'nope'].map((name) => bad(`unknown setting "${name}"`, 'config', 'get', name)),
  ...['__proto__', 'hasOwnProperty'].map((name) => bad(`unknown setting "${name}"`, 'config', 'set', name, 'x')),
  bad('unknown setting "constructor"', 'config', 'unset', 'constructor'),
  bad('invalid output "xml"', 'config', 'set', 'output', 'xml'),
  ...['0', '86401', 'abc', ''].map((value) => bad(`invalid timeout "${value}"`, 'config', 'set', 'timeout', value)),
  bad('invalid base URL: ftp://x', 'config', 'set', 'base_url', 'ftp://x'),
  bad('api_key cannot be set here', 'config', 'set', 'api_key', 'x'),
  bad('api_key cannot be unset here', 'config', 'unset', 'api_key'),
  bad("missing required argument 'value'", 'config', 'set', 'output'),

  // The sandbox.
  ...['70000', '-1', 'abc'].map((value) => bad(`invalid --port "${value}"`, 'sandbox', 'serve', '--port', value)),
  bad('sandbox serve sends no requests; --dry-run does not apply', 'sandbox', 'serve', '--dry-run'),
  bad('refusing to delete the sandbox without confirmation', 'sandbox', 'reset'),
];

describe(`bad input (${CASES.length} cases)`, () => {
  it('has at least 150 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
    recordFigure('bad inputs', CASES.length);
  });

  const title = (input: BadInput) =>
    [...Object.entries(input.env ?? {}).map(([name, value]) => `${name}=${JSON.stringify(value)}`), ...input.argv.map((arg) => JSON.stringify(arg))].join(' ');
  it.each(CASES.map((input) => [title(input), input] as const))('%s: exit 2, the problem named, nothing sent', async (_, input) => {
    const env = { ...homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-'))), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, ...input.env };
    const result = await run(input.plain ? input.argv : [...input.argv, '--json'], { ws, env, stdin: input.stdin });
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines.filter((line) => line.startsWith('crm: '))).toHaveLength(1);
    if (typeof input.names === 'string') expect(lines[0]).toContain(input.names);
    else expect(lines[0]).toMatch(input.names);
    if (!input.plain) expect(JSON.parse(lines.at(-1)!).error).toMatchObject({ exit_code: 2 });
    expect(ws.requests()).toEqual([]);
  });
});
