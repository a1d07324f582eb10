// crm sandbox serve [--port N]: the sandbox over HTTP on 127.0.0.1; one of the sandbox's two doors
// (the other is the embedded transport): the only command that imports src/sandbox/.

import { usageError } from '../../../cli/errors.js';
import { record } from '../../../cli/result.js';
import { sandboxPath } from '../../../config/paths.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';

const DEFAULT_PORT = 4010;

export const run: Handler<Spec> = async (ctx, { options }) => {
  if (ctx.dryRun) throw usageError('sandbox serve sends no requests; --dry-run does not apply');
  const port = options.port ?? DEFAULT_PORT;
  const { openSandbox } = await import('../../../sandbox/index.js');
  const { serveSandbox } = await import('../../../sandbox/server.js');
  const sandbox = await openSandbox({ dbPath: sandboxPath(ctx.env) });
  let served;
  try {
    served = await serveSandbox({
      sandbox,
      port,
      onRequest: ctx.debug ? (entry) => ctx.info(`${entry.status} ${entry.method} ${entry.url}`) : undefined,
    });
  } catch (error) {
    sandbox.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw usageError(`port ${port} is in use`, 'pick another with --port N, or --port 0 for a free one');
    throw error;
  }
  ctx.info(
    `Sandbox serving at ${served.url} (database ${sandbox.dbPath}).\n` +
      `Try: CRM_BASE_URL=${served.url} CRM_API_KEY=${sandbox.apiKey} crm contacts list\n` +
      'Press Ctrl-C to stop.',
  );
  // Stopping releases the port and the database: after SIGTERM (exit 0), or Ctrl-C (exit 130, like
  // any command: src/cli/io.ts).
  ctx.onClose(() => {
    void served.close();
    sandbox.close();
  });
  // The address goes out first (scripts and tests read it), then the server runs until a signal.
  const afterPrint = async () => {
    await new Promise<void>((resolve) => ctx.io.signals.once('SIGTERM', resolve));
    return undefined;
  };
  return { ...record({ url: served.url, api_key: sandbox.apiKey, port: served.port, path: sandbox.dbPath }, { columns: ['url'] }), afterPrint };
};
