// The local commands that most runs never use, in one chunk of the bundle loaded when one of them
// runs: `crm contacts list` need not parse import, export, watch, sync, query, the sandbox's commands or MCP
// (about a third of the app's code). One module, not one each, so the bundle stays a few files.

export * as contactsExport from './export.js';
export * as contactsImport from './import/import.js';
export * as api from './local/api.js';
export * as completion from './local/completion.js';
export * as mcp from './local/mcp.js';
export * as sandbox from './local/sandbox.js';
export * as watch from './watch/watch.js';
export * as sync from './mirror/sync.js';
export * as query from './mirror/query.js';
