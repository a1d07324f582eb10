// The parts of a page about several lists (crm status, a record's view): each part a list read in
// parallel with the others, bounded, and told honestly. The service filters few lists (the spec
// shows filters for contacts only; the others are the sandbox's, assumptions a workspace may
// ignore), so every record that comes back is checked here against what was asked, and a part the
// service cannot select is read from the head of its list, at most a bounded number of records, and
// chosen here. Each part says how many records match in all, whether that count is exact, and
// whether crm chose them itself.

import { CliError, ExitCode, noRecordError, toCliError } from '../cli/errors.js';
import { formatNumber } from '../cli/format.js';
import { record, type Result, type Section } from '../cli/result.js';
import type { ApiClient } from '../http/core.js';
import { HttpError } from '../http/errors.js';
import { PAGES_IN_FLIGHT, Walk } from '../http/paginate.js';
import { fillPath, type Query } from '../http/url.js';
import { PART_READ_MAX } from '../registry/local.js';
import { PAGE_MAX } from '../registry/service.js';
import { isObject, type JsonObject } from '../registry/values.js';
import { notFoundNamed } from './endpoint.js';


/** What a part found in its list. */
export interface Scan {
  /** The records that match, in list order: all of those among the records read. */
  matched: JsonObject[];
  /** Records that match in all: the service's total when it selected them, else those read that match. */
  count: number;
  /** `count` is exact: the service counted, or crm read the list to its end (or to where nothing more can match). */
  complete: boolean;
  /** Records read. */
  read: number;
  /** The service's count of the records of the list it walked (the records read of how many). */
  total?: number;
  /** crm chose the records: the service has no filter for them, or ignored one it was sent. */
  local: boolean;
}

interface ScanOptions {
  /** The list's member in the answer ("tasks"). */
  key?: string;
  /** What a record must be to belong to the part, checked on every record whatever the service did. */
  matches: (record: JsonObject) => boolean;
  /**
   * The query asks the service for exactly the records `matches` keeps: one page is read, and when
   * every record in it matches, the service's total counts them. When one does not (the workspace
   * ignored a filter), the list is read as for a filter the service does not have.
   */
  selected?: boolean;
  /** A newest-first list is read from its head up to this record (created before what the part wants): nothing after it can match. */
  stopAt?: (record: JsonObject) => boolean;
  /** The part wants no more than this many records (a contact is in a sequence once): the read stops there, complete. */
  enough?: number;
}

/** The records of a list that belong to a part (see ScanOptions). */
export async function scan(client: ApiClient, path: string, query: Query, options: ScanOptions): Promise<Scan> {
  if (options.selected) {
    const page = await client.list(path, { ...query, limit: PAGE_MAX }, options.key);
    const records = page.items.filter(isObject);
    if (records.length === page.items.length && records.every(options.matches)) {
      const complete = page.total !== undefined || records.length < PAGE_MAX;
      return { matched: records, count: Math.max(page.total ?? 0, records.length), complete, read: records.length, total: page.total, local: false };
    }
  }
  const max = PART_READ_MAX;
  // A read that stops early (at a record created before what the part wants, at enough) asks for a page at a time.
  const walk = new Walk(client, path, query, { limit: max, key: options.key, concurrency: options.stopAt || options.enough ? 1 : PAGES_IN_FLIGHT });
  const matched: JsonObject[] = [];
  let read = 0;
  let stopped = false;
  for await (const item of walk) {
    read++;
    if (!isObject(item)) continue;
    if (options.stopAt?.(item)) {
      stopped = true;
      break;
    }
    if (options.matches(item)) matched.push(item);
    if (matched.length === options.enough) {
      stopped = true;
      break;
    }
  }
  const complete = stopped || read < max || walk.total === read;
  return { matched, count: matched.length, complete, read, total: walk.total, local: true };
}

/**
 * A scan of every record it read (`matches: () => true`) narrowed to those that belong to the part:
 * a part read before crm knew which records are its own (an account's contacts, read while its name
 * is looked up). For a scan crm chose itself, as such a read is: its count is what it keeps.
 */
