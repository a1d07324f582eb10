// crm ai trigger CONTACT_ID: score one contact now. Under a table: the score, why, and the next best
// action. A 429 follows the core's rule: a short Retry-After is waited out, a long one exits 5 in a
// script and counts down on a terminal.

import { noRecordError } from '../../../cli/errors.js';
import { cellText } from '../../../cli/format.js';
import { record } from '../../../cli/result.js';
import { isObject, type JsonObject } from '../../../registry/values.js';
import { buildBody } from '../../body.js';
import { namingTheId } from '../../endpoint.js';
import { resolveCall } from '../../keys.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, given) => {
  const checked = await buildBody(ctx, given);
  // An email is looked up once the body is checked.
  const invocation = await resolveCall(ctx, given);
  const contactId = invocation.args.contact_id;
  const body = { ...checked, contact_id: contactId };
  const data = await (await ctx.client())
    .request('POST', invocation.command.path, { body })
    .catch((error) => {
      throw namingTheId(error, invocation);
    });
  if (!isObject(data)) throw noRecordError('score');
  return record(data, {
    title: `Contact ${cellText(data.contact_id ?? contactId)} scored ${cellText(data.score)}/100`,
    keys: ['contact_id', 'score', 'suggestion_id', 'scored_at'],
    notes: explain(data),
  });
};

function explain(data: JsonObject): string[] {
  const lines: string[] = [];
  if (Array.isArray(data.factors) && data.factors.length > 0) {
    lines.push('', 'Because:');
    for (const factor of data.factors.filter(isObject)) {
      const points = typeof factor.points === 'number' ? `${factor.points >= 0 ? '+' : ''}${factor.points}` : '';
      lines.push(`  ${points.padStart(4)}  ${cellText(factor.detail ?? factor.factor ?? factor.name)}`);
    }
  }
  const action = isObject(data.next_best_action)
    ? cellText(data.next_best_action.title ?? data.next_best_action.description ?? data.next_best_action.type)
    : cellText(data.next_best_action);
  if (action) lines.push('', `Next best action: ${action}`);
  return lines;
}
