// crm contacts export: every contact, streamed page by page to the printer (csv by default, ndjson
// or json), in constant memory. The walk (src/http/paginate.ts) writes only what follows on from the
// records it has written, so a contact is written once while others are created and deleted
// (docs/api-assumptions.md, "Walking a list").

import { usageError } from '../../../cli/errors.js';
import { list } from '../../../cli/result.js';
import { RESOURCES } from '../../../registry/resources.js';
import { filterQuery } from '../../endpoint.js';
import { streamedWalk } from '../../stream.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { options }) => {
  // --format chose the printer's format already (as -o does); a different -o or --json is a contradiction.
  const asked = options.format;
  const format = ctx.output().format;
  if (asked !== undefined && asked !== format) {
    const other = ctx.options.jq !== undefined ? '--jq' : ctx.options.json ? '--json' : `--output ${format}`;
    throw usageError(`--format ${asked} and ${other} ask for different formats`, ctx.options.jq !== undefined ? '--jq filters json or ndjson' : undefined);
  }
  const contacts = RESOURCES.contact;
  const client = await ctx.client();
  return list(await streamedWalk(client, `/${contacts.plural}`, filterQuery(contacts.filters, options), { key: contacts.plural }), { columns: contacts.columns, noun: contacts.plural });
};
