// crm contacts create [--score]: the generic create, then, with --score, POST /ai/trigger at once
// (the spec's way to react to a new contact).

import { CliError, ExitCode, toCliError } from '../../../cli/errors.js';
import { record } from '../../../cli/result.js';
import { isObject } from '../../../registry/values.js';
import { buildBody } from '../../body.js';
import { requestRecord, viewOf } from '../../endpoint.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';

export const run: Handler<Spec> = async (ctx, invocation) => {
  const body = await buildBody(ctx, invocation);
  const contact = (await requestRecord(ctx, invocation, 'POST', body)) as Record<string, unknown>;
  const created = { ...record(contact, viewOf(invocation.command)), quietId: true };
  if (!invocation.options.score || contact.id === undefined) return created;
  try {
    const scoring = await (await ctx.client()).request('POST', ENDPOINTS.ai_trigger.path, { body: { contact_id: contact.id } });
    return isObject(scoring) ? { ...created, record: { ...contact, score: scoring.score, next_best_action: scoring.next_best_action } } : created;
  } catch (error) {
    const failure = toCliError(error);
    if (failure.exitCode === ExitCode.interrupted) throw failure;
    // The contact exists: print it, and say that only the scoring failed.
    return {
      ...created,
      failure: new CliError(`contact ${String(contact.id)} was created, but scoring failed: ${failure.message}`, ExitCode.partial, {
        status: failure.status,
        code: failure.code,
        hint: `score it later with \`crm ai trigger ${String(contact.id)}\``,
      }),
    };
  }
};
