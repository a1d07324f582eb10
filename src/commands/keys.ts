// Natural keys: wherever a contact id is taken an email works too, wherever an account id is taken
// its name works, because those are what people have. Which values are such keys is the registry's
// (fields with `references: 'contact' | 'account'`, the resource's NATURAL_KEYS); this module tells a
// key from an id, checks it, and finds the one record it names through the service's search filter
// (never a walk of the whole workspace). A dry run sends these look-ups too (they are reads) and
// lists them in its plan. docs/api-assumptions.md ("Natural keys") says what is assumed of the service.

import pMap from 'p-map';
import type { Context } from '../cli/context.js';
import { CliError, ExitCode, usageError } from '../cli/errors.js';
import { cellText, firstTen, isSafeText, safeLine } from '../cli/format.js';
import { emailProblem, parseId } from '../cli/input.js';
import type { Choice } from '../cli/prompt.js';
import type { ApiClient } from '../http/core.js';
import { recordId } from '../http/envelope.js';
import { walk } from '../http/paginate.js';
import { NATURAL_KEYS, RESOURCES } from '../registry/resources.js';
import type { FieldSpec } from '../registry/types.js';
import { isObject, type JsonObject } from '../registry/values.js';
import type { Call } from './command.js';

/** A resource that has a natural key. */
type KeyedResource = 'contact' | 'account';

/**
 * Candidates one look-up reads at most (two pages). A search that matches more is not walked
 * further: crm cannot then tell that the match is unique, and says so (exit 2) instead of guessing.
 */
export const LOOKUP_MAX = 100;

/** Look-ups at a time when many keys are resolved (a bulk command's input). */
const LOOKUPS_AT_ONCE = 4;

/** Records a picker shows at a time (the newest that match what was typed). */
const PICKER_SIZE = 20;

/**
 * An account id as crm tells it from a name: one word (no whitespace) that holds a digit or an
 * underscore, as every id scheme in use does (acc_x1y2, 1042, a UUID). Anything else is a name:
 * "Globex", "Globex Logistics". A one-word name with a digit ("3M") is taken as an id: pass its id.
 */
const ACCOUNT_ID = /^\S*[\d_]\S*$/;

/** The resource a field's value names a record of, when that resource has a natural key. */
export function keyedResource(field: Pick<FieldSpec, 'references'>): KeyedResource | undefined {
  const resource = field.references;
  return resource !== undefined && NATURAL_KEYS[resource] ? (resource as KeyedResource) : undefined;
}

/** Whether VALUE names a record of RESOURCE by its natural key rather than by its id. */
function isNaturalKey(resource: KeyedResource, value: string): boolean {
  return resource === 'contact' ? value.includes('@') : !ACCOUNT_ID.test(value);
}

/** A value for a field that takes an id or a natural key, checked before anything is sent (exit 2). */
export function parseKey(resource: KeyedResource, raw: string, label: string): string {
  const value = raw.trim();
  // Neither an id nor a name: refused as an id is.
  if (value === '' || value === '.' || value === '..' || !isSafeText(value)) return parseId(raw, label);
  if (!isNaturalKey(resource, value)) return parseId(value, label);
  if (resource === 'contact') {
    const problem = emailProblem(value);
    if (problem) throw usageError(`${label}: ${problem}`);
  }
  return value;
}

/** How a resource's natural key is looked up and shown. */
interface KeyFacts {
  member: 'email' | 'name';
  path: string;
  listKey: string;
  /** "email ada@example.com", `name "Globex"`. */
  what: (value: string) => string;
  same: (candidate: string, value: string) => boolean;
}

function factsOf(resource: KeyedResource): KeyFacts {
  const member = NATURAL_KEYS[resource]!;
  const { plural } = RESOURCES[resource];
  // Email addresses are compared without regard to case, as mail systems do, and to the spaces a
  // workspace may have kept around one (an import that did not trim); names exactly.
  const email = member === 'email';
  return {
    member,
    path: `/${plural}`,
    listKey: plural,
    what: (value) => (email ? `email ${safeLine(value)}` : `name ${JSON.stringify(safeLine(value))}`),
    same: email ? (candidate, value) => candidate.trim().toLowerCase() === value.toLowerCase() : (candidate, value) => candidate === value,
  };
}

