// JSON-RPC messages as lines on stdio, for the SDK's Server: the SDK's own stdio transport reads the
// same lines, but it answers nothing to a line it cannot read (the client waits for ever), and a
// line over its buffer closes the connection (the process then ended with exit 13). Here every line
// is answered or served, whatever came before it:
// - not JSON: -32700 (parse error); JSON that is not a JSON-RPC message: -32600 (invalid request),
//   with the request's id when it has one, else null, as JSON-RPC 2.0 says;
// - a line over MAX_LINE_BYTES is skipped as it arrives (never held whole) and answered -32600,
//   with its id when its head shows one;
// - tools/call or prompts/get whose params do not fit (arguments not an object, no name): -32602;
// - a request other than initialize (and ping) before initialize: -32600. A client that sends its
//   first call right after initialize, without waiting for the answer (`printf ... | crm mcp`), is
//   served: the messages are handled in order.
// The messages themselves are the SDK's (its schema and serialisation); only the framing is here.

import { STDIO_DEFAULT_MAX_BUFFER_SIZE, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, JSONRPCMessageSchema, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { InStream, OutStream } from '../../cli/io.js';

/** The longest line read, as the SDK's own transport allows (10 MiB). */
const MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;
/** How much of a line too long is looked at for its id. */
const HEAD_BYTES = 1024;
const NEWLINE = 0x0a;
/** Requests a client may send before initialize is answered. */
const BEFORE_INITIALIZE = new Set(['initialize', 'ping']);
/**
 * The requests whose params an agent writes, by their SDK schema: params that do not fit are -32602
 * naming what is wrong (the SDK would answer -32603, an internal error, with the schema's whole report).
 */
const PARAMS_CHECKED = new Map<string, { safeParse(value: unknown): { error?: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } } }>([
  ['tools/call', CallToolRequestSchema],
  ['prompts/get', GetPromptRequestSchema],
]);

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Resolves when stdin ends (the client closed it) or the transport was closed. */
  readonly ended: Promise<void>;
  private endReading!: () => void;
  private closed = false;
  /** An initialize request has come. */
  private initialized = false;
  /** Resolves when stdout, full, has drained. */
  private drained?: Promise<void>;

  constructor(
    private readonly input: InStream,
    private readonly output: OutStream,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {
    this.ended = new Promise((resolve) => (this.endReading = resolve));
  }

  async start(): Promise<void> {
    void this.read().then(
      () => this.endReading(),
      (error: unknown) => {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        this.endReading();
      },
    );
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const written = this.output.write(serializeMessage(message));
    // A pipe that is full (a client that reads slowly): wait until it drains (process.stdout; a
    // test's stream never is). Every answer written meanwhile waits for the same drain: a listener
    // each made Node warn, past 10, of a leak in the client's log.
    const stream = this.output as OutStream & { once?: (event: 'drain', listener: () => void) => unknown };
    if (written === false && stream.once) {
      this.drained ??= new Promise<void>((resolve) => stream.once!('drain', resolve)).finally(() => (this.drained = undefined));
      await this.drained;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.endReading();
    // Nothing more is read: a process's stdin left open would keep it alive.
    (this.input as InStream & { destroy?: () => void }).destroy?.();
    this.onclose?.();
  }

  private async read(): Promise<void> {
    let parts: Buffer[] = [];
    let size = 0;
    /** The line under way is too long: the rest of it is dropped as it comes. */
    let skipping = false;
    for await (const chunk of this.input) {
      if (this.closed) return;
      let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      for (let end = rest.indexOf(NEWLINE); ; end = rest.indexOf(NEWLINE)) {
        const piece = end < 0 ? rest : rest.subarray(0, end);
        if (!skipping && size + piece.length > this.maxLineBytes) {
          skipping = true;
          this.tooLong(Buffer.concat([...parts, piece], Math.min(HEAD_BYTES, size + piece.length)));
          parts = [];
          size = 0;
        }
        if (end < 0) {
          if (!skipping && piece.length > 0) {
            parts.push(piece);
            size += piece.length;
          }
          break;
        }
        if (skipping) skipping = false;
        else this.line(Buffer.concat([...parts, piece]).toString('utf8'));
        parts = [];
        size = 0;
        rest = rest.subarray(end + 1);
      }
    }
    // A last line without its newline is read all the same.
    if (!skipping && size > 0 && !this.closed) this.line(Buffer.concat(parts).toString('utf8'));
  }

  private line(text: string): void {
    if (this.closed || text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.refuse(null, ErrorCode.ParseError, 'Parse error: the line is not JSON');
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) return this.refuse(idOf(value), ErrorCode.InvalidRequest, 'Invalid request: not a JSON-RPC 2.0 message');
    const message = parsed.data;
    if (isJSONRPCRequest(message) && !this.initialized && !BEFORE_INITIALIZE.has(message.method)) {
      return this.refuse(message.id, ErrorCode.InvalidRequest, `Invalid request: ${message.method} before initialize; send initialize first`);
    }
    if (isJSONRPCRequest(message) && message.method === 'initialize') this.initialized = true;
    const issue = isJSONRPCRequest(message) ? PARAMS_CHECKED.get(message.method)?.safeParse(message).error?.issues[0] : undefined;
    if (issue && isJSONRPCRequest(message)) {
      return this.refuse(message.id, ErrorCode.InvalidParams, `Invalid params: ${issue.path.map(String).join('.')}: ${issue.message.replace(/^Invalid input: /, '')}`);
    }
    this.onmessage?.(message);
  }

  private tooLong(head: Buffer): void {
    this.refuse(idInHead(head.toString('utf8')), ErrorCode.InvalidRequest, `Invalid request: the message is longer than ${this.maxLineBytes} bytes and was not read`);
  }

  private refuse(id: RequestId | null, code: number, message: string): void {
    // JSON-RPC answers a request it could not identify with id null, which the SDK's types do not allow.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
  }
}

/** The id of what looks like a request, when it is a string or a number. */
function idOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** The id of a message too long to read, when it comes first among its members (as clients write them). */
function idInHead(head: string): RequestId | null {
  const match = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")/.exec(head);
  if (!match) return null;
  try {
    return idOf({ id: JSON.parse(match[1]!) });
  } catch {
    return null;
  }
}

/**
 * An error the SDK answers as it is (code and message): its own McpError writes "MCP error -32602:"
 * into the message, and the client's adds the same prefix again.
 */
export function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
