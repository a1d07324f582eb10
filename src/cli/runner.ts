// Runs one command with its Context: checks the global options before anything else, prints what the
// command returns (or, with --dry-run, the requests it would have sent), and turns the outcome into
// the documented exit code. Loaded on the first action, so `crm --version` and `--help` never pay.

import { Context, type ContextInit } from './context.js';
import { CliError, ExitCode, UNEXPECTED, earlyEndError, keyRefusedFromEnv, toCliError } from './errors.js';
import { escapeForTerminal, safeLine, safeLines } from './format.js';
import { maskCredentials } from '../http/url.js';
import { CONTINUES, drained, type EarlyEnd, type Ending, type OutStream } from './io.js';
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
  // The process's own command: its signals may reach it (a bulk write stops on them and reports).
  ctx.ownsProcess = settings.track !== undefined;
  const stopTracking = settings.track?.((end, again) => endEarly(end, ctx, again)) ?? (() => {});
  try {
    // Every global check before the first request: format, fields, --jq's expression, timeout, an empty --profile or --base-url.
    ctx.output({ ignoreProfileSetting: settings.ignoreProfileOutput, defaultFormat: settings.defaultFormat, pipeFormat: settings.pipeFormat });
    await ctx.loadJq();
    void ctx.timeoutMs();
    ctx.checkWorkspaceFlags();
    const result = await body(ctx);
    // A streamed list (--all, export) sends its requests as it is read: read it to plan them.
    if (ctx.dryRun && result.kind === 'list' && !Array.isArray(result.items)) for await (const _ of result.items);
    // A dry run shows the requests it would have sent instead of the stand-in answers they got.
    if (ctx.dryRun && ctx.plan.length > 0) {
      ctx.printer().plan(ctx.plan);
      await drained(ctx.io.stdout);
      return ExitCode.ok;
    }
    await ctx.printer().print(result);
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

/**
 * Ctrl-C or a failing stdout (src/cli/io.ts): report why, release what the command holds
 * (ctx.onClose). A command that takes Ctrl-C (a bulk write) is only cancelled: it ends itself with
 * its report; a second Ctrl-C ends it here.
 */
function endEarly(end: EarlyEnd, ctx: Context, again: boolean): number | typeof CONTINUES {
  if (end.reason === 'interrupted' && !again && ctx.interrupt()) return CONTINUES;
  // Asked before close() cancels them: the writes under way may have taken effect.
  const uncertain = ctx.uncertainWrites();
  // First, so that a spinner is gone before the message is written; it cancels every request and wait.
  ctx.close();
  const failure = earlyEndError(end, uncertain);
  if (!failure) return ExitCode.ok;
  // The terminal echoed ^C where the cursor was: the message goes on a line of its own.
  if (end.reason === 'interrupted' && ctx.io.stderrIsTTY) ctx.io.stderr.write('\n');
  return report(failure, ctx);
}

/** One line `crm: message` (and a hint) on stderr; the JSON error object too when JSON was asked for. */
function report(error: unknown, ctx: Context): number {
  const failure = keyRefusedFromEnv(toCliError(error), ctx.env);
  printFailure(ctx.io.stderr, failure, ctx.jsonErrors());
  // A stack says where crm itself went wrong; an answer of the service, a usage error or a bad
  // configuration has none worth showing (and its message is the service's text).
  if (ctx.debug && failure.code === UNEXPECTED && error instanceof Error) ctx.io.stderr.write(`${safeLines(maskCredentials(error.stack ?? ''))}\n`);
  return failure.exitCode;
}

/**
 * How every failure is printed, commander's usage errors included: `crm: message`, `hint: ...`, and
 * with JSON output the error object, whichever way JSON was asked for (--json, -o json, CRM_OUTPUT).
 * Nothing of it can drive a terminal, and a password in a URL is masked.
 */
export function printFailure(stderr: OutStream, failure: CliError, json: boolean): void {
  const shown = new CliError(maskCredentials(failure.message), failure.exitCode, { status: failure.status, code: failure.code, hint: failure.hint && maskCredentials(failure.hint) });
  stderr.write(`crm: ${safeLine(shown.message)}\n`);
  if (shown.hint) stderr.write(`hint: ${safeLine(shown.hint)}\n`);
  if (json) stderr.write(`${escapeForTerminal(JSON.stringify(shown.toJSON()))}\n`);
}
