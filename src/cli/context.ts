// What a command receives, as gh's Factory hands its commands their dependencies: the streams
// (IOStreams: TTYs, colour, whether prompting is allowed) and a few providers, each built on first
// use so a command pays only for what it touches: the settings (configuration, workspace, output
// settings, timeout: ./settings.ts), the printer, the prompter, the API client (./api.ts, with the
// dry-run plan, the spinner and the Retry-After countdown). Tests hand in their own streams,
// environment, transport, prompter and clock instead of patching globals.

import type { ConfigData } from '../config/store.js';
import type { Target } from '../config/resolve.js';
import type { ApiClient } from '../http/core.js';
import { sleep as abortableSleep } from '../http/pace.js';
import { maskCredentials } from '../http/url.js';
import { formatDuration } from '../registry/values.js';
import type { PlannedRequest } from '../transport/recording.js';
import type { Transport } from '../transport/types.js';
import { Api } from './api.js';
import type { UncertainWrites } from './errors.js';
import { safeLine } from './format.js';
import { createStreams, isTruthy, type InStream, type IOStreams, type OutStream, type SignalSource } from './io.js';
import type { EditRequest } from './editor.js';
import type { Today } from './input.js';
import type { JqFilter } from './jq.js';
import { Printer } from './printer.js';
import { createPrompter, type Prompter } from './prompt.js';
import { Settings, type GlobalOptions, type OutputDefaults } from './settings.js';

export type { GlobalOptions } from './settings.js';

export interface ContextInit {
  options: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  stdin?: InStream;
  stdout?: OutStream;
  stderr?: OutStream;
  /** Replaces the network and sandbox transports (tests). */
  transport?: Transport;
  prompter?: Prompter;
  /** The signals a command waits for (tests: an emitter, so that a signal reaches only the command they run). */
  signals?: SignalSource;
  /** The clock: relative times in tables, and what "today" is for date filters (tests). */
  now?: () => number;
  /** The time zone "today" is decided in (IANA name; tests): the machine's (TZ) when absent. */
  timeZone?: string;
  /** Every wait: backoff, Retry-After, the countdown, watch's interval (tests: none that takes real time); the signal ends it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Retries of a failed request (default: the HTTP core's); shell completion asks once. */
  maxRetries?: number;
  /** Cancels the command's requests and waits from outside (an MCP client's cancel). */
  signal?: AbortSignal;
  /** Told how far the command's work has come: each item of a bulk command, each wait for a retry (an MCP client's progress). */
  progress?: (update: ProgressUpdate) => void;
}

/** How far a command's work has come: `done` of `total` items, or (no `done`) a wait before a retry. */
export interface ProgressUpdate {
  done?: number;
  total?: number;
  message: string;
}

export class Context {
  readonly env: NodeJS.ProcessEnv;
  readonly io: IOStreams;
  readonly options: GlobalOptions;
  /** With --dry-run: every request the command would have sent, in order. */
  readonly plan: PlannedRequest[] = [];
  /** False while a command draws its own progress on stderr: no request spinner over it. */
  spinnerAllowed = true;
  /**
   * Aborted when the command ends early (Ctrl-C: the runner's) or from outside (init.signal): every
   * request and every wait of the command stops at once.
   */
  readonly signal: AbortSignal;
  /** What to do about writes an early end leaves uncertain; a command that can find them again says how. */
  uncertainWritesAdvice = 'check before running the command again';
  /** The process's own command (not an MCP tool call): the process's signals may reach it. */
  ownsProcess = false;
  /** Ctrl-C cancelled the command, which took it (takeInterrupts): it ends itself, with its report. */
  interrupted = false;
  private interruptTakers = 0;
  private readonly init: ContextInit;
  private readonly settings: Settings;
  private api?: Api;
  private cachedPrinter?: Printer;
  private jq?: JqFilter;
  private cachedPrompter?: Prompter;
  /** A context for the same command with a signal of its own (forCall) shares its parent's client. */
  private parentClient?: () => Promise<ApiClient>;
  private childClient?: Promise<ApiClient>;
  private readonly cleanups: Array<() => void> = [];
  private readonly cancellation = new AbortController();