/**
 * The id of the one record of RESOURCE that VALUE names: an id is returned as it is; a natural key
 * is looked up. None: exit 4 naming what was looked for. Several, or more candidates than a look-up
 * reads: exit 2 listing them.
 */
export async function resolveKey(ctx: Context, resource: KeyedResource, value: string): Promise<string> {
  return (await findKey(ctx, resource, value)).id;
}

/**
 * As resolveKey, with the record as the service's search listed it (`listed`; none for an id, which
 * is not looked up): a list may leave fields out, so it is a hint (contacts view sends its account's
 * reads with the contact's when the listed contact names one), never the record.
 */
export async function findKey(ctx: Context, resource: KeyedResource, value: string): Promise<{ id: string; listed?: JsonObject }> {
  if (!isNaturalKey(resource, value)) return { id: value };
  const facts = factsOf(resource);
  const { matches, listed, near, deleted, more } = await lookUp(await ctx.lookupClient(), facts, value);
  const noun = RESOURCES[resource].plural;
  if (matches.length === 1 && !more) return { id: matches[0]!, listed };
  if (matches.length > 1) {
    throw usageError(`${more ? 'at least ' : ''}${matches.length} ${noun} have ${facts.what(value)}: ${firstTen(matches)}`, `pass one of the ids instead`);
  }
  if (more) {
    const found = matches.length === 1 ? ` (${matches[0]} is one)` : '';
    throw usageError(
      `more than ${LOOKUP_MAX} ${noun} match the service's search for "${safeLine(value)}"${found}: crm looked no further, so it cannot tell which one has that ${facts.member}`,
      `pass the ${resource}'s id`,
    );
  }
  const hint = deleted.length > 0 ? `${firstTen(deleted)} ${deleted.length > 1 ? 'have' : 'has'} that ${facts.member} but ${deleted.length > 1 ? 'were' : 'was'} deleted` : near.length > 0 ? `did you mean ${firstTen(near)}?` : undefined;
  throw new CliError(`no ${resource} with ${facts.what(value)}`, ExitCode.notFound, { code: 'not_found', hint });
}

/**
 * The records the service's search finds for VALUE, read up to LOOKUP_MAX, checked here one by one
 * (the search may match more loosely than the key, or not at all). `near`: names that differ only
 * in case, for a hint; `deleted`: the ids of matches the service marks deleted, which are not matches.
 */
async function lookUp(client: ApiClient, facts: KeyFacts, value: string): Promise<{ matches: string[]; listed?: JsonObject; near: string[]; deleted: string[]; more: boolean }> {
  const matches: string[] = [];
  let listed: JsonObject | undefined;
  const near: string[] = [];
  const deleted: string[] = [];
  let read = 0;
  for await (const record of walk(client, facts.path, { search: value }, { key: facts.listKey, limit: LOOKUP_MAX + 1 })) {
    if (++read > LOOKUP_MAX) return { matches, near, deleted, more: true };
    const id = recordId(record);
    const key = isObject(record) ? record[facts.member] : undefined;
    if (id === undefined || typeof key !== 'string') continue;
    // The same record twice (a page that repeats it) is one record.
    const found = isMarkedDeleted(record as JsonObject) ? deleted : matches;
    if (facts.same(key, value)) {
      if (found === matches) listed ??= record as JsonObject;
      if (!found.includes(safeLine(id))) found.push(safeLine(id));
    } else if (key.toLowerCase() === value.toLowerCase() && found === matches) near.push(`${JSON.stringify(safeLine(key))} (${safeLine(id)})`);
  }
  return { matches, listed, near, deleted, more: false };
}

/**
 * A record a list gives that says it was deleted (`deleted_at` set, or `deleted: true`). The sandbox
 * lists none; the spec says only that contacts are soft-deleted, so a workspace may list them, and a
 * deleted contact's email may be given to a new one: the look-up would find two.
 */
