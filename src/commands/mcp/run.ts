// crm mcp [--read-only] [--toolsets GROUP,...] [--tools NAME,...] [--exclude-tools NAME,...]: every
// endpoint as a tool for AI agents, over the Model Context Protocol on stdio. Everything that can be
// wrong with the flags, the environment or the workspace is said before the protocol starts; the SDK
// is loaded here, on use: no other command pays.

import type { Context, GlobalOptions } from '../../cli/context.js';
import { ExitCode, interruptedError, toCliError, usageError } from '../../cli/errors.js';
import { parseValue } from '../../cli/input.js';
import { isTruthy } from '../../cli/io.js';
import { NOTHING } from '../../cli/result.js';
import type { FieldSpec } from '../../registry/types.js';
import { closestName } from '../../registry/values.js';
import { callsEndpoint, type Handler, type Tree } from '../command.js';
import { probe } from '../auth/probe.js';
import type { Spec } from './command.js';
import { selectTools, type Selection } from './tools.js';
import { workspaceOf, type Workspace } from './workspace.js';

/** How long the start-up check of the key may take: a workspace that does not answer is served all the same. */
const KEY_CHECK_MS = 10_000;

export const run: Handler<Spec> = async (ctx, { command, options, tree }) => {
  if (ctx.dryRun) throw usageError('crm mcp serves tools to an agent; --dry-run does not apply');
  const shaping = outputFlags(ctx.options);
  if (shaping.length > 0) throw usageError(`crm mcp writes the MCP protocol on stdout; ${shaping.join(', ')} ${shaping.length > 1 ? 'do' : 'does'} not apply`, "an agent asks a tool for the fields it wants (its fields argument)");
  const selection = selectionOf(ctx, command.options, options, tree);
  const tools = selectTools(tree.commands, selection);
  if (tools.length === 0) throw usageError('no tool left to serve: --read-only, --toolsets, --tools and --exclude-tools leave out every one');
  // Tool calls get a context of their own: stdin and stdout carry the protocol.
  const calls = ctx.headless();
  ctx.onClose(() => calls.close());
  // No key, or an unsafe base URL: said here, as by any command, before the protocol starts.
  await calls.client();
  const workspace = workspaceOf(calls);
  await checkKey(ctx, calls, workspace);
  const { serveMcp } = await import('./server.js');
  const ending = await serveMcp(ctx, calls, tree, tools, workspace, Boolean(selection.readOnly));
  // Ctrl-C is reported like any interruption (exit 130); the client closing stdin or SIGTERM is a clean stop.
  if (ending === 'SIGINT') throw interruptedError();
  return NOTHING;
};

/**
 * The output flags given on the command line: nothing they shape is printed (stdout is the protocol,
 * a tool's result is JSON whatever they say), so they are refused rather than ignored. CRM_OUTPUT
 * and the profile's output setting are defaults for every command, not asked of this one: they pass.
 */
function outputFlags(options: GlobalOptions): string[] {
  const given: Array<[string, unknown]> = [['--json', options.json], ['--output', options.output], ['--fields', options.fields], ['--jq', options.jq], ['--escape-formulas', options.escapeFormulas]];
  return given.filter(([, value]) => value !== undefined && value !== false).map(([flag]) => flag);
}

/** The flags, each over its variable (CRM_READ_ONLY, CRM_TOOLSETS); tool names checked against the tree. */
function selectionOf(ctx: Context, fields: readonly FieldSpec[], options: Parameters<Handler<Spec>>[1]['options'], tree: Tree): Selection {
  const toolsets = fields.find((field) => field.name === 'toolsets')!;
  const groups = options.toolsets ?? (ctx.env.CRM_TOOLSETS ? (parseValue(ctx.env.CRM_TOOLSETS, toolsets, 'CRM_TOOLSETS') as string[]) : undefined);
  const names = tree.commands.filter(callsEndpoint).map((command) => command.name);
  const known = (list: readonly string[] | undefined, flag: string) => {
    for (const name of list ?? []) {
      if (names.includes(name)) continue;
      const near = closestName(name, names);
      throw usageError(`unknown tool "${name}" in ${flag}${near ? `; did you mean "${near}"?` : ''}`, 'crm mcp --help lists the groups; the README lists every tool');
    }
    return list;
  };
  return {
    readOnly: options.read_only ?? isTruthy(ctx.env.CRM_READ_ONLY),
    groups,
    tools: known(options.tools, '--tools'),
    excluded: known(options.exclude_tools, '--exclude-tools'),
  };
}

/**
 * One authenticated request before serving: a key the workspace refuses is said on stderr (the
 * client's log) and in the instructions, and every tool error says who must fix it. A workspace that
 * cannot be reached now is served all the same (it may be back by the first call).
 */
async function checkKey(ctx: Context, calls: Context, workspace: Workspace): Promise<void> {
  const check = calls.forCall(AbortSignal.timeout(KEY_CHECK_MS));
  try {
    await probe(await check.client());
  } catch (error) {
    const failure = toCliError(error);
    if (failure.status === 401) {
      workspace.keyRefused = true;
      ctx.warn(`the API key (${workspace.keyFrom ?? 'the sandbox'}) was refused by ${workspace.host ?? 'the service'}: every tool call will fail until it is replaced (${failure.message})`);
    } else if (failure.exitCode === ExitCode.interrupted) {
      ctx.warn(`could not check the API key: ${workspace.host ?? 'the service'} did not answer within ${KEY_CHECK_MS / 1000}s`);
    } else {
      ctx.warn(`could not check the API key: ${failure.message}`);
    }
  }
}
