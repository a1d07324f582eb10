// Commands that are not one endpoint of the service: auth, profiles, config, the sandbox, raw API
// access. Data only: the code is in local-handlers.ts, loaded when a command runs.

import type { Context } from '../cli/context.js';

export interface LocalInput {
  args: unknown[];
  options: Record<string, unknown>;
}

export type LocalHandler = (ctx: Context, input: LocalInput) => Promise<void>;

export type LocalHandlerName =
  | 'auth.login' | 'auth.status' | 'auth.logout'
  | 'profiles.list' | 'profiles.use' | 'profiles.remove'
  | 'config.get' | 'config.set' | 'config.list'
  | 'sandbox.init' | 'sandbox.serve' | 'sandbox.reset' | 'sandbox.status'
  | 'api.run';

export interface LocalCommand {
  command: string[];
  summary: string;
  aliases?: string[];
  args?: Array<{ spec: string; description: string }>;
  options?: Array<{ flags: string; description: string; repeatable?: boolean }>;
  /** Key of its code in LOCAL_HANDLERS (src/commands/local-handlers.ts). */
  handler: LocalHandlerName;
}

export const LOCAL_GROUPS: ReadonlyArray<[string, string]> = [
  ['auth', 'Log in to a workspace, check or remove the stored key'],
  ['profiles', 'Stored workspaces: list, switch, remove'],
  ['config', 'Settings of the active profile'],
  ['sandbox', 'The local sandbox workspace (embedded default and test server)'],
];

export const LOCAL_COMMANDS: readonly LocalCommand[] = [
  {
    command: ['auth', 'login'],
    summary: 'Store an API key for a workspace (verified before it is saved)',
    options: [{ flags: '--with-key', description: 'read the key from stdin instead of prompting' }],
    handler: 'auth.login',
  },
  {
    command: ['auth', 'status'],
    summary: 'Show the profile, base URL, key (last 4 characters) and whether it works',
    handler: 'auth.status',
  },
  {
    command: ['auth', 'logout'],
    summary: "Remove the profile's stored key",
    handler: 'auth.logout',
  },
  {
    command: ['profiles', 'list'],
    aliases: ['ls'],
    summary: 'List stored profiles',
    handler: 'profiles.list',
  },
  {
    command: ['profiles', 'use'],
    summary: 'Make a profile the active one',
    args: [{ spec: '<name>', description: 'profile name (sandbox: the local workspace)' }],
    handler: 'profiles.use',
  },
  {
    command: ['profiles', 'remove'],
    aliases: ['rm'],
    summary: 'Remove a stored profile and its key',
    args: [{ spec: '<name>', description: 'profile name' }],
    handler: 'profiles.remove',
  },
  {
    command: ['config', 'get'],
    summary: 'Print one setting of the active profile',
    args: [{ spec: '<key>', description: 'base_url, output, timeout or api_key (masked)' }],
    handler: 'config.get',
  },
  {
    command: ['config', 'set'],
    summary: 'Change one setting of the active profile',
    args: [
      { spec: '<key>', description: 'base_url, output or timeout' },
      { spec: '<value>', description: 'the new value' },
    ],
    handler: 'config.set',
  },
  {
    command: ['config', 'list'],
    aliases: ['ls'],
    summary: 'Print every setting of the active profile',
    handler: 'config.list',
  },
  {
    command: ['sandbox', 'init'],
    summary: 'Create the local sandbox database with demo data',
    options: [{ flags: '--force', description: 'start again from fresh demo data if it exists' }],
    handler: 'sandbox.init',
  },
  {
    command: ['sandbox', 'serve'],
    summary: 'Serve the sandbox over HTTP on 127.0.0.1 (with the hourly scoring agent)',
    options: [{ flags: '--port <port>', description: 'port to listen on (default 4010; 0 picks a free one)' }],
    handler: 'sandbox.serve',
  },
  {
    command: ['sandbox', 'reset'],
    summary: 'Delete the local sandbox database (demo data is seeded again on next use)',
    options: [{ flags: '-y, --yes', description: 'do not ask for confirmation' }],
    handler: 'sandbox.reset',
  },
  {
    command: ['sandbox', 'status'],
    summary: 'Show the sandbox database path, record counts and its local API key',
    handler: 'sandbox.status',
  },
  {
    command: ['api'],
    summary: 'Call any endpoint: crm api METHOD PATH (auth, retries and errors as for every command)',
    args: [
      { spec: '<method>', description: 'GET, POST, PATCH, PUT or DELETE' },
      { spec: '<path>', description: 'path relative to the base URL, e.g. /contacts' },
    ],
    options: [
      { flags: '-f, --field <key=value>', description: 'a string field (query for GET, body otherwise); repeatable', repeatable: true },
      { flags: '-F, --typed-field <key=value>', description: 'a typed field: JSON value, or @file for its text; repeatable', repeatable: true },
      { flags: '--input <file>', description: 'request body from a file, or - for stdin' },
      { flags: '--paginate', description: 'walk every page of a list (GET)' },
      { flags: '--raw', description: 'print the whole envelope, not only its data' },
    ],
    handler: 'api.run',
  },
];