function isMarkedDeleted(record: JsonObject): boolean {
  const at = record.deleted_at;
  return record.deleted === true || (at !== undefined && at !== null && at !== '' && at !== false);
}

/**
 * The call with each argument and filter that names a contact or an account by its email or name
 * given by the id; a body's are resolved where it is built (./body.ts), or with the call's
 * (resolveWithBody). Called once the command's own checks are done: a look-up is a request.
 */
export async function resolveCall<C extends Call>(ctx: Context, call: C): Promise<C> {
  const [args, options] = await resolveGroups(ctx, [
    [call.command.args, call.args],
    [call.command.query, call.options],
  ]);
  return { ...call, args: args!, options: options! };
}

/** The call and its checked body, each email and name in either resolved: all their look-ups at once. */
export async function resolveWithBody<C extends Call>(ctx: Context, call: C, body: JsonObject): Promise<{ call: C; body: JsonObject }> {
  const [resolvedBody, args, options] = await resolveGroups(ctx, [
    [call.command.body, body],
    [call.command.args, call.args],
    [call.command.query, call.options],
  ]);
  return { call: { ...call, args: args!, options: options! }, body: resolvedBody! };
}

/** VALUES with each of FIELDS that names a contact or an account resolved to an id (strings, and lists of them). */
export async function resolveKeys(ctx: Context, fields: readonly FieldSpec[], values: Readonly<Record<string, unknown>>): Promise<JsonObject> {
  return (await resolveGroups(ctx, [[fields, values]]))[0]!;
}

/**
 * Each group's values with their keys resolved. Every look-up goes out at once (none needs
 * another's answer: `deals create --account-id NAME --contact-id EMAIL` waits one round trip, not
 * two); when several fail, the first in the order given is the command's error, as it was when they
 * went one after the other.
 */
async function resolveGroups(ctx: Context, groups: ReadonlyArray<readonly [fields: readonly FieldSpec[], values: Readonly<Record<string, unknown>>]>): Promise<JsonObject[]> {
  const lookUps: Array<Promise<unknown>> = [];
  const resolved = groups.map(([fields, values]) => {
    const result: JsonObject = { ...values };
    for (const field of fields) {
      const resource = keyedResource(field);
      const value = result[field.name];
      if (!resource || value === undefined) continue;
      const one = (item: unknown) => (typeof item === 'string' && item.trim() !== '' ? resolveKey(ctx, resource, item) : item);
      const found = Array.isArray(value) ? pMap(value, one, { concurrency: LOOKUPS_AT_ONCE }) : Promise.resolve(one(value));
      lookUps.push(found.then((id) => (result[field.name] = id)));
    }
    return result;
  });
  const settled = await Promise.allSettled(lookUps);
  const failed = settled.find((one) => one.status === 'rejected');
  if (failed) throw failed.reason;
  return resolved;
}

/**
 * What a person picks from for a field that names a contact or an account: the records the
 * service's search finds for what they type (the newest first), "none" first when the field may be
 * left empty (value '').
 */
export function pickerSource(ctx: Context, resource: KeyedResource, optional: boolean): (term: string | undefined, signal: AbortSignal) => Promise<Choice[]> {
  const facts = factsOf(resource);
  return async (term, signal) => {
    const query = { limit: PICKER_SIZE, ...(term?.trim() ? { search: term.trim() } : {}) };
    const page = await (await ctx.lookupClient()).list(facts.path, query, facts.listKey, signal);
    const choices = page.items.filter(isObject).flatMap((record): Choice[] => {
      const id = recordId(record);
      if (id === undefined) return [];
      const label = resource === 'contact' ? `${cellText(record.name)} <${cellText(record.email)}>` : `${cellText(record.name)}${record.domain ? ` (${cellText(record.domain)})` : ''}`;
      return [{ value: id, name: safeLine(label), description: safeLine(id) }];
    });
    return optional ? [{ value: '', name: `(no ${resource})` }, ...choices] : choices;
  };
}
