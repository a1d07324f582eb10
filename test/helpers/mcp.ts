// crm mcp in this process, driven by the SDK's own client as an agent's client drives it: `crm mcp`
// runs through main(argv, init) with its stdin and stdout joined to the client by two pipes (the SDK's
// stdio line framing on the client's side), against the in-process workspace (its request log and
// scripted faults) and an injected sleep. Everything between the client and the transport is the
// real code; test/e2e/mcp.test.ts runs the built process for what only a process shows.

import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { SignalSource } from '../../src/cli/io.js';
import { main } from '../../src/main.js';
import { BASE_URL, homeEnv, type Workspace } from './inprocess.js';

export interface McpSession {
  client: Client;
  /** What crm mcp wrote to stderr so far (the client's log). */
  stderr(): string;
  /** Writes a raw line to crm mcp's stdin (a misbehaving client). */
  writeRaw(text: string): void;
  /** Every message crm mcp wrote to stdout, parsed, in order. */
  written: unknown[];
  /** The exit code, once crm mcp has ended (by itself: a signal; close() ends it too). */
  exited: Promise<number>;
  /** Closes stdin and resolves with the exit code. */
  close(): Promise<number>;
}

export interface McpOptions {
  ws: Workspace;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Every wait between attempts; none takes real time when given. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Connect the SDK's client (initialize); false: the test speaks the protocol itself with writeRaw. */
  connect?: boolean;
  /** The process's signals as crm mcp hears them (an EventEmitter: emit('SIGTERM') reaches it alone); by default an emitter of the session's own, so that no test touches the worker's process. */
  signals?: SignalSource;
}

export async function startMcp({ ws, args = [], env, sleep, connect = true, signals }: McpOptions): Promise<McpSession> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  let stderr = '';
  const written: unknown[] = [];
  let buffered = '';
  const exited = main(['mcp', ...args], {
    env: env ?? { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey },
    stdin: toServer,
    stdout: {
      write: (text: string) => {
        buffered += text;
        for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
          written.push(JSON.parse(buffered.slice(0, end)));
          buffered = buffered.slice(end + 1);
        }
        return fromServer.write(text);
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    transport: ws.transport,
    sleep,
    signals: signals ?? new EventEmitter(),
  });
  const client = new Client({ name: 'crm-test', version: '1.0.0' });
  // The SDK's stdio transport frames lines over any two streams: the client reads what the server writes.
  // A server that exits before it serves (a bad flag, no key) fails the test with what it said.
  const failedToStart = exited.then((code) => {
    throw new Error(`crm mcp exited ${code} before serving: ${stderr}`);
  });
  if (connect) await Promise.race([client.connect(new StdioServerTransport(fromServer, toServer)), failedToStart]);
  failedToStart.catch(() => {});
  return {
    client,
    stderr: () => stderr,
    writeRaw: (text) => toServer.write(text),
    written,
    exited,
    close: async () => {
      toServer.end();
      const code = await exited;
      await client.close().catch(() => {});
      return code;
    },
  };
}
