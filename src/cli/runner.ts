// Runs one command's body with its Context and turns the outcome into the documented exit code.
// Loaded on the first action, so `crm --version` and `crm --help` never pay for it.

import { Context, type ContextInit } from './context.js';
import { CliError, DryRunDone, ExitCode, unexpectedError } from './errors.js';

export type ActionBody = (ctx: Context) => Promise<void>;

export async function runAction(init: ContextInit, body: ActionBody): Promise<number> {
  const ctx = new Context(init);
  try {
    await body(ctx);
    return ExitCode.ok;
  } catch (error) {
    return report(error, ctx);
  } finally {
    ctx.close();
  }
}

function report(error: unknown, ctx: Context): number {
  if (error instanceof DryRunDone) return ExitCode.ok;
  const failure = unexpectedError(error);
  const stderr = ctx.io.stderr;
  stderr.write(`crm: ${failure.message}\n`);
  if (failure.hint) stderr.write(`hint: ${failure.hint}\n`);
  if (ctx.options.json) stderr.write(`${JSON.stringify(failure.toJSON())}\n`);
  if (ctx.debug && error instanceof Error && !(error instanceof CliError)) stderr.write(`${error.stack}\n`);
  return failure.exitCode;
}

/** Commander's own usage errors (already printed by commander) as the JSON error object. */
export function usageErrorJson(message: string): string {
  return JSON.stringify(new CliError(message, ExitCode.usage, { code: 'usage' }).toJSON());
}
