// What changed in a record between two syncs: its top-level fields whose values differ, before and
// after. Values are compared as canonical JSON (object keys sorted), so a service that sends the same
// record with its keys in another order has changed nothing.

import { isObject, type JsonObject } from '../registry/values.js';

interface FieldChange {
  before: unknown;
  after: unknown;
}

/** Field name → before and after, in the order of the fields of the newer record (then those it lost). */
type FieldChanges = Array<[string, FieldChange]>;

/** JSON text of a value with every object's keys sorted. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fields that differ; a field one side lacks counts as null there. */
export function fieldChanges(before: JsonObject, after: JsonObject): FieldChanges {
  const changes: FieldChanges = [];
  const names = [...Object.keys(after), ...Object.keys(before).filter((name) => !Object.hasOwn(after, name))];
  for (const name of names) {
    const old = Object.hasOwn(before, name) ? before[name] : null;
    const now = Object.hasOwn(after, name) ? after[name] : null;
    if (canonicalJson(old) !== canonicalJson(now)) changes.push([name, { before: old ?? null, after: now ?? null }]);
  }
  return changes;
}

/** The changes as one JSON object, {field: {before, after}} (built as own members: a field named __proto__ stays a field). */
export function changesObject(changes: FieldChanges): Record<string, FieldChange> {
  return Object.fromEntries(changes);
}
