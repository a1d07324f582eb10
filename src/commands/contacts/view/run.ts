// crm contacts view: the contact and its parts, each request sent as soon as what it needs is known
// (./command.ts). The sequences go out with an email's look-up; the contact, its notes, open tasks,
// enrolments and latest suggestion at once; its account and that account's open deals as soon as
// the contact names the account (with the contact's, when the look-up listed it with that account). Every
// record is checked whatever the service did with the filters it was sent (../../parts.ts).

import { STATUS } from '../../../registry/resources.js';
import pMap from 'p-map';
import type { Section } from '../../../cli/result.js';
import type { ApiClient } from '../../../http/core.js';
import { recordId } from '../../../http/envelope.js';
import { HttpError } from '../../../http/errors.js';
import { fillPath } from '../../../http/url.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';
import { VIEW_LIMIT } from '../../../registry/local.js';
import type { JsonObject } from '../../../registry/values.js';
import { isPending } from '../../ai/pending.js';
import type { Handler } from '../../command.js';
import { byCloseDate, notClosed } from '../../deals/open.js';
import { findKey } from '../../keys.js';
import { gather, partOf, partSection, readOne, readRecord, recordSection, refOf, scan, settle, viewResult, type Failure, type Scan } from '../../parts.js';
import { byDueDate, hasStatus } from '../../tasks/due.js';
import type { Spec } from './command.js';

const CONTACT = ENDPOINTS.contacts_get;
const NOTES = ENDPOINTS.contacts_notes_list;
const TASKS = ENDPOINTS.tasks_list;
const SUGGESTIONS = ENDPOINTS.ai_suggestions;
const SEQUENCES = ENDPOINTS.sequences_list;
const ENROLLED = ENDPOINTS.sequences_contacts;
const ACCOUNT = ENDPOINTS.accounts_get;
const DEALS = ENDPOINTS.deals_list;

/** Sequences whose contacts are read at a time. */
const SEQUENCES_AT_ONCE = 4;

export const run: Handler<Spec> = async (ctx, { args, options }) => {
  const shown = options.limit ?? VIEW_LIMIT;
  const client = await ctx.client();
  const failures: Failure[] = [];
  // An email is looked up first: most requests need the id. The sequences (whose contacts are read
  // for this one's) do not: they go out with the look-up.
  const finding = findKey(ctx, 'contact', String(args.id));
  const sequences = scan(client, SEQUENCES.path, {}, { key: SEQUENCES.listKey, matches: () => true });
  sequences.catch(() => undefined);
  const { id, listed } = await finding.catch(async (error: unknown) => {
    // The look-up's failure is the command's, once the read beside it has ended.
    await sequences.catch(() => undefined);
    throw error;
  });
  const of = (record: JsonObject) => refOf(record, 'contact_id') === id;

  const contact = readRecord(client, 'contact', CONTACT.path, id);
  const notes = settle('notes', () => scan(client, fillPath(NOTES.path, { id }), {}, { key: NOTES.listKey, selected: true, matches: (note) => note.contact_id === undefined || note.contact_id === null || of(note) }), failures);
  const tasks = settle('tasks_open', () => scan(client, TASKS.path, { contact_id: id, status: STATUS.task.open }, { key: TASKS.listKey, selected: true, matches: (task) => of(task) && hasStatus(task, STATUS.task.open) }), failures);
  const enrollments = settle('enrollments', () => enrollmentsOf(client, id, sequences), failures);
  const suggestions = settle('latest_suggestion', () => scan(client, SUGGESTIONS.path, { contact_id: id }, { key: SUGGESTIONS.listKey, selected: true, matches: (suggestion) => of(suggestion) && isPending(suggestion) }), failures);
  const accountReads = (at: string, into: Failure[]) => ({
    account: settle('account', () => readOne(client, 'account', ACCOUNT.path, at), into),
    deals: settle('account_deals_open', () => scan(client, DEALS.path, { account_id: at, status: STATUS.deal.open }, { key: DEALS.listKey, selected: true, matches: (deal) => refOf(deal, 'account_id') === at && notClosed(deal) }), into),
  });
  // The account as soon as the contact names it; when the email's look-up listed the contact with an
  // account, that account's reads go out with the contact's, and are kept if the contact names the same.
  const listedAccount = listed && refOf(listed, 'account_id');
  const early: Failure[] = [];
  const ahead = listedAccount === undefined ? undefined : accountReads(listedAccount, early);
  ahead?.account.catch(() => undefined);
  ahead?.deals.catch(() => undefined);
  const accountId = contact.then((found) => refOf(found, 'account_id'));
  const reads = accountId.then((at) => (at === undefined ? undefined : ahead && at === listedAccount ? ahead : accountReads(at, failures)));
  const account = reads.then((read) => (read === undefined ? null : read.account));
  const deals = reads.then((read) => (read === undefined ? null : read.deals));
  const [found, noteScan, taskScan, enrolled, suggested, accountFound, dealScan] = await gather([contact, notes, tasks, enrollments, suggestions, account, deals]);
  if ((await reads) === ahead) failures.push(...early);

  const parts = {
    contact: found,
    notes: noteScan && partOf(noteScan, shown),
    tasks_open: taskScan && partOf(taskScan, shown, { order: byDueDate(ctx.timeZone()) }),
    enrollments: enrolled && partOf(enrolled, shown),
    account: accountFound,
    account_deals_open: dealScan === null ? null : dealScan && partOf(dealScan, shown, { order: byCloseDate }),
    latest_suggestion: suggested && (suggested.matched[0] ?? null),
  };
  const at = await accountId;
  const accountName = accountFound ? ` of ${String(accountFound.name ?? at)}` : '';
  const sections: Section[] = [
    { title: `Contact ${id}`, path: 'contact', columns: CONTACT_FIELDS },
    partSection('Notes', 'notes', parts.notes, ['created_at', 'body'], 'No notes.', `crm contacts notes list ${id}`),
    partSection('Open tasks', 'tasks_open', parts.tasks_open, ['id', 'title', 'due_date', 'priority', 'deal_id'], 'No open tasks.', `crm tasks list --contact-id ${id} --status open`),
    partSection('Sequences', 'enrollments', parts.enrollments, ['sequence_id', 'sequence', 'status', 'enrolled_at'], 'Not enrolled in any sequence.'),
    recordSection('Account', 'account', accountFound, ACCOUNT_FIELDS, 'No account.'),
    ...(at === undefined ? [] : [partSection(`Open deals${accountName}`, 'account_deals_open', parts.account_deals_open ?? undefined, DEAL_COLUMNS, 'No open deals.', `crm deals list --account-id ${at} --status open`)]),
    recordSection('Latest suggestion', 'latest_suggestion', suggested, SUGGESTION_FIELDS, 'No pending suggestion.'),
  ];
  return viewResult(`crm contacts view ${id}`, parts, sections, failures, {
    notes: ['notes', noteScan, 'notes'],
    tasks_open: ['open tasks', taskScan, 'open tasks'],
    enrollments: ['sequences', enrolled, 'enrolled contacts of the sequences'],
    account_deals_open: ["the account's open deals", dealScan ?? undefined, 'open deals'],
    latest_suggestion: ['latest suggestion', suggested, 'suggestions'],
  });
};

