// Commands that are not one endpoint of the service: auth, profiles, config, the sandbox, raw API
// access. Data only; each command's code is imported when it runs.

import type { Context } from '../cli/context.js';

export interface LocalInput {
  args: unknown[];
  options: Record<string, unknown>;
}

export type LocalHandler = (ctx: Context, input: LocalInput) => Promise<void>;

export interface LocalCommand {
  command: string[];
  summary: string;
  aliases?: string[];
  args?: Array<{ spec: string; description: string }>;
  options?: Array<{ flags: string; description: string; repeatable?: boolean }>;
  load: () => Promise<LocalHandler>;
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
    load: async () => (await import('./auth.js')).login,
  },
  {
    command: ['auth', 'status'],
    summary: 'Show the profile, base URL, key (last 4 characters) and whether it works',
    load: async () => (await import('./auth.js')).status,
  },
  {
    command: ['auth', 'logout'],
    summary: "Remove the profile's stored key",
    load: async () => (await import('./auth.js')).logout,
  },
  {
    command: ['profiles', 'list'],
    aliases: ['ls'],
    summary: 'List stored profiles',
    load: async () => (await import('./profiles.js')).list,
  },
  {
    command: ['profiles', 'use'],
    summary: 'Make a profile the active one',
    args: [{ spec: '<name>', description: 'profile name (sandbox: the local workspace)' }],
    load: async () => (await import('./profiles.js')).use,
  },
  {
    command: ['profiles', 'remove'],
    aliases: ['rm'],
    summary: 'Remove a stored profile and its key',
    args: [{ spec: '<name>', description: 'profile name' }],
    load: async () => (await import('./profiles.js')).remove,
  },
  {
    command: ['config', 'get'],
    summary: 'Print one setting of the active profile',
    args: [{ spec: '<key>', description: 'base_url, output, timeout or api_key (masked)' }],
    load: async () => (await import('./config.js')).get,
  },
  {
    command: ['config', 'set'],
    summary: 'Change one setting of the active profile',
    args: [
      { spec: '<key>', description: 'base_url, output or timeout' },
      { spec: '<value>', description: 'the new value' },
    ],
    load: async () => (await import('./config.js')).set,
  },
  {
    command: ['config', 'list'],
    aliases: ['ls'],
    summary: 'Print every setting of the active profile',
    load: async () => (await import('./config.js')).list,
  },
  {
    command: ['sandbox', 'init'],
    summary: 'Create the local sandbox database with demo data',
    options: [{ flags: '--force', description: 'start again from fresh demo data if it exists' }],
    load: async () => (await import('./sandbox.js')).init,
  },
  {
    command: ['sandbox', 'serve'],
    summary: 'Serve the sandbox over HTTP on 127.0.0.1 (with the hourly scoring agent)',
    options: [{ flags: '--port <port>', description: 'port to listen on (default 4010; 0 picks a free one)' }],
    load: async () => (await import('./sandbox.js')).serve,
  },
  {
    command: ['sandbox', 'reset'],
    summary: 'Delete the local sandbox database (demo data is seeded again on next use)',
    options: [{ flags: '-y, --yes', description: 'do not ask for confirmation' }],
    load: async () => (await import('./sandbox.js')).reset,
  },
  {
    command: ['sandbox', 'status'],
    summary: 'Show the sandbox database path, record counts and its local API key',
    load: async () => (await import('./sandbox.js')).status,
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
    load: async () => (await import('./api.js')).run,
  },
];
