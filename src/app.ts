// Everything a command needs once it runs, as one chunk of the bundle: `crm --version` and
// `crm --help` load only the entry (commander and the registry), a command loads this too.

export { usageError } from './cli/errors.js';
export { printFailure, runAction } from './cli/runner.js';
export { runLocal, runOperation } from './commands/dispatch.js';
export { fetchCompletionValues } from './commands/local/completion.js';
