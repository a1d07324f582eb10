// The API client provider of a command's Context: the client for the resolved workspace (the
// network, or the embedded sandbox in-process), the look-ups a dry run still sends, the dry-run
// recorder, the request spinner and the Retry-After countdown. Built on first use: a command that
// sends nothing never loads the HTTP core's transports.

import { existsSync, writeFileSync } from 'node:fs';
import { noticeMarker, sandboxPath } from '../config/paths.js';
import { keyFileExposure } from '../config/store.js';
import { API_KEY_HEADER, ApiClient } from '../http/core.js';
import { sleep as abortableSleep } from '../http/pace.js';
import { maskKey, redact, shownHeaderValue } from '../http/redact.js';
import { SANDBOX_BASE_URL, assertSafeTransport, maskCredentials } from '../http/url.js';
import { formatDuration } from '../registry/values.js';
import { createNetworkTransport } from '../transport/network.js';
import { createRecordingTransport, type PlannedRequest } from '../transport/recording.js';
import { openEmbeddedSandbox } from '../transport/sandbox.js';
import type { Transport, TransportRequest } from '../transport/types.js';
import { noKeyError } from './errors.js';
import { safeLine } from './format.js';
import { startSpinner, type IOStreams, type Spinner } from './io.js';
import type { GlobalOptions, Settings } from './settings.js';
import { VERSION } from './version.js';

/** What the provider is built from: the command's streams, settings and hooks. */
interface ApiDeps {
  env: NodeJS.ProcessEnv;
  io: IOStreams;
  options: GlobalOptions;
  settings: Settings;
  /** Ends every request and wait of the command. */
  signal: AbortSignal;
  /** With --dry-run: where the requests it would have sent are recorded. */
  plan: PlannedRequest[];
  debug: boolean;
  /** Replaces the network and sandbox transports (tests). */
  transport?: Transport;
  maxRetries?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** False while the command draws its own progress on stderr. */
  spinnerAllowed: () => boolean;
  onClose: (cleanup: () => void) => void;
  info: (message: string) => void;
  warn: (message: string) => void;
}

export class Api {
  private clientPromise?: Promise<ApiClient>;
  private lookupPromise?: Promise<ApiClient>;
  private madeClient?: ApiClient;
  private readonly spinners = new Set<Spinner>();

  constructor(private readonly deps: ApiDeps) {}

  private get dryRun(): boolean {
    return Boolean(this.deps.options.dryRun);
  }

  client(): Promise<ApiClient> {
    return (this.clientPromise ??= this.createClient(false).then((client) => (this.madeClient = client)));
  }

  /** The look-ups' client (Context.lookupClient): under --dry-run, GETs sent for real, the rest planned. */
  lookupClient(): Promise<ApiClient> {
    if (!this.dryRun) return this.client();
    return (this.lookupPromise ??= this.createClient(true));
  }

  /** The writes that reached the service and have no answer yet. */
  writesUnanswered(): ReturnType<ApiClient['writesUnanswered']> {
    return this.madeClient?.writesUnanswered() ?? [];
  }

  /** A spinner left running would leave the terminal without its cursor. */
  stopSpinners(): void {
    for (const spinner of this.spinners) spinner.stop();
  }

  /** `reads`: a dry run's look-ups, sent for real (see lookupClient). */
  private async createClient(reads: boolean): Promise<ApiClient> {
    const { env, transport } = this.deps;
    const target = this.deps.settings.target();
    if (target.kind === 'remote') {
      if (!target.apiKey && !this.dryRun) throw noKeyError();
      if (target.keySource === 'profile') this.warnIfKeyExposed();
      return this.clientFor(target.baseUrl, target.apiKey, reads && target.apiKey !== undefined);
    }
    const dbPath = sandboxPath(env);
    // A dry run creates no sandbox: with none yet, its look-ups get stand-ins too.
    if ((this.dryRun && !(reads && existsSync(dbPath))) || transport) return this.newClient(SANDBOX_BASE_URL, undefined, transport, reads);
    const embedded = await openEmbeddedSandbox(dbPath, this.dryRun);
    this.deps.onClose(() => embedded.close());
    if (!this.dryRun) this.noticeOnce(dbPath);
    return this.newClient(SANDBOX_BASE_URL, embedded.apiKey, embedded.transport, reads);
  }

