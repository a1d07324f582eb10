// The process's streams, what kind of terminal each is, and what that allows: colour, spinners, prompts.

import { EventEmitter } from 'node:events';
import { fstatSync, writeSync } from 'node:fs';

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
  on?(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
}

export interface InStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
}

/** The process's signals, as a command that waits for one listens to them (tests: an emitter of their own). */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export interface IOStreams {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  colorStdout: boolean;
  /**
   * Spinners, progress bars and countdowns redraw their line on stderr: only on a terminal that can
   * (not TERM=dumb: Emacs' shell, some CI log viewers print the escape sequences as text).
   */
  animatesStderr: boolean;
  /** Prompts render on stderr and read stdin: both must be terminals, and --no-input must be off. */
  canPrompt: boolean;
  /**
   * The signals a command that stops at a safe point listens to (src/commands/stop.ts, crm mcp, crm
   * sandbox serve): the process's unless given. Being the process's listeners, they are what the
   * runner counts to leave SIGTERM to the command (whileRunning).
   */
  signals: SignalSource;
}

interface ColorInputs {
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

interface StreamOptions {
  env: NodeJS.ProcessEnv;
  noColor: boolean;
  noInput: boolean;
  stdin?: InStream;
  stdout?: OutStream;
  stderr?: OutStream;
  signals?: SignalSource;
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
  const stdout = once(() => options.stdout ?? processStdout());
  const stderr = once(() => options.stderr ?? processStderr());
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
    get animatesStderr() {
      return stderrIsTTY() && options.env.TERM !== 'dumb';
    },
    get canPrompt() {
      return !noInput && stdinIsTTY() && stderrIsTTY();
    },
    signals: options.signals ?? process,
  };
}

/**
 * Into a pipe or a socket, the bytes crm writes itself before Node's stream takes over: fewer than
 * any pipe holds (64 KiB on Linux, 16 KiB at first on macOS), so that such a write never waits with
 * crm's event loop held, for a slow reader (`| less`) or for a parent that reads crm's output only
 * once it has written all of crm's input.
 */
const DIRECT_TO_PIPE_BYTES = 16 * 1024;

let stdout: OutStream | undefined;

/**
 * The process's stdout. Node's own stream for a pipe costs 0.6 ms of every command to set up, for
 * what is, for most commands, one write. Into a file, and for its first DIRECT_TO_PIPE_BYTES into a
 * pipe or a socket, crm writes with write(2), as Node's stream for a file does; past them, or when
 * the pipe is full and left non-blocking by another process, Node's stream takes over, in order. A
 * terminal or another device is Node's from the start.
 */
export function processStdout(): OutStream {
  return (stdout ??= directStdout() ?? process.stdout);
}

function directStdout(): DirectStdout | undefined {
  try {
    const stat = fstatSync(1);
    if (stat.isFile()) return new DirectStdout(Infinity);
    if (stat.isFIFO() || stat.isSocket()) return new DirectStdout(DIRECT_TO_PIPE_BYTES);
  } catch {
    // Closed (`crm >&-`): Node's stream, which takes writes and drops them.
  }
  return undefined;
}

type WriteCallback = (error?: Error | null) => void;

/**
 * What crm writes itself, `budget` bytes at most (Node's own Writable costs 0.3 ms more to load and
 * run here than it saves); then Node's stream, whose events become this one's. Like a Node stream,
 * a write's failure comes as an 'error' event, after which writes are dropped.
 */
class DirectStdout extends EventEmitter implements OutStream {
  readonly isTTY = false;
  /** Node's stream, once it has taken over. */
  private node?: NodeJS.WriteStream;
  private failure?: Error;

  constructor(private budget: number) {
    super();
  }

  write(text: string | Buffer, callback?: WriteCallback): boolean {
    if (this.node) return this.node.write(text, callback);
    if (this.failure) {
      if (callback) process.nextTick(callback, this.failure);
      return true;
    }
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    if (bytes.length > this.budget) return this.handOver().write(bytes, callback);
    this.budget -= bytes.length;
    const rest = writeWhatFits(bytes);
    if (rest instanceof Error) {
      this.failure = rest;
      process.nextTick(() => this.emit('error', rest));
      if (callback) process.nextTick(callback, rest);
      return true;
    }
    if (rest.length > 0) return this.handOver().write(rest, callback);
    if (callback) process.nextTick(callback);
    return true;
  }

