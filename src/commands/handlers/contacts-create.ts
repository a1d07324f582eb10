// crm contacts create [--score]: the generic create, then, with --score, POST /ai/trigger at once
// (the spec's way to react to a new contact).

import { CliError, ExitCode } from '../../cli/errors.js';
import { isObject } from '../../http/envelope.js';
import { buildBody, pathOf, type Handler } from '../run.js';

export const run: Handler = async (ctx, invocation) => {
  const { op, options } = invocation;
  const body = await buildBody(ctx, invocation);
  const client = await ctx.client();
  const contact = await client.request(op.method, pathOf(invocation), { body });
  if (!options.score || !isObject(contact) || contact.id === undefined) {
    return ctx.printer.record(contact, { columns: op.columns }, { quietId: true });
  }
  try {
    const scoring = await client.request('POST', '/ai/trigger', { body: { contact_id: contact.id } });
    const scored = isObject(scoring) ? { ...contact, score: scoring.score, next_best_action: scoring.next_best_action } : contact;
    await ctx.printer.record(scored, { columns: op.columns }, { quietId: true });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    // The contact exists: print it, and say that only the scoring failed.
    await ctx.printer.record(contact, { columns: op.columns }, { quietId: true });
    throw new CliError(`contact ${String(contact.id)} was created, but scoring failed: ${error.message}`, ExitCode.partial, {
      status: error.status,
      code: error.code,
      hint: `score it later with \`crm ai trigger ${String(contact.id)}\``,
    });
  }
};
