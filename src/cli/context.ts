// What a command receives: streams, options, configuration, the API client, the printer and the
// prompter. Everything is built on first use, so a command pays only for what it touches, and tests
// hand in their own streams, environment and transport instead of patching globals.

import { readConfig, type ConfigData } from '../config/store.js';
import { resolveTarget, type Target } from '../config/resolve.js';
import { ApiClient } from '../http/core.js';
import { createNetworkTransport, type Transport, type TransportRequest } from '../http/transport.js';
import { SANDBOX_BASE_URL, assertSafeTransport } from '../http/url.js';
import { noKeyError, usageError } from './errors.js';
import { createStreams, isTruthy, startSpinner, type InStream, type IOStreams, type OutStream } from './io.js';
import { Printer, parseFormat, type Format } from './output.js';
import { createPrompter, type Prompter } from './prompt.js';
import { VERSION } from './version.js';

export interface GlobalOptions {
  json?: boolean;
  output?: string;
  fields?: string;
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
  /** Replaces the network/sandbox transport (tests). */
  transport?: Transport;
  prompter?: Prompter;
}

export class Context {
  readonly env: NodeJS.ProcessEnv;
  readonly io: IOStreams;
  readonly options: GlobalOptions;
  private readonly init: ContextInit;
  private cachedConfig?: ConfigData;
  private cachedTarget?: Target;
  private cachedPrinter?: Printer;
  private cachedPrompter?: Prompter;
  private clientPromise?: Promise<ApiClient>;
  private readonly cleanups: Array<() => void> = [];

  constructor(init: ContextInit) {
    this.init = init;
    this.options = init.options;
    this.env = init.env ?? process.env;
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

  get format(): Format {
    if (this.options.json) return 'json';
    if (this.options.output) return parseFormat(this.options.output, '--output');
    if (this.env.CRM_OUTPUT) return parseFormat(this.env.CRM_OUTPUT, 'CRM_OUTPUT');
    const configured = this.safeSettings()?.output;
    if (configured) return parseFormat(configured, 'output setting');
    return this.io.stdoutIsTTY ? 'table' : 'tsv';
  }

  get printer(): Printer {
    if (!this.cachedPrinter) {
      const fields = this.options.fields?.split(',').map((field) => field.trim()).filter(Boolean);
      if (this.options.fields !== undefined && !fields?.length) throw usageError('--fields needs at least one field name');
      this.cachedPrinter = new Printer({ io: this.io, format: this.format, fields, quiet: Boolean(this.options.quiet) });
    }
    return this.cachedPrinter;
  }

  get prompter(): Prompter {
    return (this.cachedPrompter ??= this.init.prompter ?? createPrompter(this.io));
  }

  get timeoutMs(): number {
    const raw = this.options.timeout ?? this.safeSettings()?.timeout;
    if (raw === undefined) return 30_000;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0) throw usageError(`invalid --timeout "${raw}" (expected a number of seconds > 0)`);
    return Math.round(seconds * 1000);
  }

  /** A message for people, on stderr. */
  info(message: string): void {
    this.io.stderr.write(`${message}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`crm: warning: ${message}\n`);
  }

  /** The API client for the resolved workspace: the network, or the embedded sandbox in-process. */
  client(): Promise<ApiClient> {
    return (this.clientPromise ??= this.createClient());
  }

  onClose(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  close(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  private safeSettings() {
    try {
      return this.target().settings;
    } catch {
      return undefined;
    }
  }

  private async createClient(): Promise<ApiClient> {
    const target = this.target();
    if (target.kind === 'remote') {
      if (!target.apiKey && !this.dryRun) throw noKeyError();
      return this.clientFor(target.baseUrl, target.apiKey);
    }
    const { openEmbeddedSandbox } = await import('../http/sandbox-transport.js');
    const embedded = await openEmbeddedSandbox(this);
    this.onClose(() => embedded.close());
    return this.newClient(SANDBOX_BASE_URL, embedded.apiKey, this.init.transport ?? embedded.transport);
  }

  /** A client for an explicit workspace over the network (auth login verifies a key with it). */
  async clientFor(baseUrl: string, apiKey: string | undefined): Promise<ApiClient> {
    assertSafeTransport(baseUrl, Boolean(this.options.insecure));
    let transport = this.init.transport;
    if (!transport) {
      const network = await createNetworkTransport();
      this.onClose(() => network.close());
      transport = network;
    }
    return this.newClient(baseUrl, apiKey, transport);
  }

  private newClient(baseUrl: string, apiKey: string | undefined, transport: Transport): ApiClient {
    const spinning: Transport = async (request) => {
      const spinner = this.debug ? undefined : startSpinner(this.io, 'Waiting for the service…');
      try {
        return await transport(request);
      } finally {
        spinner?.stop();
      }
    };
    return new ApiClient({
      baseUrl,
      apiKey,
      transport: spinning,
      timeoutMs: this.timeoutMs,
      userAgent: `crm/${VERSION} node/${process.versions.node} ${process.platform}`,
      trace: this.debug ? (line) => this.io.stderr.write(`${line}\n`) : undefined,
      dryRun: this.dryRun ? (request) => this.printDryRun(request) : undefined,
      waitLong: (ms, reason) => this.waitLong(ms, reason),
    });
  }

  private printDryRun(request: TransportRequest): void {
    const body = request.body === undefined ? undefined : JSON.parse(request.body);
    if (this.format === 'json' || this.format === 'ndjson') {
      const text = JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body: body ?? null }, null, this.format === 'json' ? 2 : undefined);
      this.io.stdout.write(`${text}\n`);
      return;
    }
    const lines = [`${request.method} ${request.url}`, ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`)];
    if (body !== undefined) lines.push('', JSON.stringify(body, null, 2));
    this.io.stdout.write(`${lines.join('\n')}\n`);
  }

  /** A long Retry-After: wait with --wait, count down on a terminal, otherwise give up (exit 5). */
  private async waitLong(ms: number, reason: string): Promise<boolean> {
    const interactive = this.io.stderrIsTTY && this.io.stdinIsTTY;
    if (!this.options.wait && !interactive) return false;
    const until = Date.now() + ms;
    const render = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      return `${reason} Retrying in ${left}s${interactive ? ' (Ctrl-C to stop)' : ''}`;
    };
    if (!this.io.stderrIsTTY) {
      this.info(render());
      await new Promise((resolve) => setTimeout(resolve, ms));
      return true;
    }
    await new Promise<void>((resolve) => {
      const tick = () => {
        this.io.stderr.write(`\r\x1b[2K${render()}`);
        if (Date.now() >= until) {
          clearInterval(timer);
          this.io.stderr.write('\r\x1b[2K');
          resolve();
        }
      };
      const timer = setInterval(tick, 1000);
      tick();
    });
    return true;
  }
}
