// Every failure a user sees is a CliError carrying its documented exit code (README "Exit codes").
// This is the one place where what went wrong (an HttpError's kind and status, a usage mistake)
// becomes an exit code and a hint.

import { ConfigError } from '../config/store.js';
import { HttpError } from '../http/errors.js';
import { MirrorError } from '../mirror/errors.js';
import { EXIT_CODES } from '../registry/global.js';
import { DatabaseFileError, SqliteUnavailableError } from '../sqlite/errors.js';
import { describeOutputFailure, type EarlyEnd } from './io.js';

/** Each exit code by its name, from the registry's table (README "Exit codes", crm help exit-codes). */
export const ExitCode = Object.fromEntries(EXIT_CODES.map(({ name, code }) => [name, code])) as {
  readonly [Exit in (typeof EXIT_CODES)[number] as Exit['name']]: Exit['code'];
};

interface ErrorDetails {
  status?: number;
  code?: string;
  hint?: string;
  /** A write not safe to repeat reached the service and its outcome is unknown (HttpError.mayHaveActed). */
  mayHaveActed?: boolean;
}

interface ErrorJson {
  message: string;
  status: number | null;
  code: string | null;
  exit_code: number;
  hint?: string;
}

export class CliError extends Error {
  readonly exitCode: number;
  readonly status?: number;
  readonly code?: string;
  readonly hint?: string;
  readonly mayHaveActed: boolean;

  constructor(message: string, exitCode: number, details: ErrorDetails = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.status = details.status;
    this.code = details.code;
    this.hint = details.hint;
    this.mayHaveActed = details.mayHaveActed ?? false;
  }

  toJSON(): { error: ErrorJson } {
    return {
      error: {
        message: this.message,
        status: this.status ?? null,
        code: this.code ?? null,
        exit_code: this.exitCode,
        ...(this.hint ? { hint: this.hint } : {}),
      },
    };
  }
}

/** Bad flags, arguments or input: caught before anything was sent. */
export const usageError = (message: string, hint?: string): CliError => new CliError(message, ExitCode.usage, { code: 'usage', hint });

export const noKeyError = (): CliError =>
  new CliError('no API key configured', ExitCode.auth, { code: 'no_api_key', hint: 'run `crm auth login`, or set CRM_API_KEY' });

export const interruptedError = (hint?: string): CliError => new CliError('interrupted', ExitCode.interrupted, { code: 'interrupted', hint });

/** Why a command ended early, as the failure a user sees; undefined when that is no failure (`| head -1`). */
export function earlyEndError(end: EarlyEnd, uncertain?: UncertainWrites): CliError | undefined {
  const hint = uncertain && uncertain.writes.length > 0 ? unansweredHint(uncertain) : undefined;
  if (end.reason === 'interrupted') return interruptedError(hint);
  // The words of a bulk write stopped so (src/commands/bulk.ts), and the exit code of any interruption.
  if (end.reason === 'terminated') return new CliError('stopped by SIGTERM', ExitCode.interrupted, { code: 'interrupted', hint });
  if (end.reason === 'output_failed') return new CliError(describeOutputFailure(end.error), ExitCode.service, { code: 'output_failed' });
  return undefined;
}

/** What an early end leaves uncertain: writes the service received and had not answered ("POST /contacts"), and what to do. */
export interface UncertainWrites {
  writes: readonly string[];
  advice: string;
}

function unansweredHint({ writes, advice }: UncertainWrites): string {
  const counts = new Map<string, number>();
  for (const write of writes) counts.set(write, (counts.get(write) ?? 0) + 1);
  const listed = [...counts].map(([write, count]) => (count > 1 ? `${write} (${count} of them)` : write)).join(', ');
  return `${listed} ${writes.length > 1 ? 'were' : 'was'} sent and may have taken effect: ${advice}`;
}

/** A 2xx that carries no record where one was promised (get, create, update); `written`: a write took effect, crm cannot say what it made. */
export const noRecordError = (what: string, written = false): CliError =>
  new CliError(`malformed response from the service (no ${what} in the answer)`, ExitCode.network, { code: 'malformed_response', mayHaveActed: written });

/** Maps an HTTP error status to the contract's exit code. */
function exitCodeForStatus(status: number | undefined): number {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  return ExitCode.service;
}

const KEY_REFUSED_HINT = 'check the key with `crm auth status`, or run `crm auth login`';

/**
 * A refused key that came from CRM_API_KEY: `crm auth login` would not change what is sent (the
 * variable wins over the profile), so the hint names the variable instead.
 */
export function keyRefusedFromEnv(failure: CliError, env: NodeJS.ProcessEnv): CliError {
  if (failure.hint !== KEY_REFUSED_HINT || !env.CRM_API_KEY) return failure;
  return new CliError(failure.message, failure.exitCode, { status: failure.status, code: failure.code, hint: 'the key is CRM_API_KEY\'s: check it, or unset it to use the profile\'s (`crm auth status` says which key is sent)' });
}

function hintForStatus(status: number | undefined): string | undefined {
  if (status === 401) return KEY_REFUSED_HINT;
  if (status === 403) return 'the API key lacks the scope this request needs';
  return undefined;
}

const EXIT_BY_KIND: Record<Exclude<HttpError['kind'], 'status'>, number> = {
  invalid_request: ExitCode.usage,
  retry_later: ExitCode.rateLimited,
  network: ExitCode.network,
  malformed: ExitCode.network,
  redirect: ExitCode.service,
  lost_track: ExitCode.service,
  cancelled: ExitCode.interrupted,
};

/** The code of a failure crm did not foresee: a fault of crm's own (--debug shows its stack). */
export const UNEXPECTED = 'unexpected';

/** Any failure as the CliError a user sees; an unclassified one is exit 1. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof HttpError) {
    const exitCode = error.kind === 'status' ? exitCodeForStatus(error.status) : EXIT_BY_KIND[error.kind];
    const hint = error.hint ?? (error.kind === 'status' ? hintForStatus(error.status) : undefined);
    return new CliError(error.message, exitCode, { status: error.status, code: error.code, hint, mayHaveActed: error.mayHaveActed });
  }
  if (error instanceof ConfigError) {
    return new CliError(error.message, error.usage ? ExitCode.usage : ExitCode.service, { code: error.usage ? 'usage' : 'config', hint: error.hint });
  }
  if (error instanceof MirrorError) return new CliError(error.message, error.usage ? ExitCode.usage : ExitCode.service, { code: error.code, hint: error.hint });
  if (error instanceof SqliteUnavailableError) {
    return new CliError(error.message, error.badSetting ? ExitCode.usage : ExitCode.service, { code: error.badSetting ? 'usage' : 'sqlite_unavailable' });
  }
  if (error instanceof DatabaseFileError) {
    return new CliError(error.message, ExitCode.service, { code: 'data_dir', hint: 'set CRM_DATA_DIR to a directory crm can write (the sandbox and the replicas of crm sync live there)' });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(message, ExitCode.service, { code: UNEXPECTED });
}
