// Facts of crm's own commands that lower layers share: what `crm watch` follows and `crm sync`
// replicates, the formats and encodings of import and export, the settings of a profile.

/** What `crm watch` follows: the lists of the service that grow with new records. */
export const WATCHABLE = ['contacts', 'deals', 'tasks', 'accounts', 'sequences'] as const;
/**
 * The tables of the local replica (`crm sync`), parents before the lists read under them; each is
 * defined in src/mirror/schema.ts. Notes are listed per contact only: a request per contact, so they
 * are synced when named.
 */
export const REPLICA_TABLES = ['contacts', 'accounts', 'deals', 'sequences', 'tasks', 'stages', 'enrollments', 'notes'] as const;
export type ReplicaTable = (typeof REPLICA_TABLES)[number];
export const EXPORT_FORMATS = ['csv', 'ndjson', 'json'] as const;
export const IMPORT_FORMATS = ['csv', 'ndjson', 'json'] as const;
/**
 * Columns of other CRMs' contact exports (HubSpot's, Salesforce's, Mailchimp's) that `contacts
 * import` reads without --map, by their names as it matches columns (lower case, spaces and dashes
 * as _): each column fills that contact field; columns with a `part` fill it together, joined with
 * a space in the order of their parts (First Name, Last Name: the name), when no column holds the
 * whole field.
 */
export const IMPORT_COLUMNS: Readonly<Record<string, { field: string; part?: number }>> = {
  first_name: { field: 'name', part: 1 },
  firstname: { field: 'name', part: 1 },
  given_name: { field: 'name', part: 1 },
  last_name: { field: 'name', part: 2 },
  lastname: { field: 'name', part: 2 },
  family_name: { field: 'name', part: 2 },
  company_name: { field: 'company' },
  phone_number: { field: 'phone' },
  job_title: { field: 'title' },
};
/** latin1 is read as windows-1252 (cp1252), its superset, as browsers read it. */
export const TEXT_ENCODINGS = ['utf8', 'latin1', 'cp1252'] as const;

/** The settings of a profile (`crm config`), the key last: it is set by `crm auth login`. */
export const SETTING_NAMES = ['base_url', 'output', 'timeout', 'api_key'] as const;

/**
 * Records a part of `crm status` or of a record's view (`crm contacts view`) reads at most from a
 * list the service cannot select its records from: ten pages of 50.
 */
export const PART_READ_MAX = 500;

/** Records each part of a record's view shows unless --limit says otherwise (`crm contacts view`). */
export const VIEW_LIMIT = 10;
