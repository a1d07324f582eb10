// crm accounts view: the account, its contacts and its deals, read at once (./command.ts). The
// service cannot select contacts by account, so they are read from the head of the contacts list
// (with the look-up of a name, which they do not need) and chosen here; deals are asked for by
// account_id (the sandbox's filter) and checked here.

import type { Section } from '../../../cli/result.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';
import { VIEW_LIMIT } from '../../../registry/local.js';
import type { Handler } from '../../command.js';
import { byCloseDate, notClosed } from '../../deals/open.js';
import { resolveKeys } from '../../keys.js';
import { gather, narrowed, partOf, partSection, readRecord, refOf, scan, settle, viewResult, type Failure } from '../../parts.js';
import type { Spec } from './command.js';

const ACCOUNT = ENDPOINTS.accounts_get;
const CONTACTS = ENDPOINTS.contacts_list;
const DEALS = ENDPOINTS.deals_list;

export const run: Handler<Spec> = async (ctx, { command, args, options }) => {
  const shown = options.limit ?? VIEW_LIMIT;
  const failures: Failure[] = [];
  // The contacts are read from the head of their list whichever the account (chosen here once its id
  // is known), so they go out with the look-up of a name, not after it.
  const resolving = resolveKeys(ctx, command.args, args);
  const client = await ctx.client();
  const everyContact = settle('contacts', () => scan(client, CONTACTS.path, {}, { key: CONTACTS.listKey, matches: () => true }), failures);
  const id = String(
    (
      await resolving.catch(async (error: unknown) => {
        // The look-up's failure is the command's, once the read beside it has ended.
        await everyContact.catch(() => undefined);
        throw error;
      })
    ).id,
  );
  const ofAccount = (record: Parameters<typeof refOf>[0]) => refOf(record, 'account_id') === id;

  const [account, contactScan, dealScan] = await gather([
    readRecord(client, 'account', ACCOUNT.path, id),
    everyContact.then((found) => found && narrowed(found, ofAccount)),
    settle('deals', () => scan(client, DEALS.path, { account_id: id }, { key: DEALS.listKey, selected: true, matches: ofAccount }), failures),
  ]);

  const parts = {
    account,
    contacts: contactScan && partOf(contactScan, shown),
    // Open deals first, soonest to close; then the closed ones, as the service lists them.
    deals: dealScan && partOf(dealScan, shown, { order: (a, b) => Number(notClosed(b)) - Number(notClosed(a)) || (notClosed(a) ? byCloseDate(a, b) : 0) }),
  };
  const sections: Section[] = [
    { title: `Account ${id}`, path: 'account', columns: ['id', 'name', 'domain', 'industry', 'employees', 'created_at'] },
    partSection('Contacts', 'contacts', parts.contacts, ['id', 'name', 'email', 'title', 'status', 'score'], 'No contacts.', `crm accounts view ${id} --json --fields contacts --limit 50`),
    partSection('Deals', 'deals', parts.deals, ['id', 'name', 'amount', 'currency', 'stage', 'status', 'close_date'], 'No deals.', `crm deals list --account-id ${id} --all`),
  ];
  return viewResult(`crm accounts view ${id}`, parts, sections, failures, {
    contacts: ['contacts', contactScan, 'contacts'],
    deals: ['deals', dealScan, 'deals'],
  });
};
