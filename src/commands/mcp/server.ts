// The Model Context Protocol on stdio with the official SDK, loaded only by `crm mcp`. The low-level
// Server takes the registry's JSON Schemas as they are (McpServer wants zod shapes). stdin and stdout
// carry the protocol and nothing else (./lines.ts frames it); messages go to stderr, the MCP
// client's log.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Context, ProgressUpdate } from '../../cli/context.js';
import { escapeForModel, safeLine } from '../../cli/format.js';
import { VERSION } from '../../cli/version.js';
import { closestName } from '../../registry/values.js';
import type { Tree } from '../command.js';
import { callTool, type ToolResult } from './call.js';
import { instructionsFor } from './instructions.js';
import { LineTransport, protocolError } from './lines.js';
import { getPrompt, listPrompts } from './prompts.js';
import type { Tool } from './tools.js';
import type { Workspace } from './workspace.js';

/** Why the server stopped: the client closed stdin, or a signal. */
type Ending = 'eof' | 'SIGINT' | 'SIGTERM';

/**
 * Once the client has closed stdin, what a call still under way gets to finish (its answer is
 * written: a pipe's reader may still read it) before it is cancelled: the process ends within a
 * second, never after the retries of a call that hangs.
 */
const GRACE_MS = 500;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Serves the tools until the client closes stdin (or a signal), then ends the calls under way (those
 * that finish within GRACE_MS after stdin closed are answered). `ctx` owns the process's streams;
 * tool calls run on `calls` (Context.headless()).
 */
export async function serveMcp(ctx: Context, calls: Context, tree: Tree, tools: readonly Tool[], workspace: Workspace, readOnly: boolean): Promise<Ending> {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: 'crm', version: VERSION }, { capabilities: { tools: {}, prompts: {}, logging: {} }, instructions: instructionsFor(workspace, tools, readOnly) });
  const stopping = new AbortController();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.definition) }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listPrompts(byName) }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(byName, request.params.name, request.params.arguments ?? {}));
  const underWay = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw protocolError(ErrorCode.InvalidParams, unknownTool(tree, byName, request.params.name));
    // The client's cancel (notifications/cancelled), or the server stopping, ends the call's requests and waits.
    const call = callTool(calls.forCall(AbortSignal.any([extra.signal, stopping.signal]), progressOf(extra)), tree, tool, request.params.arguments, workspace);
    underWay.add(call);
    const result = await call.finally(() => underWay.delete(call));
    // A call its client cancelled gets no answer (the protocol says so): what it did goes to the log.
    if (extra.signal.aborted) reportCancelled(ctx, server, tool, result);
    // One abandoned as the server stops is answered, to a client that may no longer read: what it did
    // (a write may have taken effect) goes to stderr too, where whoever runs the server finds it.
    else if (stopping.signal.aborted && result.isError) ctx.warn(`mcp: ${tool.name} was abandoned as crm mcp stopped: ${result.content[0]?.text ?? ''}`);
    return result;
  });
  server.onerror = (error) => ctx.warn(`mcp: ${error.message}`);

  const transport = new LineTransport(ctx.io.stdin, ctx.io.stdout);
  let stop: (ending: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => (stop = resolve));
  const onSigint = () => stop('SIGINT');
  const onSigterm = () => stop('SIGTERM');
  ctx.io.signals.once('SIGINT', onSigint);
  ctx.io.signals.once('SIGTERM', onSigterm);
  void transport.ended.then(() => stop('eof'));

  await server.connect(transport);
  ctx.info(`crm mcp: ${tools.length} tools (${[...new Set(tools.map((tool) => tool.op.group))].join(', ')}) for ${workspace.description}, on stdio`);
  const ending = await ended;
  ctx.io.signals.off('SIGINT', onSigint);
  ctx.io.signals.off('SIGTERM', onSigterm);
  if (ending === 'eof' && underWay.size > 0) await Promise.race([Promise.allSettled(underWay), new Promise((resolve) => setTimeout(resolve, GRACE_MS).unref())]);
  stopping.abort(new Error('crm mcp is stopping'));
  await Promise.allSettled(underWay);
  // The SDK sends each answer in the promise callbacks after its call settles: let them run first.
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  return ending;
}

/**
 * The client's progress notifications for a call that asked for them (a progressToken): one for each
 * item of a bulk call, one before each wait for a retry. Progress only grows, as the protocol wants:
 * the items done, and a fraction more for each wait since the last one.
 */
function progressOf(extra: Extra): ((update: ProgressUpdate) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let done = 0;
  let waits = 0;
  let total: number | undefined;
  return (update) => {
    if (update.done === undefined) waits++;
    else {
      done = update.done;
      waits = 0;
    }
    total = update.total ?? total;
    const params = { progressToken: token, progress: done + waits / (waits + 1), ...(total === undefined ? {} : { total }), message: escapeForModel(safeLine(update.message)) };
    extra.sendNotification({ method: 'notifications/progress', params }).catch(() => {});
  };
}

/** What a cancelled call did, on stderr and as a log message to the client (it gets no answer). */
function reportCancelled(ctx: Context, server: Server, tool: Tool, result: ToolResult): void {
  const text = `${tool.name} was cancelled: ${result.content[0]?.text ?? ''}`;
  ctx.warn(`mcp: ${text}`);
  server.sendLoggingMessage({ level: 'warning', logger: 'crm', data: text }).catch(() => {});
}

function unknownTool(tree: Tree, served: ReadonlyMap<string, Tool>, name: string): string {
  const quoted = escapeForModel(safeLine(JSON.stringify(name)));
  if (tree.commands.some((command) => command.endpoint?.name === name)) return `tool ${quoted} is not served: crm mcp was started with --read-only, --toolsets, --tools or --exclude-tools that leave it out`;
  const near = closestName(name, [...served.keys()]);
  return `unknown tool ${quoted}${near ? `; did you mean "${near}"?` : ''}`;
}