  /** A client for an explicit workspace over the network (auth login verifies a key with it). */
  async clientFor(baseUrl: string, apiKey: string | undefined, reads = false): Promise<ApiClient> {
    assertSafeTransport(baseUrl, Boolean(this.deps.options.insecure));
    let transport = this.deps.transport;
    if (!transport && (!this.dryRun || reads)) {
      const network = await createNetworkTransport({ env: this.deps.env });
      this.deps.onClose(() => network.close());
      transport = network;
    }
    return this.newClient(baseUrl, apiKey, transport, reads);
  }

  private newClient(baseUrl: string, apiKey: string | undefined, transport: Transport | undefined, reads = false): ApiClient {
    const { io, debug } = this.deps;
    const mask = (request: TransportRequest): TransportRequest => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, shownHeaderValue(name, value)]));
      if (headers[API_KEY_HEADER]) headers[API_KEY_HEADER] = maskKey(headers[API_KEY_HEADER]);
      return { ...request, headers, body: request.body === undefined ? undefined : redact(request.body, apiKey) };
    };
    const send = this.dryRun || !transport ? createRecordingTransport(this.deps.plan, mask, reads ? transport : undefined) : transport;
    const spinning: Transport = (request) => {
      // Commands that show their own progress (an import's bar) send without this wrapper's await.
      if (!this.deps.spinnerAllowed() || this.dryRun || debug) return send(request);
      const spinner = startSpinner(io, 'Waiting for the service…');
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
      timeoutMs: this.deps.settings.timeoutMs(),
      maxRetries: this.deps.maxRetries,
      sleep: this.deps.sleep,
      userAgent: `crm/${VERSION} node/${process.versions.node} ${process.platform}`,
      trace: debug ? (line) => io.stderr.write(`${safeLine(maskCredentials(line))}\n`) : undefined,
      waitLong: (ms, reason, signal) => this.waitLong(ms, reason, signal),
      signal: this.deps.signal,
    });
  }

  /** Tells a person once (per sandbox database) where their data lives and how to leave the sandbox. */
  private exposureWarned = false;

  /** Once a command: the stored key it sends is in a file other users can read or change. */
  private warnIfKeyExposed(): void {
    if (this.exposureWarned) return;
    this.exposureWarned = true;
    const exposure = keyFileExposure(this.deps.env);
    if (exposure) this.deps.warn(exposure);
  }

  private noticeOnce(dbPath: string): void {
    if (!this.deps.io.stderrIsTTY) return;
    const marker = noticeMarker(dbPath);
    if (existsSync(marker)) return;
    this.deps.info(
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
    const { io, options } = this.deps;
    const reason = safeLine(refusal);
    const interactive = io.stderrIsTTY && io.stdinIsTTY;
    if (!options.wait && !interactive) return false;
    const sleep = this.deps.sleep ?? abortableSleep;
    const line = (seconds: number) => `${reason} Retrying in ${formatDuration(seconds * 1000)}${interactive ? ' (Ctrl-C to stop)' : ''}`;
    const seconds = Math.ceil(ms / 1000);
    if (!io.animatesStderr) {
      this.deps.info(line(seconds));
      await sleep(ms, signal);
      return true;
    }
    // The first second shown may be a part of one: the rest are whole.
    try {
      for (let left = seconds; left > 0; left--) {
        io.stderr.write(`\r\x1b[2K${line(left)}`);
        await sleep(left === seconds ? ms - (seconds - 1) * 1000 : 1000, signal);
      }
    } finally {
      io.stderr.write('\r\x1b[2K');
    }
    return true;
  }
}
