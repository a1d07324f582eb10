// What a command receives: streams, options, configuration, the API client, the printer and the
// prompter. Everything is built on first use, so a command pays only for what it touches, and tests
// hand in their own streams, environment, transport and prompter instead of patching globals.

import { existsSync, writeFileSync } from 'node:fs';
import { readConfig, type ConfigData } from '../config/store.js';
import { noticeMarker, sandboxPath } from '../config/paths.js';
import { resolveTarget, type Target } from '../config/resolve.js';
import { API_KEY_HEADER, ApiClient } from '../http/core.js';
import { maskKey, redact } from '../http/redact.js';
import { sleep as abortableSleep } from '../http/pace.js';
import { SANDBOX_BASE_URL, assertSafeTransport } from '../http/url.js';
import { TIMEOUT_DEFAULT_SECONDS } from '../registry/global.js';
import { formatDuration } from '../registry/values.js';
import { createNetworkTransport } from '../transport/network.js';
import { createRecordingTransport, type PlannedRequest } from '../transport/recording.js';
import { openEmbeddedSandbox } from '../transport/sandbox.js';
import type { Transport, TransportRequest } from '../transport/types.js';
import { noKeyError, usageError, type UncertainWrites } from './errors.js';
import { safeLine } from './format.js';
import { checkName, parseChoice, parseTimeout } from './input.js';
import { createStreams, isTruthy, startSpinner, type InStream, type IOStreams, type OutStream, type Spinner } from './io.js';
import { FORMATS, Printer, type Format } from './printer.js';
import { createPrompter, type Prompter } from './prompt.js';
import { VERSION } from './version.js';

export interface GlobalOptions {
  json?: boolean;
  output?: string;
  fields?: string;
  escapeFormulas?: boolean;
  quiet?: boolean;
  profile?: string;
  baseUrl?: string;
  /** commander's --no-input sets input: false */
  input?: boolean;
  color?: boolean;
  debug?: boolean;
  dryRun?: boolean;
  timeout?: string;
  insecure?: boolean;
  wait?: boolean;
}

export interface ContextInit {
  options: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  stdin?: InStream;
  stdout?: OutStream;
  stderr?: OutStream;
  /** Replaces the network and sandbox transports (tests). */
  transport?: Transport;
  prompter?: Prompter;
  /** The clock of relative times in tables (tests). */
  now?: () => number;
  /** Every wait: backoff, Retry-After, the countdown, watch's interval (tests: none that takes real time); the signal ends it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Retries of a failed request (default: the HTTP core's); shell completion asks once. */
  maxRetries?: number;
  /** Cancels the command's requests and waits from outside (an MCP client's cancel). */
  signal?: AbortSignal;
}

/** The output settings, resolved and checked before a command runs. */
interface OutputSettings {
  format: Format;
  fields?: string[];
  quiet: boolean;
  /** JSON was asked for (--json, -o json, CRM_OUTPUT, the profile): failures print the JSON error object too. */
  jsonErrors: boolean;
}