export function narrowed(found: Scan, matches: (record: JsonObject) => boolean): Scan {
  const matched = found.matched.filter(matches);
  return { ...found, matched, count: matched.length };
}

/** A part as --json prints it: the first records, how many match in all, and how they were found. */
interface PartData {
  records: JsonObject[];
  count: number;
  complete: boolean;
  read: number;
  filtered_locally: boolean;
}

/** The part of a scan with at most `shown` records: those it `keep`s (then counted here), in `order`. */
export function partOf(found: Scan, shown: number, { keep, order }: { keep?: (record: JsonObject) => boolean; order?: (a: JsonObject, b: JsonObject) => number } = {}): PartData {
  const records = keep ? found.matched.filter(keep) : [...found.matched];
  if (order) records.sort(order);
  return { records: records.slice(0, shown), count: keep ? records.length : found.count, complete: found.complete, read: found.read, filtered_locally: found.local };
}

/** "Overdue tasks (3)", "(500+)" when the count is a lower bound. */
function titled(title: string, part: PartData): string {
  return `${title} (${formatNumber(part.count)}${part.complete ? '' : '+'})`;
}

/** The line under a part that shows fewer records than match: how many more, and where to see them. */
function moreNote(part: PartData, how?: string): string[] {
  const rest = part.count - part.records.length;
  if (rest <= 0) return [];
  return [`…and ${part.complete ? '' : 'at least '}${formatNumber(rest)} more${how ? `: ${how}` : ''}`];
}

/** What a section whose part failed shows: the failure itself is named under the view. */
const UNREAD = 'Could not be read (see below).';

/** A section of one record a view read: `none` when there is none, UNREAD when it failed (undefined). */
export function recordSection(title: string, path: string, found: unknown, columns: readonly string[], none: string): Section {
  return { title, path, columns, empty: found === undefined ? UNREAD : none };
}

/** A table section of a part's records. */
export function partSection(title: string, path: string, part: PartData | undefined, columns: readonly string[], empty: string, how?: string): Section {
  if (!part) return { title, path: `${path}.records`, columns, empty: UNREAD };
  return { title: titled(title, part), path: `${path}.records`, columns, empty, notes: moreNote(part, how) };
}

/**
 * A part that failed in a way the others need not: the key may not read it (403), the workspace has
 * no such list or record (404) or refuses a filter crm assumed (400), it failed on the service's
 * side (5xx, a 429 after the retries) or on the way (timed out, reset, an answer crm cannot read),
 * its list changed faster than crm could walk it. `cause` (not printed) is the error itself.
 */
export interface Failure {
  part: string;
  message: string;
  status?: number;
  cause?: HttpError;
}

/** A failure that is the part's alone. A refused key (401), a bad base URL, a redirect or Ctrl-C would fail every part: the command fails. */
function isPartFailure(error: unknown): error is HttpError {
  if (!(error instanceof HttpError)) return false;
  if (error.kind === 'status') return error.status !== 401;
  return error.kind === 'network' || error.kind === 'malformed' || error.kind === 'retry_later' || error.kind === 'lost_track';
}

/** Runs a part; a failure of its own becomes its Failure (the other parts are still shown), anything else fails the command. */
export async function settle<T>(part: string, work: () => Promise<T>, failures: Failure[]): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (!isPartFailure(error)) throw error;
    const failure: Failure = { part, message: toCliError(error).message, ...(error.status === undefined ? {} : { status: error.status }) };
    // Kept for throwIfAllFailed(), out of what --json prints.
    Object.defineProperty(failure, 'cause', { value: error, enumerable: false });
    failures.push(failure);
    return undefined;
  }
}

/** Every one of `count` parts failed: nothing is left to show, so the command fails as the first part did (an unreachable service is exit 6, not 7). */
export function throwIfAllFailed(failures: readonly Failure[], count: number): void {
  if (count > 0 && failures.length >= count) throw failures[0]!.cause;
}

