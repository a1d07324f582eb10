// Everything a command needs once it runs, as one chunk of the bundle: `crm --version` and
// `crm --help` load only the entry (commander and the command lists), a command loads this too.

export { runAction, usageErrorJson } from './cli/runner.js';
export { runOperation } from './commands/dispatch.js';
export { LOCAL_HANDLERS } from './commands/local-handlers.js';