export class Context {
  readonly env: NodeJS.ProcessEnv;
  readonly io: IOStreams;
  readonly options: GlobalOptions;
  /** With --dry-run: every request the command would have sent, in order. */
  readonly plan: PlannedRequest[] = [];
  /** False while a command draws its own progress on stderr: no request spinner over it. */
  spinnerAllowed = true;
  private readonly init: ContextInit;
  private cachedConfig?: ConfigData;
  private cachedTarget?: Target;
  private cachedOutput?: OutputSettings;
  private cachedPrinter?: Printer;
  private cachedPrompter?: Prompter;
  private clientPromise?: Promise<ApiClient>;
  private lookupPromise?: Promise<ApiClient>;
  /** A context for the same command with a signal of its own (withSignal) shares its parent's client. */
  private parentClient?: () => Promise<ApiClient>;
  private madeClient?: ApiClient;
  private readonly cleanups: Array<() => void> = [];
  private readonly spinners = new Set<Spinner>();
  private readonly cancellation = new AbortController();
  /**
   * Aborted when the command ends early (Ctrl-C: the runner's) or from outside (init.signal): every
   * request and every wait of the command stops at once.
   */
  readonly signal: AbortSignal;

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
    });
  }

  get debug(): boolean {
    return Boolean(this.options.debug) || isTruthy(this.env.CRM_DEBUG);
  }

  get dryRun(): boolean {
    return Boolean(this.options.dryRun);
  }

  config(): ConfigData {
    return (this.cachedConfig ??= readConfig(this.env));
  }

  target(): Target {
    return (this.cachedTarget ??= resolveTarget({ profile: this.options.profile, baseUrl: this.options.baseUrl }, this.env, this.config()));
  }

  /**
   * Format, fields and quiet, from the flags, CRM_OUTPUT and the profile's setting. Checked before
   * anything is sent: a bad value is exit 2 naming where it came from.
   */
  output(options: { ignoreProfileSetting?: boolean; defaultFormat?: Format; pipeFormat?: Format } = {}): OutputSettings {
    if (this.cachedOutput) return this.cachedOutput;
    const { format, asked } = this.resolveFormat(Boolean(options.ignoreProfileSetting), options.defaultFormat, options.pipeFormat);
    let fields: string[] | undefined;
    if (this.options.fields !== undefined) {
      fields = this.options.fields.split(',').map((field) => field.trim());
      if (fields.every((field) => field === '')) throw usageError('--fields needs at least one field name', 'for example --fields id,name');
      for (const field of fields) checkName(field, '--fields');
    }
    return (this.cachedOutput = { format, fields, quiet: Boolean(this.options.quiet), jsonErrors: asked && format === 'json' });
  }

  /** The format, and whether it was asked for (a flag, CRM_OUTPUT, the profile) rather than a default. */
  private resolveFormat(ignoreProfileSetting: boolean, defaultFormat?: Format, pipeFormat: Format = 'tsv'): { format: Format; asked: boolean } {
    const parse = (value: string, source: string) => ({ format: parseChoice(value, FORMATS, source) as Format, asked: true });
    if (this.options.output !== undefined) {
      const chosen = parse(this.options.output, '--output');
      if (this.options.json && chosen.format !== 'json') throw usageError(`--json and --output ${chosen.format} ask for different formats`);
      return chosen;
    }
    if (this.options.json) return { format: 'json', asked: true };
    if (defaultFormat) return { format: defaultFormat, asked: false };
    if (this.env.CRM_OUTPUT) return parse(this.env.CRM_OUTPUT, 'CRM_OUTPUT');
    if (!ignoreProfileSetting) {
      const configured = this.safeSettings()?.output;
      if (configured !== undefined) return parse(String(configured), 'output setting of the profile (`crm config unset output`)');
    }
    return { format: this.io.stdoutIsTTY ? 'table' : pipeFormat, asked: false };
  }

  /** Whether a failure prints the JSON error object too; when the output settings were refused, from the flags and CRM_OUTPUT. */
  get jsonErrors(): boolean {
    try {
      return this.output().jsonErrors;
    } catch {
      return Boolean(this.options.json) || [this.options.output, this.env.CRM_OUTPUT].some((value) => value?.trim().toLowerCase() === 'json');
    }
  }

  get printer(): Printer {
    return (this.cachedPrinter ??= new Printer({ io: this.io, ...this.output(), escapeFormulas: Boolean(this.options.escapeFormulas), now: this.init.now }));
  }

  get prompter(): Prompter {
    return (this.cachedPrompter ??= this.init.prompter ?? createPrompter(this.io));
  }

  /** Waits `ms` (on the injected clock, in tests), or until the signal is aborted. */
  pause(ms: number, signal: AbortSignal): Promise<void> {
    return (this.init.sleep ?? abortableSleep)(ms, signal);
  }

  get timeoutMs(): number {
    const raw = this.options.timeout ?? this.safeSettings()?.timeout;
    return Math.round((raw === undefined ? TIMEOUT_DEFAULT_SECONDS : parseTimeout(String(raw), '--timeout')) * 1000);
  }

  /** A message for people, on stderr; whatever of it came from the service cannot drive the terminal. */
  info(message: string): void {
    this.io.stderr.write(`${message.split('\n').map(safeLine).join('\n')}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`crm: warning: ${safeLine(message)}\n`);
  }

  /** The API client for the resolved workspace: the network, or the embedded sandbox in-process. */
  client(): Promise<ApiClient> {
    const parent = this.parentClient;
    return (this.clientPromise ??= (parent ? parent().then((client) => client.withSignal(this.signal)) : this.createClient(false)).then((client) => (this.madeClient = client)));
  }

  /**
   * The client for the look-ups a command's requests depend on (the pipeline's stages, to send a
   * stage's id). A dry run sends these reads as the run would, and lists them in its plan, so that it
   * refuses what the run refuses and plans the requests the run sends; nothing that writes is sent.
   * Without a key (a dry run may have none) they are planned with stand-in answers, like the rest.
   */
  lookupClient(): Promise<ApiClient> {
    if (!this.dryRun) return this.client();
    return (this.lookupPromise ??= this.createClient(true));
  }

  /**
   * The same command (settings, client, connections) with a signal of its own: an MCP tool call
   * that its client cancels stops its requests and waits, and sends nothing more.
   */
  withSignal(signal: AbortSignal): Context {
    const child = new Context({ ...this.init, signal: AbortSignal.any([this.signal, signal]) });
    child.parentClient = () => this.client();
    return child;
  }

  /** What to do about writes an early end leaves uncertain; a command that can find them again says how. */
  uncertainWritesAdvice = 'check before running the command again';

  /** The writes that reached the service and have no answer yet: what Ctrl-C now leaves uncertain. */
  uncertainWrites(): UncertainWrites {
    return { writes: this.madeClient?.writesUnanswered() ?? [], advice: this.uncertainWritesAdvice };
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

  /** Releases what the command holds; also when it ends early (Ctrl-C, stdout gone: src/cli/io.ts). */
  close(): void {
    this.cancellation.abort(new Error('the command ended'));
    // A spinner left running would leave the terminal without its cursor.
    for (const spinner of this.spinners) spinner.stop();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  private safeSettings() {
    try {
      return this.target().settings;
    } catch {
      return undefined;
    }
  }

  /** `reads`: a dry run's look-ups, sent for real (see lookupClient). */
  private async createClient(reads: boolean): Promise<ApiClient> {
    const target = this.target();
    if (target.kind === 'remote') {
      if (!target.apiKey && !this.dryRun) throw noKeyError();
      return this.clientFor(target.baseUrl, target.apiKey, reads && target.apiKey !== undefined);
    }
    const dbPath = sandboxPath(this.env);
    // A dry run creates no sandbox: with none yet, its look-ups get stand-ins too.
    if ((this.dryRun && !(reads && existsSync(dbPath))) || this.init.transport) return this.newClient(SANDBOX_BASE_URL, undefined, this.init.transport, reads);
    const embedded = await openEmbeddedSandbox(dbPath, this.dryRun);
    this.onClose(() => embedded.close());
    if (!this.dryRun) await this.noticeOnce(dbPath);
    return this.newClient(SANDBOX_BASE_URL, embedded.apiKey, embedded.transport, reads);
  }

  /** A client for an explicit workspace over the network (auth login verifies a key with it). */
  async clientFor(baseUrl: string, apiKey: string | undefined, reads = false): Promise<ApiClient> {
    assertSafeTransport(baseUrl, Boolean(this.options.insecure));
    let transport = this.init.transport;
    if (!transport && (!this.dryRun || reads)) {
      const network = await createNetworkTransport({ env: this.env });
      this.onClose(() => network.close());
      transport = network;
    }
    return this.newClient(baseUrl, apiKey, transport, reads);
  }

  private newClient(baseUrl: string, apiKey: string | undefined, transport: Transport | undefined, reads = false): ApiClient {
    const mask = (request: TransportRequest): TransportRequest => {
      const headers = { ...request.headers };
      if (headers[API_KEY_HEADER]) headers[API_KEY_HEADER] = maskKey(headers[API_KEY_HEADER]);
      return { ...request, headers, body: request.body === undefined ? undefined : redact(request.body, apiKey) };
    };
    const send = this.dryRun || !transport ? createRecordingTransport(this.plan, mask, reads ? transport : undefined) : transport;
    const spinning: Transport = (request) => {
      // Commands that show their own progress (an import's bar) send without this wrapper's await.
      if (!this.spinnerAllowed || this.dryRun || this.debug) return send(request);
      const spinner = startSpinner(this.io, 'Waiting for the service…');
      this.spinners.add(spinner);
      return send(request).finally(() => {
        spinner.stop();
        this.spinners.delete(spinner);
      });
    };
    return new ApiClient({
      baseUrl,
      apiKey,
      transport: spinning,
      timeoutMs: this.timeoutMs,
      maxRetries: this.init.maxRetries,
      sleep: this.init.sleep,
      userAgent: `crm/${VERSION} node/${process.versions.node} ${process.platform}`,
      trace: this.debug ? (line) => this.io.stderr.write(`${safeLine(line)}\n`) : undefined,
      waitLong: (ms, reason, signal) => this.waitLong(ms, reason, signal),
      signal: this.signal,
    });
  }

  /** Tells a person once (per sandbox database) where their data lives and how to leave the sandbox. */
  private async noticeOnce(dbPath: string): Promise<void> {
    if (!this.io.stderrIsTTY) return;
    const marker = noticeMarker(dbPath);
    if (existsSync(marker)) return;
    this.info(
      `Using the local sandbox workspace (demo data in ${dbPath}).\n` +
        'Connect a real workspace with `crm auth login --base-url https://<host>`; see `crm sandbox --help`.',
    );
    try {
      writeFileSync(marker, '', { mode: 0o600 });
    } catch {
      // Not being able to remember is harmless: the notice shows again next time.
    }
  }

  /**
   * A long Retry-After: wait with --wait, count down on a terminal, otherwise give up (exit 5). The
   * countdown shows each whole second left; the waits add up to at least `ms`. The signal ends it.
   */
  private async waitLong(ms: number, refusal: string, signal?: AbortSignal): Promise<boolean> {
    const reason = safeLine(refusal);
    const interactive = this.io.stderrIsTTY && this.io.stdinIsTTY;
    if (!this.options.wait && !interactive) return false;
    const sleep = this.init.sleep ?? abortableSleep;
    const line = (seconds: number) => `${reason} Retrying in ${formatDuration(seconds * 1000)}${interactive ? ' (Ctrl-C to stop)' : ''}`;
    const seconds = Math.ceil(ms / 1000);
    if (!this.io.stderrIsTTY) {
      this.info(line(seconds));
      await sleep(ms, signal);
      return true;
    }
    // The first second shown may be a part of one: the rest are whole.
    try {
      for (let left = seconds; left > 0; left--) {
        this.io.stderr.write(`\r\x1b[2K${line(left)}`);
        await sleep(left === seconds ? ms - (seconds - 1) * 1000 : 1000, signal);
      }
    } finally {
      this.io.stderr.write('\r\x1b[2K');
    }
    return true;
  }
}
