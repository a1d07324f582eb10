// Every failure the CLI reports is a CliError carrying its documented exit code (see README "Exit codes").

export const ExitCode = {
  ok: 0,
  service: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  network: 6,
  partial: 7,
  interrupted: 130,
} as const;

export interface ErrorDetails {
  status?: number;
  code?: string;
  hint?: string;
}

export class CliError extends Error {
  readonly exitCode: number;
  readonly status?: number;
  readonly code?: string;
  readonly hint?: string;

  constructor(message: string, exitCode: number, details: ErrorDetails = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.status = details.status;
    this.code = details.code;
    this.hint = details.hint;
  }

  toJSON(): { error: { message: string; status: number | null; code: string | null; exit_code: number; hint?: string } } {
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
export const usageError = (message: string, hint?: string): CliError =>
  new CliError(message, ExitCode.usage, { code: 'usage', hint });

export const noKeyError = (): CliError =>
  new CliError('no API key configured', ExitCode.auth, {
    code: 'no_api_key',
    hint: 'run `crm auth login`, or set CRM_API_KEY',
  });

export const interruptedError = (): CliError => new CliError('interrupted', ExitCode.interrupted, { code: 'interrupted' });

/** Maps an HTTP error status to the contract's exit code. */
export function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  return ExitCode.service;
}

export function hintForStatus(status: number): string | undefined {
  if (status === 401) return 'check the key with `crm auth status`, or run `crm auth login`';
  if (status === 403) return 'the API key lacks the scope this request needs';
  return undefined;
}

/** Wraps a failure the command did not classify: the one-line message, exit 1. */
export function unexpectedError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(message, ExitCode.service, { code: 'unexpected' });
}

/** Thrown by --dry-run once the request has been printed: the command ends successfully. */
export class DryRunDone extends Error {
  constructor() {
    super('dry run');
    this.name = 'DryRunDone';
  }
}