  constructor(init: ContextInit) {
    this.init = init;
    this.options = init.options;
    this.env = init.env ?? process.env;
    this.signal = init.signal ? AbortSignal.any([this.cancellation.signal, init.signal]) : this.cancellation.signal;
    this.io = createStreams({
      env: this.env,
      noColor: init.options.color === false,
      noInput: init.options.input === false,
      stdin: init.stdin,
      stdout: init.stdout,
      stderr: init.stderr,
      signals: init.signals,
    });
    this.settings = new Settings(this.options, this.env, Boolean(this.io.stdoutIsTTY));
  }

  get debug(): boolean {
    return Boolean(this.options.debug) || isTruthy(this.env.CRM_DEBUG);
  }

  get dryRun(): boolean {
    return Boolean(this.options.dryRun);
  }

  // ---- settings ------------------------------------------------------------------------------------

  config(): ConfigData {
    return this.settings.config();
  }

  target(): Target {
    return this.settings.target();
  }

  /** Format, fields and quiet (./settings.ts), checked before anything is sent. */
  output(defaults?: OutputDefaults): ReturnType<Settings['output']> {
    return this.settings.output(defaults);
  }

  jsonErrors(): boolean {
    return this.settings.jsonErrors();
  }

  timeoutMs(): number {
    return this.settings.timeoutMs();
  }

  checkWorkspaceFlags(): void {
    this.settings.checkWorkspaceFlags();
  }

  // ---- output and people ---------------------------------------------------------------------------

  /**
   * --jq's filter: its engine loaded (a chunk of its own, only when --jq is given) and the expression
   * compiled, so that an invalid one is exit 2 before anything is sent. The printer filters with it.
   */
  async loadJq(): Promise<void> {
    const expression = this.output().jq;
    if (expression !== undefined) this.jq ??= await (await import('./jq.js')).compileJq(expression);
  }

  printer(): Printer {
    if (this.output().jq !== undefined && !this.jq) throw new Error('the printer is made before --jq is loaded (Context.loadJq)');
    return (this.cachedPrinter ??= new Printer({ io: this.io, ...this.output(), jq: this.jq, escapeFormulas: Boolean(this.options.escapeFormulas), now: this.init.now }));
  }

  prompter(): Prompter {
    return (this.cachedPrompter ??= this.init.prompter ?? createPrompter(this.io));
  }

  /**
   * A long text written in the person's editor ($VISUAL, $EDITOR, as git picks it: ./editor.ts),
   * opened on the real terminal; empty, or an editor that fails, is exit 2.
   */
  async editText(request: EditRequest): Promise<string> {
    const terminal = this.io.stderrIsTTY ? (text: string) => void this.io.stderr.write(text) : undefined;
    return (await import('./editor.js')).editText(this.env, request, { terminal, signal: this.signal });
  }

