// The process's streams, what kind of terminal each is, and what that allows: colour, spinners, prompts.

import { isatty } from 'node:tty';

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
  on?(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
}

export interface InStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
}

export interface IOStreams {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  colorStdout: boolean;
  /** Prompts render on stderr and read stdin: both must be terminals, and --no-input must be off. */
  canPrompt: boolean;
}

export interface ColorInputs {
  noColorFlag: boolean;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
}

/** --no-color, then NO_COLOR, then FORCE_COLOR, then: colour only on a terminal (never into a pipe). */
export function colorEnabled({ noColorFlag, env, isTTY }: ColorInputs): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

export interface StreamOptions {
  env: NodeJS.ProcessEnv;
  noColor: boolean;
  noInput: boolean;
  stdin?: InStream;
  stdout?: OutStream;
  stderr?: OutStream;
}

/**
 * The process's own streams are created on first use: each costs a few ms to set up, and stdin must
 * not be touched by commands that do not read it.
 */
export function createStreams(options: StreamOptions): IOStreams {
  const noInput = options.noInput || isTruthy(options.env.CRM_NO_INPUT);
  const once = <T>(make: () => T): (() => T) => {
    let value: T | undefined;
    let made = false;
    return () => {
      if (!made) {
        value = make();
        made = true;
      }
      return value as T;
    };
  };
  const stdin = once(() => options.stdin ?? (process.stdin as unknown as InStream));
  const stdout = once(() => options.stdout ?? process.stdout);
  const stderr = once(() => options.stderr ?? process.stderr);
  const stdinIsTTY = once(() => (options.stdin ? Boolean(options.stdin.isTTY) : isatty(0)));
  const stdoutIsTTY = once(() => Boolean(stdout().isTTY));
  const stderrIsTTY = once(() => (options.stderr ? Boolean(options.stderr.isTTY) : isatty(2)));
  return {
    get stdin() {
      return stdin();
    },
    get stdout() {
      return stdout();
    },
    get stderr() {
      return stderr();
    },
    get stdinIsTTY() {
      return stdinIsTTY();
    },
    get stdoutIsTTY() {
      return stdoutIsTTY();
    },
    get stderrIsTTY() {
      return stderrIsTTY();
    },
    get colorStdout() {
      return colorEnabled({ noColorFlag: options.noColor, env: options.env, isTTY: stdoutIsTTY() });
    },
    get canPrompt() {
      return !noInput && stdinIsTTY() && stderrIsTTY();
    },
  };
}

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** `crm ... | head -1`: the reader went away, which is not an error. */
export function exitQuietlyOnBrokenPipe(stream: OutStream): void {
  stream.on?.('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

/** All of a stream as UTF-8 text, decoded once (a character split between chunks stays whole). */
export async function readAll(stream: InStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export interface Spinner {
  stop(): void;
}

const SPINNER_DELAY_MS = 250;

/**
 * A spinner on stderr for work that takes a while; only on a terminal. ora is loaded only if the work
 * is still running after a short delay, so fast commands never pay for it.
 */
export function startSpinner(io: IOStreams, text: string): Spinner {
  if (!io.stderrIsTTY) return { stop() {} };
  let stopped = false;
  let spinner: { stop(): unknown } | undefined;
  const timer = setTimeout(async () => {
    const { default: ora } = await import('ora');
    if (stopped) return;
    // discardStdin would put the terminal in raw mode and swallow Ctrl-C.
    spinner = ora({ text, stream: io.stderr as NodeJS.WritableStream, color: 'cyan', isEnabled: true, discardStdin: false }).start();
  }, SPINNER_DELAY_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      spinner?.stop();
    },
  };
}