  get writableLength(): number {
    return this.node?.writableLength ?? 0;
  }

  get writableNeedDrain(): boolean {
    return this.node?.writableNeedDrain ?? false;
  }

  get destroyed(): boolean {
    return this.failure !== undefined || (this.node?.destroyed ?? false);
  }

  private handOver(): NodeJS.WriteStream {
    if (!this.node) {
      this.node = process.stdout;
      for (const event of ['error', 'drain', 'close']) this.node.on(event, (...args: unknown[]) => this.emit(event, ...args));
    }
    return this.node;
  }
}

/** Writes `bytes` to stdout; returns what is left when a non-blocking pipe is full, or the failure. */
function writeWhatFits(bytes: Buffer): Buffer | Error {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      return error as Error;
    }
  }
  return bytes.subarray(offset);
}

let stderrGuarded = false;

/**
 * The process's stderr, on which a failed write is lost rather than fatal: when its reader has gone
 * (`crm ... 2>&1 | head -1`: a note or warning written after the data) there is nowhere left to say
 * anything, and Node's default for an unhandled stream error would end the command with exit 1.
 */
export function processStderr(): NodeJS.WriteStream {
  if (!stderrGuarded) {
    process.stderr.on('error', () => {});
    stderrGuarded = true;
  }
  return process.stderr;
}

/**
 * Whether a file descriptor is a terminal. Only a character device can be one: a pipe, a file or a
 * socket (`crm ... | jq`, `> file`, a script's captured output) is told apart without node:tty, which
 * costs about 2 ms to load and which Node needs for none of them.
 */
function isatty(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    // Closed: no terminal either.
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** What a switch variable (CRM_NO_INPUT, CRM_DEBUG, CRM_READ_ONLY) is off for, any case, spaces around ignored; anything else is on. */
const SWITCHED_OFF = new Set(['', '0', 'false', 'no', 'off']);

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && !SWITCHED_OFF.has(value.trim().toLowerCase());
}

/** Why a command ends before it is done: Ctrl-C, SIGTERM, or stdout closed (`| head -1`) or failing (a full disk). */
export type EarlyEnd = { reason: 'interrupted' } | { reason: 'terminated' } | { reason: 'output_closed' } | { reason: 'output_failed'; error: NodeJS.ErrnoException };

/**
 * Says why the command ends (when that is a failure) and releases what it holds; returns the exit
 * code, or CONTINUES when the command takes the interruption itself (a bulk write reports every
 * record first). `again`: a second Ctrl-C, which ends the command at once whatever it does.
 */
export type Ending = (end: EarlyEnd, again: boolean) => number | typeof CONTINUES;

/** What an Ending returns when the command ends itself, after the interruption, with its own report and code. */
export const CONTINUES = 'continues';

const endings = new Set<Ending>();
/** Ctrl-C presses while the command runs: after one a command took, the next ends it at once. */
let interrupts = 0;

/**
 * While a command runs, Ctrl-C, SIGTERM and a failing stdout end it here, in one place: the command
 * reports why (a write under way may have taken effect) and releases what it holds (spinners,
 * databases, checkpoints: Context.onClose), and the process exits with the command's code. Node's
 * default for either signal would kill the process mid-way, silently. A command that stops at a safe
 * point on SIGTERM (src/commands/stop.ts, mcp, sandbox serve) listens itself and is left to. Files are
 * never half-written: config writes are atomic and synchronous, so a signal is handled between
 * writes, never inside one. Returns the function that stops tracking the command.
 *
 * The entry (src/main.ts) owns the process: it hands this function to the runner, so that one copy
 * of this module (the entry's bundle) holds the state.
 */
export function whileRunning(ending: Ending): () => void {
  endings.add(ending);
  if (endings.size === 1) {
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onTerminate);
  }
  return () => {
    endings.delete(ending);
    if (endings.size === 0) {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
      interrupts = 0;
    }
  };
}

function onInterrupt(): void {
  endEarly({ reason: 'interrupted' }, () => 130, interrupts++ > 0);
}

