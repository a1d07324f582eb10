import { isEmail } from '../registry/types.js';
import { badRequest } from './http.js';

/** Checks one body value and returns it normalised; throws a 400 naming the field otherwise. */
export type Rule<T> = (value: unknown, field: string) => T;

export type FieldSpec<T> = { rule: Rule<T>; required: true } | { rule: Rule<T>; defaultValue: T };
export type FieldSpecs = Record<string, FieldSpec<unknown>>;
type ValueOf<Spec> = Spec extends { rule: Rule<infer T> } ? T : never;
export type Fields<Specs extends FieldSpecs> = { [Name in keyof Specs]: ValueOf<Specs[Name]> };

export function required<T>(rule: Rule<T>): FieldSpec<T> {
  return { rule, required: true };
}

export function optional<T>(rule: Rule<T>, defaultValue: T): FieldSpec<T> {
  return { rule, defaultValue };
}

/** Fields every resource carries and no body may set. */
const SERVICE_FIELDS = ['id', 'created_at', 'updated_at', 'deleted_at'];

function rejectUnexpectedFields(body: Record<string, unknown>, specs: FieldSpecs, readOnly: readonly string[]): void {
  for (const name of Object.keys(body)) {
    if (Object.hasOwn(specs, name)) continue;
    if (SERVICE_FIELDS.includes(name) || readOnly.includes(name)) throw badRequest(`${name} is read-only`);
    throw badRequest(`Unknown field: ${name}`);
  }
}

/** Validates a create body: required fields present, the others defaulted. */
export function parseCreate<Specs extends FieldSpecs>(
  body: Record<string, unknown>,
  specs: Specs,
  readOnly: readonly string[] = [],
): Fields<Specs> {
  rejectUnexpectedFields(body, specs, readOnly);
  const fields: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = body[name];
    if (value !== undefined) fields[name] = spec.rule(value, name);
    else if ('required' in spec) throw badRequest(`${name} is required`);
    else fields[name] = spec.defaultValue;
  }
  return fields as Fields<Specs>;
}

/** Validates an update body: only the fields given, at least one. */
export function parseUpdate<Specs extends FieldSpecs>(
  body: Record<string, unknown>,
  specs: Specs,
  readOnly: readonly string[] = [],
): Partial<Fields<Specs>> {
  rejectUnexpectedFields(body, specs, readOnly);
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) fields[name] = specs[name].rule(value, name);
  if (Object.keys(fields).length === 0) throw badRequest('The body has no fields to update');
  return fields as Partial<Fields<Specs>>;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requiredText(maxLength: number): Rule<string> {
  return (value, field) => {
    if (value !== null && typeof value !== 'string') throw badRequest(`${field} must be a string`);
    const text = value?.trim();
    if (!text) throw badRequest(`${field} is required`);
    if (text.length > maxLength) throw badRequest(`${field} must be at most ${maxLength} characters`);
    return text;
  };
}

/** A string or null; an empty string clears the field. */
export function optionalText(maxLength: number): Rule<string | null> {
  return (value, field) => {
    if (value === null) return null;
    if (typeof value !== 'string') throw badRequest(`${field} must be a string or null`);
    const text = value.trim();
    if (text.length > maxLength) throw badRequest(`${field} must be at most ${maxLength} characters`);
    return text || null;
  };
}

export const emailAddress: Rule<string> = (value, field) => {
  if (value === null || value === '') throw badRequest(`${field} is required`);
  const text = typeof value === 'string' ? value.trim() : '';
  if (!isEmail(text)) throw badRequest(`${field} is not a valid email address`);
  return text;
};

export function oneOf<T extends string>(choices: readonly T[]): Rule<T> {
  return (value, field) => {
    const choice = choices.find((candidate) => candidate === value);
    if (!choice) throw badRequest(`${field} must be one of: ${choices.join(', ')}`);
    return choice;
  };
}

function isCalendarDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) && new Date(text).toISOString().startsWith(text);
}

export const optionalDate: Rule<string | null> = (value, field) => {
  if (value === null) return null;
  if (typeof value !== 'string' || !isCalendarDate(value)) throw badRequest(`${field} must be a date in YYYY-MM-DD format or null`);
  return value;
};

export const optionalCount: Rule<number | null> = (value, field) => {
  if (value === null) return null;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw badRequest(`${field} must be an integer of 0 or more, or null`);
  return value as number;
};

export const amount: Rule<number> = (value, field) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw badRequest(`${field} must be a number of 0 or more`);
  return value;
};

export const currencyCode: Rule<string> = (value, field) => {
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) throw badRequest(`${field} must be a three-letter currency code such as USD`);
  return value.toUpperCase();
};

export const optionalId: Rule<string | null> = (value, field) => {
  if (value === null) return null;
  if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${field} must be an id string or null`);
  return value.trim();
};

export function idList(maxItems: number, minItems = 0): Rule<string[]> {
  return (value, field) => {
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
      throw badRequest(`${field} must be an array of id strings`);
    }
    if (value.length < minItems || value.length > maxItems) {
      throw badRequest(`${field} must hold between ${minItems} and ${maxItems} ids`);
    }
    return [...new Set(value.map((item: string) => item.trim()))];
  };
}