/** The failures as the command's outcome: exit 7 naming them, after what could be read is printed. */
export function partialFailure(failures: readonly Failure[], whole: string): CliError | undefined {
  if (failures.length === 0) return undefined;
  const parts = failures.map((failure) => `${failure.part.replace(/_/g, ' ')} (${failure.message})`).join('; ');
  return new CliError(`${whole}: some parts could not be read: ${parts}`, ExitCode.partial, { code: 'partial_failure' });
}

/** A part as stderr names it, its scan, and what its list holds ("open tasks"). */
type Described = readonly [what: string, found: Scan | undefined, from: string];

/** What crm filtered itself, and what it could not read whole (then a part may miss records): lines for stderr. */
export function notices(described: readonly Described[]): string[] {
  const local = described.filter(([, found]) => found?.local).map(([what, found, from]) => `${what} (from the ${formatNumber(found!.read)} ${from})`);
  const lines = local.length > 0 ? [`Filtered by crm (the service has no such filter): ${local.join(', ')}.`] : [];
  for (const [what, found, from] of described) {
    if (!found || found.complete) continue;
    const of = found.total !== undefined ? ` of ${formatNumber(found.total)}` : '';
    lines.push(`crm: warning: ${what}: crm read the ${formatNumber(found.read)} newest ${from}${of} and no more; there may be others.`);
  }
  return lines;
}

// ---- a record's view ----------------------------------------------------------------------------------

/** One record by id, as a view's parts read them (the account of a contact): the service's errors as they are. */
export async function readOne(client: ApiClient, noun: string, path: string, id: string): Promise<JsonObject> {
  const data = await client.request('GET', fillPath(path, { id }));
  if (!isObject(data)) throw noRecordError(noun);
  return data;
}

/** The record a view is about: a 404 is exit 4 naming it, as `get` says it. */
export async function readRecord(client: ApiClient, noun: string, path: string, id: string): Promise<JsonObject> {
  try {
    return await readOne(client, noun, path, id);
  } catch (error) {
    throw notFoundNamed(error, noun, id);
  }
}

/**
 * The record and its parts, all under way at once, once every one has settled. The record comes
 * first: its failure is the command's (a contact not found is exit 4, whatever its parts said);
 * then a part's failure that settle() let through.
 */
export async function gather<T extends readonly unknown[]>(work: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const settled = await Promise.allSettled(work);
  for (const one of settled) if (one.status === 'rejected') throw one.reason;
  return settled.map((one) => (one as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** The id a record names in this field (a contact's account_id), if it names one. */
export function refOf(record: JsonObject, field: string): string | undefined {
  const value = record[field];
  return typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * The parts as --json prints them: every part's key is there, one that could not be read null (its
 * failure in `errors`), so that a script finds the same keys whatever failed, and tells a part that
 * failed (named in `errors`) from one that is empty (a list with no records; a record part that is
 * null with no error: a contact without an account).
 */
export function everyPart(parts: Readonly<Record<string, unknown>>): JsonObject {
  return Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, part === undefined ? null : part]));
}

/**
 * A view as the printer takes it: the record and its parts as one object, with `filtered_locally`
 * (the parts crm chose itself) and `errors` (the parts that could not be read, in the view's
 * order); stderr says what crm filtered (`scans`: each part's scan by its name in `parts`) and what it could not read whole; exit 7 when a part failed.
 */
export function viewResult(whole: string, parts: JsonObject, sections: readonly Section[], failures: readonly Failure[], scans: Readonly<Record<string, Described>>): Result {
  const order = Object.keys(parts);
  const failed = [...failures].sort((a, b) => order.indexOf(a.part) - order.indexOf(b.part));
  const filteredLocally = Object.entries(scans).filter(([, [, found]]) => found?.local).map(([part]) => part);
  const data = { ...everyPart(parts), filtered_locally: filteredLocally, ...(failed.length > 0 ? { errors: failed } : {}) };
  const result = record(data, { sections, notices: notices(Object.values(scans)) });
  const failure = partialFailure(failed, whole);
  return failure ? { ...result, failure } : result;
}
