// crm contacts enroll ID... --sequence SEQ: the enrolment the service answers with. A contact
// enrolled in the sequence already is no error when the service refuses to enrol it again: said on
// stderr, exit 0 (../../already.ts). Several contacts (or `-`): one request each, a report
// (../../bulk.ts), a contact enrolled already being `already_enrolled`.

import { record } from '../../../cli/result.js';
import type { ApiClient } from '../../../http/core.js';
import { walk } from '../../../http/paginate.js';
import { fillPath } from '../../../http/url.js';
import { PAGE_MAX } from '../../../registry/service.js';
import { isObject } from '../../../registry/values.js';
import { Already, unlessAlready } from '../../already.js';
import { buildBody } from '../../body.js';
import { writtenRecord } from '../../no-record.js';
import { actOnEach, readTargets } from '../../bulk.js';
import { resolveCall } from '../../keys.js';
import { idsField, requestRecord, viewOf, withId } from '../../endpoint.js';
import type { Call, Handler } from '../../command.js';
import type { Spec } from './command.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';

const ENROLLED = ENDPOINTS.sequences_contacts;

/** Enrolled contacts read to find one already enrolled: a few pages at most. */
const ENROLLED_READ_MAX = 10 * PAGE_MAX;

export const run: Handler<Spec> = async (ctx, given) => {
  const field = idsField(given.command)!;
  const targets = await readTargets(ctx, field, given.args);
  const body = await buildBody(ctx, given);
  const sequenceId = String(body.sequence_id);
  const client = await ctx.client();
  const enrol = (call: Call, contactId: string) => unlessAlready(() => requestRecord(ctx, call, 'POST', body), 'enrolled', () => enrolment(client, sequenceId, contactId));
  if (targets.many) {
    return actOnEach(ctx, field, targets, {
      verb: 'Enrol',
      to: `in sequence ${sequenceId}`,
      success: 'enrolled',
      concurrency: given.options.concurrency,
      view: { columns: ['id', 'result', 'record.status', 'error'], noun: 'contacts' },
      act: (id) => enrol(withId(given, id), id),
      hint: 'the report lists each contact; enrolling one again changes nothing',
    });
  }
  // An email is looked up once the body is checked, as the generic runner does.
  const invocation = await resolveCall(ctx, withId(given, targets.values[0]!));
  const contactId = (invocation.args.ids as string[])[0]!;
  const data = await enrol(invocation, contactId);
  if (data instanceof Already) {
    ctx.info(`Contact ${contactId} is already enrolled in sequence ${sequenceId}: nothing changed.`);
    return { ...record(data.record, viewOf(invocation.command)), outcome: 'already_enrolled' };
  }
  return { ...writtenRecord(data, viewOf(invocation.command)), outcome: 'enrolled' };
};

/** The contact's enrolment, when the sequence's enrolled contacts (read in part at most) hold it. */
async function enrolment(client: ApiClient, sequenceId: string, contactId: string): Promise<unknown> {
  for await (const contact of walk(client, fillPath(ENROLLED.path, { id: sequenceId }), {}, { limit: ENROLLED_READ_MAX, key: ENROLLED.listKey })) {
    if (isObject(contact) && String(contact.id) === contactId) {
      return { contact_id: contactId, sequence_id: sequenceId, status: contact.enrollment_status ?? 'enrolled', enrolled_at: contact.enrolled_at ?? null };
    }
  }
  return undefined;
}
