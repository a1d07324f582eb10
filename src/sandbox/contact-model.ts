// A contact as the sandbox's SQL reads it and the service answers it (the columns, list_ids parsed):
// shared by the contact routes, search and the scoring agent.

import { CONTACT_STATUSES } from '../registry/resources.js';

export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** A contact's columns in response order (table alias c); list_ids comes out as JSON text. */
export const CONTACT_COLUMNS = `c.id, c.name, c.email, c.company, c.phone, c.title, c.status, c.account_id,
  (SELECT json_group_array(list_id) FROM (SELECT list_id FROM list_members WHERE contact_id = c.id ORDER BY list_id)) AS list_ids,
  c.score, c.next_best_action, c.scored_at, c.created_at, c.updated_at`;

/** A contact row as the service answers it: list_ids parsed from JSON text. */
export function toContact(row: Record<string, unknown>): Record<string, unknown> {
  return { ...row, list_ids: JSON.parse(row.list_ids as string) as string[] };
}