  /** A message for people, on stderr; whatever of it came from the service cannot drive the terminal, and no URL shows its password. */
  info(message: string): void {
    this.io.stderr.write(`${maskCredentials(message).split('\n').map(safeLine).join('\n')}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`crm: warning: ${safeLine(maskCredentials(message))}\n`);
  }

  /** Tells whoever follows the command how far it has come (an MCP client); nobody on the command line. */
  progress(update: ProgressUpdate): void {
    this.init.progress?.(update);
  }

  /** The time now, in ms (the injected clock in tests): what "today" is for date filters. */
  now(): number {
    return (this.init.now ?? Date.now)();
  }

  /** The time zone whose day is "today" for date filters: the machine's (undefined) unless injected. */
  timeZone(): string | undefined {
    return this.init.timeZone;
  }

  /** What "today" is for a date flag: now, in the zone days are decided in. */
  today(): Today {
    return { now: new Date(this.now()), timeZone: this.timeZone() };
  }

  /** Waits `ms` (on the injected clock, in tests), or until the signal is aborted. */
  pause(ms: number, signal: AbortSignal): Promise<void> {
    return (this.init.sleep ?? abortableSleep)(ms, signal);
  }

  // ---- the service ---------------------------------------------------------------------------------

  /** The API client for the resolved workspace: the network, or the embedded sandbox in-process. */
  client(): Promise<ApiClient> {
    const parent = this.parentClient;
    if (parent) {
      const onRetryWait = this.init.progress && ((ms: number, what: string) => this.progress({ message: `waiting ${formatDuration(ms)} to retry ${what}` }));
      return (this.childClient ??= parent().then((client) => client.withSignal(this.signal, onRetryWait)));
    }
    return this.apiProvider().client();
  }

  /**
   * The client for the look-ups a command's requests depend on (the pipeline's stages, to send a
   * stage's id). A dry run sends these reads as the run would, and lists them in its plan, so that it
   * refuses what the run refuses and plans the requests the run sends; nothing that writes is sent.
   * Without a key (a dry run may have none) they are planned with stand-in answers, like the rest.
   */
  lookupClient(): Promise<ApiClient> {
    return this.apiProvider().lookupClient();
  }

  /** A client for an explicit workspace over the network (auth login verifies a key with it). */
  clientFor(baseUrl: string, apiKey: string | undefined): Promise<ApiClient> {
    return this.apiProvider().clientFor(baseUrl, apiKey);
  }

  /** The writes that reached the service and have no answer yet: what Ctrl-C now leaves uncertain. */
  uncertainWrites(): UncertainWrites {
    return { writes: this.api?.writesUnanswered() ?? [], advice: this.uncertainWritesAdvice };
  }

  private apiProvider(): Api {
    return (this.api ??= new Api({
      env: this.env,
      io: this.io,
      options: this.options,
      settings: this.settings,
      signal: this.signal,
      plan: this.plan,
      debug: this.debug,
      transport: this.init.transport,
      maxRetries: this.init.maxRetries,
      sleep: this.init.sleep,
      spinnerAllowed: () => this.spinnerAllowed,
      onClose: (cleanup) => this.onClose(cleanup),
      info: (message) => this.info(message),
      warn: (message) => this.warn(message),
    }));
  }

  // ---- contexts for parts of a command -------------------------------------------------------------

  /**
   * The same command (settings, client, connections) with a signal of its own: an MCP tool call
   * that its client cancels stops its requests and waits, and sends nothing more; `progress` is
   * told how far the call has come.
   */
  forCall(signal: AbortSignal, progress?: (update: ProgressUpdate) => void): Context {
    const child = new Context({ ...this.init, signal: AbortSignal.any([this.signal, signal]), progress });
    child.parentClient = () => this.client();
    return child;
  }

  /**
   * The same workspace, settings and transport for work that owns no terminal (MCP tool calls, whose
   * stdin and stdout belong to the protocol): it never prompts, reads an empty stdin, and writes only
   * messages, to a stderr that is no terminal (no spinner, no countdown).
   */
  headless(): Context {
    const stderr: OutStream = { write: (text) => this.io.stderr.write(text) };
    const stdin: InStream = { async *[Symbol.asyncIterator]() {} };
    return new Context({ ...this.init, options: { ...this.options, input: false }, stdin, stdout: stderr, stderr, signal: this.signal });
  }

  onClose(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  /**
   * Until the release is called, Ctrl-C is the command's to end (a bulk write: what is under way is
   * cancelled, and it reports every record before it exits 130) rather than the process's at once.
   */
  takeInterrupts(): () => void {
    this.interruptTakers++;
    return () => void this.interruptTakers--;
  }

  /** Ctrl-C, when the command took it: every request and wait is cancelled, and true. False: the command ends at once. */
  interrupt(): boolean {
    if (this.interruptTakers === 0) return false;
    this.interrupted = true;
    this.cancellation.abort(new Error('interrupted'));
    return true;
  }

  /** Releases what the command holds; also when it ends early (Ctrl-C, stdout gone: src/cli/io.ts). */
  close(): void {
    this.cancellation.abort(new Error('the command ended'));
    this.api?.stopSpinners();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}
