// crm ai trigger CONTACT_ID: score one contact now; prints the score and the next best action.
// A 429 follows the core's rule: a short Retry-After is waited out, a long one exits 5 in a script
// and counts down on a terminal.

import type { Context } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { cellText } from '../../cli/format.js';
import { isObject, type JsonObject } from '../../http/envelope.js';
import { encodePathParam } from '../../http/url.js';
import { buildBody, type Handler } from '../run.js';

export const run: Handler = async (ctx, invocation) => {
  const contactId = String(invocation.args.contact_id ?? '').trim();
  if (!contactId) throw usageError('missing CONTACT_ID');
  encodePathParam('contact id', contactId);
  const body = await buildBody(ctx, invocation, { contact_id: contactId });
  const data = await (await ctx.client()).request('POST', invocation.op.path, { body });
  if (ctx.printer.format !== 'table' || !isObject(data)) {
    return ctx.printer.record(data, { columns: ['contact_id', 'score', 'next_best_action', 'scored_at'] });
  }
  printScore(ctx, data, contactId);
};

function printScore(ctx: Context, data: JsonObject, contactId: string): void {
  const action = isObject(data.next_best_action)
    ? cellText(data.next_best_action.title ?? data.next_best_action.description ?? data.next_best_action.type)
    : cellText(data.next_best_action);
  const lines = [`Contact ${cellText(data.contact_id ?? contactId)} scored ${cellText(data.score)}/100`];
  if (Array.isArray(data.factors) && data.factors.length > 0) {
    lines.push('', 'Because:');
    for (const factor of data.factors.filter(isObject)) {
      const points = typeof factor.points === 'number' ? `${factor.points >= 0 ? '+' : ''}${factor.points}` : '';
      lines.push(`  ${points.padStart(4)}  ${cellText(factor.detail ?? factor.factor ?? factor.name)}`);
    }
  }
  if (action) lines.push('', `Next best action: ${action}`);
  ctx.printer.write(`${lines.join('\n')}\n`);
}