function onTerminate(): void {
  // Another listener is the command's own: it stops at its safe point and reports (a bulk write, an import, watch).
  if (process.listenerCount('SIGTERM') > 1) return;
  endEarly({ reason: 'terminated' }, () => 130);
}

function endEarly(end: EarlyEnd, whenIdle: (end: EarlyEnd) => number, again = false): void {
  let code: number | undefined;
  let continues = false;
  // Several only when tests run crm in-process; a process runs one command.
  for (const ending of endings) {
    const outcome = ending(end, again);
    if (outcome === CONTINUES) continues = true;
    else code = outcome;
  }
  if (!continues) process.exit(code ?? whenIdle(end));
}

export function describeOutputFailure(error: NodeJS.ErrnoException): string {
  return `cannot write the output: ${error.message}`;
}

/**
 * stdout failing ends the command: the reader going away (`crm ... | head -1`, EPIPE) is no error
 * and exits 0; anything else (`> /dev/full`) is one line and exit 1, never a stack trace. `whenIdle`
 * answers when no command is running (help and version output).
 */
export function handleOutputErrors(stream: OutStream, whenIdle: (end: EarlyEnd) => number): void {
  stream.on?.('error', (error) => endEarly(error.code === 'EPIPE' ? { reason: 'output_closed' } : { reason: 'output_failed', error }, whenIdle));
}

/**
 * Resolves once what was written to stdout has been handed to the system, so that a write that
 * failed is reported while its command still runs (with --json, as the JSON error too).
 */
export function drained(stream: OutStream): Promise<void> {
  // Streams given by tests are not Node streams and hold nothing back.
  if (!('writableLength' in stream)) return Promise.resolve();
  // A failed write calls back before the stream emits its error: give the error its turn too.
  return new Promise((resolve) => (stream as unknown as NodeJS.WritableStream).write('', () => setImmediate(resolve)));
}

/**
 * Resolves when more may be written to `stream`: at once when it holds little (a terminal or a file
 * is written synchronously), else when the pipe's reader has taken what it holds, or the stream has
 * failed. Either way after a turn of the event loop, in which a failed write (EPIPE: `| head`) is
 * reported and ends the command. A list produced without waiting for anything (crm query's rows)
 * waits here now and then: it would otherwise queue its whole output in memory and never see its
 * reader go.
 */
export function roomToWrite(stream: OutStream): Promise<void> {
  const node = stream as Partial<NodeJS.WriteStream>;
  if (!node.writableNeedDrain || node.destroyed) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'error', 'close']) node.off!(event, done);
      setImmediate(resolve);
    };
    for (const event of ['drain', 'error', 'close']) node.once!(event, done);
  });
}

/**
 * Ctrl-C and SIGTERM at their default action until the returned function is called: the process
 * ends at once, by the signal (the shell's $? is 130 or 143), without a word. For work that holds
 * the event loop, and with it every handler, in a call no handler could stop (a SQLite statement:
 * neither binding can interrupt one, and one can run for ever), and that nothing would be left
 * half-done by ending (a read on a read-only connection).
 */
export function signalsEndProcess(): () => void {
  const held = (['SIGINT', 'SIGTERM'] as const).map((signal) => ({ signal, listeners: process.listeners(signal) }));
  for (const { signal, listeners } of held) for (const listener of listeners) process.off(signal, listener);
  return () => {
    for (const { signal, listeners } of held) for (const listener of listeners) process.on(signal, listener);
  };
}

/** All of a stream as UTF-8 text, decoded once (a character split between chunks stays whole). */
export async function readAll(stream: InStream): Promise<string> {
  return (await readAllBytes(stream)).toString('utf8');
}

/** All of a stream, as bytes. */
export async function readAllBytes(stream: InStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(chunks);
}

export interface Spinner {
  stop(): void;
}

const SPINNER_DELAY_MS = 250;

/**
 * A spinner on stderr for work that takes a while; only on a terminal that redraws (animatesStderr). ora is loaded only if the work
 * is still running after a short delay, so fast commands never pay for it.
 */
export function startSpinner(io: IOStreams, text: string): Spinner {
  if (!io.animatesStderr) return { stop() {} };
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
