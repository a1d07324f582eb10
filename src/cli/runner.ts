// Runs one command with its Context: checks the global options before anything else, prints what the
// command returns (or, with --dry-run, the requests it would have sent), and turns the outcome into
// the documented exit code. Loaded on the first action, so `crm --version` and `--help` never pay.

import { Context, type ContextInit } from './context.js';
import { CliError, ExitCode, UNEXPECTED, earlyEndError, toCliError } from './errors.js';
import { escapeForTerminal, safeLine, safeLines } from './format.js';
import { drained, type EarlyEnd, type Ending } from './io.js';
import type { Format } from './printer.js';
import type { Result } from './result.js';

export type CommandBody = (ctx: Context) => Promise<Result>;

export interface RunSettings {
  /** The command must work even when the profile's output setting is broken (crm config ...). */
  ignoreProfileOutput?: boolean;
  /** The format unless a flag asks for another (CRM_OUTPUT and the profile setting do not apply). */
  defaultFormat?: Format;
  /** The format into a pipe when nothing asks for one (crm watch: ndjson rather than tsv). */
  pipeFormat?: Format;
  /**
   * Ends the command early on Ctrl-C or a failing stdout (whileRunning in src/cli/io.ts, handed over
   * by the entry, which owns the process); absent where the caller owns neither (an MCP tool call).
   */
  track?: (ending: Ending) => () => void;
}

export async function runAction(init: ContextInit, body: CommandBody, settings: RunSettings = {}): Promise<number> {
  const ctx = new Context(init);
  const stopTracking = settings.track?.((end) => endEarly(end, ctx)) ?? (() => {});
  try {
    // Every global check before the first request: format, fields, timeout.
    ctx.output({ ignoreProfileSetting: settings.ignoreProfileOutput, defaultFormat: settings.defaultFormat, pipeFormat: settings.pipeFormat });
    void ctx.timeoutMs;
    const result = await body(ctx);
    // A streamed list (--all, export) sends its requests as it is read: read it to plan them.
    if (ctx.dryRun && result.kind === 'list' && !Array.isArray(result.items)) for await (const _ of result.items);
    // A dry run shows the requests it would have sent instead of the stand-in answers they got.
    if (ctx.dryRun && ctx.plan.length > 0) {
      ctx.printer.plan(ctx.plan);
      await drained(ctx.io.stdout);
      return ExitCode.ok;
    }
    await ctx.printer.print(result);
    await drained(ctx.io.stdout);
    const later = result.kind === 'record' && result.afterPrint ? await result.afterPrint() : undefined;
    const problem = result.failure ?? later;
    return problem ? report(problem, ctx) : ExitCode.ok;
  } catch (error) {
    return report(error, ctx);
  } finally {
    stopTracking();
    ctx.close();
  }
}

/** Ctrl-C or a failing stdout (src/cli/io.ts): report why, release what the command holds (ctx.onClose). */
function endEarly(end: EarlyEnd, ctx: Context): number {
  // First, so that a spinner is gone before the message is written.
  ctx.close();
  const failure = earlyEndError(end);
  if (!failure) return ExitCode.ok;
  // The terminal echoed ^C where the cursor was: the message goes on a line of its own.
  if (end.reason === 'interrupted' && ctx.io.stderrIsTTY) ctx.io.stderr.write('\n');
  return report(failure, ctx);
}

/** One line `crm: message` (and a hint) on stderr; the JSON error object too with --json. */
function report(error: unknown, ctx: Context): number {
  const failure = toCliError(error);
  const stderr = ctx.io.stderr;
  stderr.write(`crm: ${safeLine(failure.message)}\n`);
  if (failure.hint) stderr.write(`hint: ${safeLine(failure.hint)}\n`);
  if (ctx.options.json) stderr.write(`${escapeForTerminal(JSON.stringify(failure.toJSON()))}\n`);
  // A stack says where crm itself went wrong; an answer of the service, a usage error or a bad
  // configuration has none worth showing (and its message is the service's text).
  if (ctx.debug && failure.code === UNEXPECTED && error instanceof Error) stderr.write(`${safeLines(error.stack ?? '')}\n`);
  return failure.exitCode;
}

/** Commander's own usage errors (already printed by commander) as the JSON error object. */
export function usageErrorJson(message: string, hint?: string): string {
  return escapeForTerminal(JSON.stringify(new CliError(message, ExitCode.usage, { code: 'usage', hint }).toJSON()));
}
