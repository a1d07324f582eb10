// Everything a command needs once it runs, as one chunk of the bundle: `crm --version` and
// `crm --help` load only the entry (commander and the definitions), a command loads this too, and
// its handler (each a chunk of its own) when it has one.

import type { Context } from './cli/context.js';
import type { Result } from './cli/result.js';
import { COMMANDS, TREE } from './commands/index.js';
import { runCommand } from './commands/run.js';

export { usageError } from './cli/errors.js';
export { printFailure, runAction } from './cli/runner.js';
export { jsonErrorsAsked } from './cli/settings.js';
export { fetchCompletionValues } from './commands/completion/values.js';

/** Runs the command of this name (the definitions are one chunk, shared with the entry). */
export function runNamed(ctx: Context, name: string, input: Parameters<typeof runCommand>[3]): Promise<Result> {
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) throw new Error(`no command named ${name}`);
  return runCommand(ctx, TREE, command, input);
}
