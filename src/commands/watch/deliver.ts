// What crm watch does with each new record besides printing it: run a command (--exec) and POST it
// to a local app (--forward-to), as `stripe listen --forward-to` gives webhooks to a service that
// sends none. A forward is retried with backoff; it must succeed before the record counts as handled.

import { CliError, ExitCode } from '../../cli/errors.js';
import type { OutStream } from '../../cli/io.js';
import { safeText } from '../../cli/format.js';
import { VERSION } from '../../cli/version.js';
import { backoffDelay, parseRetryAfter } from '../../http/retry.js';
import { formatDuration } from '../../registry/values.js';
import { TransportError, type Transport } from '../../transport/types.js';
import { unlessStopped } from '../stop.js';

/** Attempts of one forward before the poll counts as failed (the record is delivered again later). */
const FORWARD_ATTEMPTS = 4;
const SIGNATURE_HEADER = 'X-CRM-Signature';
const EVENT_ID_HEADER = 'X-CRM-Event-Id';
/** A receiver's Retry-After is waited out up to this long (it is untrusted: a year, or a value that overflows a timer). */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

export interface Delivery {
  record: unknown;
  id: string;
  /** contacts, deals, ... */
  resource: string;
  /** contact, deal, ... */
  noun: string;
  /** crm watch --changes: the change (created, updated, deleted) and its event id; new records otherwise. */
  event?: { type: string; id: string };
}

interface ExecOptions {
  env: NodeJS.ProcessEnv;
  /** Where the command's output goes. */
  stderr: OutStream;
  signal: AbortSignal;
  /** How long the command may run (--exec-timeout), in real time: the command's own clock is the machine's. */
  timeoutMs: number;
}

/**
 * Runs CMD through the shell with the record as JSON on its stdin. Its output goes to crm's stderr
 * (stdout carries only crm's data). Resolves with how it ended; a failure is the caller's to report.
 * A command still running after its timeout is killed (SIGKILL: a hung command may ignore SIGTERM,
 * and would then run beside its own retry), and what it left running is not waited for.
 */
export async function runExec(command: string, delivery: Delivery, { env, stderr, signal, timeoutMs }: ExecOptions): Promise<string | undefined> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      env: { ...env, CRM_RECORD_ID: environmentId(delivery.id), CRM_RESOURCE: delivery.resource, CRM_EVENT: delivery.event?.type ?? 'created', ...(delivery.event ? { CRM_EVENT_ID: delivery.event.id } : {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
      signal,
    });
    const relay = (chunk: string) => stderr.write(chunk);
    child.stdout.setEncoding('utf8').on('data', relay);
    child.stderr.setEncoding('utf8').on('data', relay);
    // A command that does not read its stdin closes it early: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(`${JSON.stringify(delivery.record)}\n`);
    // Stopped or timed out: the command is killed, and what it left running (a background job
    // holding its output) is not waited for: its pipes are let go, so that crm can go on or end.
    const letGo = () => {
      clearTimeout(timer);
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const stop = () => {
      letGo();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      letGo();
      resolve(`did not finish within ${formatDuration(timeoutMs)} (--exec-timeout) and was killed`);
    }, timeoutMs);
    signal.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      if (signal.aborted) reject(signal.reason);
      else resolve(`could not be started: ${error.message}`);
    });
    child.on('close', (code, killedBy) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      if (signal.aborted) return reject(signal.reason);
      resolve(code === 0 ? undefined : killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`);
    });
  });
}

interface ForwardOptions {
  url: string;
  secret?: string;
  transport: Transport;
  timeoutMs: number;
  signal: AbortSignal;
  /** The command's clock, in ms: the signature's timestamp. */
  now: () => number;
  /** Waits between attempts (the command's clock). */
  pause: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told about each failed attempt that will be tried again. */
  onRetry?: (message: string) => void;
}

/** POSTs the record as JSON; resolves once the receiver answered 2xx, throws after FORWARD_ATTEMPTS. */
export async function forward(delivery: Delivery, options: ForwardOptions): Promise<void> {
  const body = JSON.stringify(delivery.record);
  const shown = displayUrl(options.url);
  for (let attempt = 1; ; attempt++) {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': `crm/${VERSION}`,
      // The same for every attempt and every restart: the receiver drops what it has already seen.
      [EVENT_ID_HEADER]: eventId(delivery),
      'X-CRM-Event-Type': `${delivery.noun}.${delivery.event?.type ?? 'created'}`,
      'X-CRM-Delivery-Attempt': String(attempt),
    };
    if (options.secret) headers[SIGNATURE_HEADER] = await signature(options.secret, body, Math.floor(options.now() / 1000));
    let problem: string;
    let asked: number | undefined;
    try {
      const response = await unlessStopped(options.transport({ method: 'POST', url: options.url, headers, body, timeoutMs: options.timeoutMs }), options.signal);
      if (response.status >= 200 && response.status < 300) return;
      problem = `HTTP ${response.status}`;
      // A receiver that is busy (429) or down for a while (503) may say when to come back.
      if (response.status === 429 || response.status === 503) asked = parseRetryAfter(response.headers['retry-after']);
    } catch (error) {
      if (options.signal.aborted || !(error instanceof TransportError)) throw error;
      problem = error.message;
    }
    const message = `could not forward ${delivery.noun} ${delivery.id} to ${shown}: ${problem}`;
    if (attempt >= FORWARD_ATTEMPTS) throw new CliError(`${message} (${attempt} attempts)`, ExitCode.network, { code: 'delivery_failed' });
    const delay = Math.max(backoffDelay(attempt - 1), Math.min(asked ?? 0, MAX_RETRY_AFTER_MS));
    const why = asked === undefined ? '' : asked > MAX_RETRY_AFTER_MS ? ` (it asked for ${formatDuration(asked)}: at most ${formatDuration(MAX_RETRY_AFTER_MS)} is waited)` : ' (as it asked)';
    options.onRetry?.(`${message}; trying again in ${formatDuration(delay)}${why}`);
    await options.pause(delay, options.signal);
  }
}

/**
 * The change's event id (--changes), or `contact.created.<id>`. A header holds printable ASCII only,
 * and ids are any text: every other character (and `%` itself, so that no two ids share an event id)
 * is percent-encoded as UTF-8. Ids of letters, digits and punctuation read as they are; the body keeps
 * the id as it is.
 */
function eventId(delivery: Delivery): string {
  return percentEncoded(delivery.event?.id ?? `${delivery.noun}.created.${delivery.id}`);
}

/**
 * The id as --exec's environment holds it: as it is, unless it holds a NUL, which no environment
 * variable can (the command could not be started, and the record blocked the watch for good): then
 * percent-encoded as in the event id. The record on stdin keeps the id as it is.
 */
function environmentId(id: string): string {
  return id.includes('\0') ? percentEncoded(id) : id;
}

/** Every character outside printable ASCII, and `%` itself, percent-encoded as UTF-8. */
function percentEncoded(text: string): string {
  return text.replace(/[^\x21-\x24\x26-\x7e]+/g, (run) => [...Buffer.from(run, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

/**
 * As Stripe signs its webhooks: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. The time
 * lets a receiver refuse an old delivery replayed.
 */
async function signature(secret: string, body: string, unixSeconds: number): Promise<string> {
  const { createHmac } = await import('node:crypto');
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

/** The forward URL as messages show it: no credentials or query (they may hold a token). */
function displayUrl(url: string): string {
  const parsed = new URL(url);
  return safeText(`${parsed.protocol}//${parsed.host}${parsed.pathname}`);
}
