// The command tree: every group with its description, and every command in help order. The entry
// builds commander's tree from this, and so do the completions, the docs and `crm help`. A new
// command is a new folder (its command.ts and, with behaviour, run.ts) and one line here or in its
// group's file (docs/architecture.md).

import api from './api/command.js';
import login from './auth/login/command.js';
import logout from './auth/logout/command.js';
import authStatus from './auth/status/command.js';
import type { Command, Tree } from './command.js';
import completion from './completion/command.js';
import configGet from './config/get/command.js';
import configList from './config/list/command.js';
import configSet from './config/set/command.js';
import configUnset from './config/unset/command.js';
import mcp from './mcp/command.js';
import profilesList from './profiles/list/command.js';
import profilesRemove from './profiles/remove/command.js';
import profilesUse from './profiles/use/command.js';
import sandboxInit from './sandbox/init/command.js';
import sandboxReset from './sandbox/reset/command.js';
import sandboxServe from './sandbox/serve/command.js';
import sandboxStatus from './sandbox/status/command.js';
import query from './query/command.js';
import { SERVICE_COMMANDS } from './service.js';
import status from './status/command.js';
import sync from './sync/command.js';
import watch from './watch/command.js';

export const COMMANDS: readonly Command[] = [
  status,
  ...SERVICE_COMMANDS,
  login,
  authStatus,
  logout,
  profilesList,
  profilesUse,
  profilesRemove,
  configGet,
  configSet,
  configUnset,
  configList,
  sandboxInit,
  sandboxServe,
  sandboxReset,
  sandboxStatus,
  api,
  mcp,
  completion,
  watch,
  sync,
  query,
];

/** The command groups and their one-line descriptions, in help order. */
export const GROUPS: ReadonlyArray<readonly [string, string]> = [
  ['contacts', 'Contacts, their notes, tasks and sequence enrolment'],
  ['contacts notes', "A contact's notes"],
  ['contacts tasks', "A contact's tasks"],
  ['accounts', 'Accounts (companies)'],
  ['deals', 'Deals and their stage moves'],
  ['sequences', 'Sequences and bulk enrolment'],
  ['tasks', 'Tasks'],
  ['pipeline', 'Pipeline stages and per-stage totals'],
  ['ai', 'AI suggestions and scoring'],
  ['auth', 'Log in to a workspace, check or remove the stored key'],
  ['profiles', 'Stored workspaces: list, switch, remove'],
  ['config', 'Settings of the active profile'],
  ['sandbox', 'The local sandbox workspace (embedded default and test server)'],
];

/** The whole tree, as the handlers that describe it get it (completion scripts, MCP tools). */
export const TREE: Tree = { commands: COMMANDS, groups: GROUPS };
