// How the sandbox checks a request body: with the registry's facts (field types, limits, known
// values, required fields, defaults, read-only fields), the same ones the CLI checks before it
// sends. A few rules of this workspace's own (a currency code, a sequence's steps) are overrides.

import { isEmail, type FieldSpec } from '../registry/types.js';
import { isCalendarDate } from '../registry/values.js';
import { badRequest } from './http.js';

/** Checks one body value and returns it normalised; throws a 400 naming the field otherwise. */
export type Rule<T = unknown> = (value: unknown, field: string) => T;

interface BodyField {
  rule: Rule;
  required: boolean;
  defaultValue: unknown;
}

/** The fields a body may carry, by name, and the fields it may not set. */
export interface BodySchema {
  fields: Record<string, BodyField>;
  readOnly: readonly string[];
  /**
   * Fields the spec does not show are kept (a permissive workspace's records): whole, as any JSON
   * value, under EXTRA_FIELDS of the parsed body. Otherwise they are a 400.
   */
  keepsUnknown?: boolean;
}

/** Where parseCreate and parseUpdate put the fields the schema does not know (keepsUnknown). */
export const EXTRA_FIELDS = 'extra_fields';

/** Names an object has already (__proto__, constructor, toString...) or would pass to its prototype: never kept. */
const isObjectName = (name: string) => name === '__proto__' || name === 'prototype' || name in Object.prototype;

/** Fields every resource carries and no body may set. */
const SERVICE_FIELDS = ['id', 'created_at', 'updated_at', 'deleted_at'];

/** The sandbox's rule for a field of the registry: its type, limits and the values this workspace knows. */
function ruleFor(field: FieldSpec): Rule {
  switch (field.type) {
    case 'email':
      return emailAddress;
    case 'integer':
      return optionalCount;
    case 'number':
      return amount;
    case 'date':
      return optionalDate;
    case 'id':
      return field.required ? requiredText(100) : optionalId;
    case 'ids':
      return idList(field.max ?? 100, field.min ?? 0);
    case 'boolean':
      return boolean;
    case 'string':
      if (Array.isArray(field.known)) return oneOf(field.known as readonly string[]);
      return field.required ? requiredText(field.maxLength ?? 10_000) : optionalText(field.maxLength ?? 10_000);
    default:
      throw new Error(`The sandbox has no rule for ${field.name} (${field.type}): give it an override`);
  }
}

/** A body schema from the registry's fields of a resource; `overrides` replace the rule of a field. */
export function bodySchema(fields: readonly FieldSpec[], overrides: Record<string, Rule> = {}, keepsUnknown = false): BodySchema {
  const writable = fields.filter((field) => !field.readOnly);
  return {
    fields: Object.fromEntries(
      writable.map((field) => [
        field.name,
        {
          rule: Object.hasOwn(overrides, field.name) ? overrides[field.name]! : ruleFor(field),
          required: Boolean(field.required),
          defaultValue: field.default ?? (field.type === 'ids' || field.type === 'json' ? [] : null),
        },
      ]),
    ),
    readOnly: fields.filter((field) => field.readOnly).map((field) => field.name),
    keepsUnknown,
  };
}

/** The fields the schema does not know, kept (keepsUnknown) or refused; read-only ones are refused either way. */
function unknownFields(body: Record<string, unknown>, schema: BodySchema): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  for (const name of Object.keys(body)) {
    if (Object.hasOwn(schema.fields, name)) continue;
    if (SERVICE_FIELDS.includes(name) || schema.readOnly.includes(name) || name === EXTRA_FIELDS) throw badRequest(`${name} is read-only`);
    if (!schema.keepsUnknown) throw badRequest(`Unknown field: ${name}`);
    if (isObjectName(name) || name.trim() === '') throw badRequest(`${JSON.stringify(name)} is not allowed as a field name`);
    extra[name] = body[name];
  }
  return Object.keys(extra).length > 0 ? extra : undefined;
}

/** Validates a create body: required fields present, the others defaulted. */
export function parseCreate(body: Record<string, unknown>, schema: BodySchema): Record<string, unknown> {
  const extra = unknownFields(body, schema);
  const fields: Record<string, unknown> = extra ? { [EXTRA_FIELDS]: extra } : {};
  for (const [name, spec] of Object.entries(schema.fields)) {
    const value = body[name];
    if (value !== undefined) fields[name] = spec.rule(value, name);
    else if (spec.required) throw badRequest(`${name} is required`);
    else fields[name] = spec.defaultValue;
  }
  return fields;
}

/** Validates an update body: only the fields given, at least one. */
export function parseUpdate(body: Record<string, unknown>, schema: BodySchema): Record<string, unknown> {
  const extra = unknownFields(body, schema);
  const fields: Record<string, unknown> = extra ? { [EXTRA_FIELDS]: extra } : {};
  for (const [name, value] of Object.entries(body)) if (Object.hasOwn(schema.fields, name)) fields[name] = schema.fields[name]!.rule(value, name);
  if (Object.keys(fields).length === 0) throw badRequest('The body has no fields to update');
  return fields;
}

/** A schema for an action's own small body (a stage move, a trigger). */
export function actionSchema(fields: Record<string, Rule>): BodySchema {
  return { fields: Object.fromEntries(Object.entries(fields).map(([name, rule]) => [name, { rule, required: true, defaultValue: null }])), readOnly: [] };
}

/** The body of an action that takes no fields (complete a task, accept a suggestion). */
export const EMPTY_ACTION = actionSchema({});

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
function optionalText(maxLength: number): Rule<string | null> {
  return (value, field) => {
    if (value === null) return null;
    if (typeof value !== 'string') throw badRequest(`${field} must be a string or null`);
    const text = value.trim();
    if (text.length > maxLength) throw badRequest(`${field} must be at most ${maxLength} characters`);
    return text || null;
  };
}

const emailAddress: Rule<string> = (value, field) => {
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

const boolean: Rule<boolean> = (value, field) => {
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false`);
  return value;
};

const optionalDate: Rule<string | null> = (value, field) => {
  if (value === null) return null;
  if (typeof value !== 'string' || !isCalendarDate(value)) throw badRequest(`${field} must be a date in YYYY-MM-DD format or null`);
  return value;
};

const optionalCount: Rule<number | null> = (value, field) => {
  if (value === null) return null;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw badRequest(`${field} must be an integer of 0 or more, or null`);
  return value as number;
};

const amount: Rule<number> = (value, field) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw badRequest(`${field} must be a number of 0 or more`);
  return value;
};

export const currencyCode: Rule<string> = (value, field) => {
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) throw badRequest(`${field} must be a three-letter currency code such as USD`);
  return value.toUpperCase();
};

const optionalId: Rule<string | null> = (value, field) => {
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
