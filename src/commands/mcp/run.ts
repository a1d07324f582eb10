// crm mcp [--read-only] [--toolsets GROUP,...]: every endpoint as a tool for AI agents, over the Model
// Context Protocol on stdio. The SDK and the tools are loaded here, on use: no other command pays.

import { interruptedError, usageError } from '../../cli/errors.js';
import { NOTHING } from '../../cli/result.js';
import type { Handler } from '../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { options, tree }) => {
  if (ctx.dryRun) throw usageError('crm mcp serves tools to an agent; --dry-run does not apply');
  // Tool calls get a context of their own: stdin and stdout carry the protocol.
  const calls = ctx.headless();
  ctx.onClose(() => calls.close());
  // No key, or an unsafe base URL: said here, as by any command, before the protocol starts.
  await calls.client();
  const { serveMcp } = await import('./server.js');
  const ending = await serveMcp(ctx, calls, tree, { readOnly: Boolean(options.read_only), groups: options.toolsets });
  // Ctrl-C is reported like any interruption (exit 130); the client closing stdin or SIGTERM is a clean stop.
  if (ending === 'SIGINT') throw interruptedError();
  return NOTHING;
};