const CONTACT_FIELDS = ['id', 'name', 'email', 'company', 'title', 'phone', 'status', 'score', 'next_best_action', 'account_id', 'created_at'];
const ACCOUNT_FIELDS = ['id', 'name', 'domain', 'industry', 'employees'];
const DEAL_COLUMNS = ['id', 'name', 'amount', 'currency', 'stage', 'close_date'];
const SUGGESTION_FIELDS = ['id', 'title', 'type', 'reason', 'created_at'];

/**
 * The sequences the contact is enrolled in. The service lists a sequence's contacts but no
 * contact's sequences, so crm reads the sequences (`listed`), then each one's contacts until it meets this
 * one (a contact is in a sequence once), at most PART_READ_MAX of each: chosen by crm.
 */
async function enrollmentsOf(client: ApiClient, contactId: string, listed: Promise<Scan>): Promise<Scan> {
  const sequences = await listed;
  const found = await pMap(
    sequences.matched,
    async (sequence) => {
      const sequenceId = recordId(sequence);
      if (sequenceId === undefined) return undefined;
      try {
        const members = await scan(client, fillPath(ENROLLED.path, { id: sequenceId }), {}, { key: ENROLLED.listKey, matches: (contact) => recordId(contact) === contactId, enough: 1 });
        return { sequence, sequenceId, members };
      } catch (error) {
        // A sequence deleted since the list was read has no contacts to show.
        if (error instanceof HttpError && error.status === 404) return undefined;
        throw error;
      }
    },
    { concurrency: SEQUENCES_AT_ONCE },
  );
  const read = found.filter((one) => one !== undefined);
  const matched = read.flatMap(({ sequence, sequenceId, members }) =>
    members.matched.map((member): JsonObject => ({
      sequence_id: sequenceId,
      sequence: sequence.name ?? null,
      sequence_status: sequence.status ?? null,
      status: member.enrollment_status ?? null,
      enrolled_at: member.enrolled_at ?? null,
    })),
  );
  return {
    matched,
    count: matched.length,
    complete: sequences.complete && read.every(({ members }) => members.complete),
    read: read.reduce((sum, { members }) => sum + members.read, 0),
    local: true,
  };
}
