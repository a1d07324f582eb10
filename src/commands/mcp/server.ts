// The Model Context Protocol on stdio with the official SDK, loaded only by `crm mcp`. The low-level
// Server takes the registry's JSON Schemas as they are (McpServer wants zod shapes). stdin and stdout
// carry the protocol and nothing else; messages go to stderr, the MCP client's log.

import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../../cli/context.js';
import { safeLine } from '../../cli/format.js';
import { VERSION } from '../../cli/version.js';
import type { Tree } from '../command.js';
import { callTool } from './call.js';
import { LIST_MAX, selectTools, type Selection } from './tools.js';

/** Why the server stopped: the client closed stdin, or a signal. */
type Ending = 'eof' | 'SIGINT' | 'SIGTERM';

/**
 * Serves the tools until the client closes stdin (or a signal), then lets the calls under way finish.
 * `ctx` owns the process's streams; tool calls run on `calls` (Context.headless()).
 */
export async function serveMcp(ctx: Context, calls: Context, tree: Tree, selection: Selection): Promise<Ending> {
  const tools = selectTools(tree.commands, selection);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const workspace = workspaceOf(calls);
  const groups = [...new Set(tools.map((tool) => tool.op.group))].join(', ');
  const server = new Server({ name: 'crm', version: VERSION }, { capabilities: { tools: {} }, instructions: instructions(workspace, groups) });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(({ op: _op, ...definition }) => definition) }));
  const underWay = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, unknownTool(tree, request.params.name));
    // The client's cancel (notifications/cancelled) stops the call's requests and waits.
    const call = callTool(calls.withSignal(extra.signal), tree, tool, request.params.arguments);
    underWay.add(call);
    const settled = () => underWay.delete(call);
    call.then(settled, settled);
    return call;
  });
  server.onerror = (error) => ctx.warn(`mcp: ${safeLine(error.message)}`);

  const stdin = ctx.io.stdin as unknown as Readable;
  let stop: (ending: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => (stop = resolve));
  const onEnd = () => stop('eof');
  const onSigint = () => stop('SIGINT');
  const onSigterm = () => stop('SIGTERM');
  stdin.once('end', onEnd);
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);

  await server.connect(new StdioServerTransport(stdin, ctx.io.stdout as unknown as Writable));
  ctx.info(`crm mcp: ${tools.length} tools (${groups}) for ${workspace}, on stdio`);
  const ending = await ended;
  stdin.off('end', onEnd);
  process.off('SIGINT', onSigint);
  process.off('SIGTERM', onSigterm);
  await Promise.allSettled(underWay);
  // The SDK sends each answer in the promise callbacks after its call settles: let them run first.
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  return ending;
}

function workspaceOf(ctx: Context): string {
  const target = ctx.target();
  return target.kind === 'sandbox' ? 'the local sandbox workspace (demo data on this machine)' : `the workspace at ${target.baseUrl} (profile ${target.profile})`;
}

function instructions(workspace: string, groups: string): string {
  return [
    `Tools for ${workspace}, a CRM: ${groups}.`,
    `Lists are newest first and return at most ${LIST_MAX} records a call: when has_more is true, call again with the cursor it returned (and the same other arguments).`,
    'Ids are strings: find them with the list tools or search. Arguments are checked before anything is sent; a failed call returns isError with the reason.',
  ].join('\n');
}

function unknownTool(tree: Tree, name: string): string {
  const quoted = safeLine(JSON.stringify(name));
  return tree.commands.some((command) => command.endpoint?.name === name) ? `tool ${quoted} is not served: crm mcp was started with --read-only or --toolsets that leave it out` : `unknown tool ${quoted}`;
}
