// crm mcp [--read-only] [--toolsets GROUP,...]: every endpoint as a tool for AI agents, over the Model
// Context Protocol on stdio. The SDK and the tools are loaded here, on use: no other command pays.

import { interruptedError, usageError } from '../../cli/errors.js';
import { NOTHING } from '../../cli/result.js';
import type { OperationRunner } from '../mcp/call.js';
import type { LocalHandler } from './types.js';

/** The handler, given the code that runs an operation (a tool call runs what the command runs). */
export function serve(run: OperationRunner): LocalHandler {
  return async (ctx, { options }) => {
    if (ctx.dryRun) throw usageError('crm mcp serves tools to an agent; --dry-run does not apply');
    // Tool calls get a context of their own: stdin and stdout carry the protocol.
    const calls = ctx.headless();
    ctx.onClose(() => calls.close());
    // No key, or an unsafe base URL: said here, as by any command, before the protocol starts.
    await calls.client();
    const { serveMcp } = await import('../mcp/server.js');
    const selection = { readOnly: options.flag('read_only'), groups: options.has('toolsets') ? options.list('toolsets') : undefined };
    const ending = await serveMcp(ctx, calls, selection, run);
    // Ctrl-C is reported like any interruption (exit 130); the client closing stdin or SIGTERM is a clean stop.
    if (ending === 'SIGINT') throw interruptedError();
    return NOTHING;
  };
}
