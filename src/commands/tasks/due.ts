// When a task is due, for `crm tasks list --due` and `crm status`: overdue, today, this week, a day
// or a range of days, each date by the rules of the registry's date type (YYYY-MM-DD, today,
// tomorrow, +Nd, +Nw). The service has no due-date filter (the sandbox's `overdue` is an assumption
// a workspace may ignore), so every record is checked here against the range, whatever was sent.

import { usageError } from '../../cli/errors.js';
import { parseDate } from '../../cli/input.js';
import { DATE_FORMS } from '../../registry/types.js';
import { isObject } from '../../registry/values.js';

/** The days a task's due date must fall within (inclusive; either end may be open), and whether it must be open and past. */
interface DueRange {
  from?: string;
  to?: string;
  /** Open and due before today: the only case the service may filter itself (`overdue=true`). */
  overdue: boolean;
}

/** The flag a bad value is named by (`crm status` passes only values it knows to be good). */
const FLAG = '--due';
const FORMS = `overdue, today, week, a date or DATE..DATE; dates as ${DATE_FORMS}`;

/** `--due overdue|today|week|DATE|DATE..DATE`, today being `now`'s date; a bad value or an empty range is a usage error. */
export function parseDue(raw: string, now: Date): DueRange {
  const text = raw.trim().toLowerCase();
  const day = (value: string) => parseDate(value, FLAG, now).slice(0, 10);
  if (text === 'overdue') return { to: dayBefore(day('today')), overdue: true };
  if (text === 'week') return { from: day('today'), to: day('+6d'), overdue: false };
  if (!text.includes('..')) {
    if (text === '') throw usageError(`invalid ${FLAG} "" (expected ${FORMS})`);
    const date = dayOf(raw, now);
    return { from: date, to: date, overdue: false };
  }
  const parts = raw.split('..');
  if (parts.length !== 2 || parts.every((part) => part.trim() === '')) throw usageError(`invalid ${FLAG} "${raw}" (expected ${FORMS})`);
  const [from, to] = parts.map((part) => (part.trim() === '' ? undefined : dayOf(part, now)));
  if (from !== undefined && to !== undefined && from > to) throw usageError(`invalid ${FLAG} "${raw}": the range ends before it starts`);
  return { from, to, overdue: false };
}

function dayOf(raw: string, now: Date): string {
  try {
    return parseDate(raw.trim(), FLAG, now).slice(0, 10);
  } catch {
    throw usageError(`invalid ${FLAG} "${raw}" (expected ${FORMS})`);
  }
}

/** The day before a YYYY-MM-DD day. */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** A task's due day (YYYY-MM-DD, also from a full timestamp), or undefined. */
function dueDay(task: unknown): string | undefined {
  const value = isObject(task) ? task.due_date : undefined;
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

/** Whether the task is due within the range (an overdue one must also be open). */
export function isDue(task: unknown, range: DueRange): boolean {
  const day = dueDay(task);
  if (day === undefined) return false;
  if (range.overdue && !hasStatus(task, 'open')) return false;
  return (range.from === undefined || day >= range.from) && (range.to === undefined || day <= range.to);
}

/** The record's status is this one (a record without one is not). */
export function hasStatus(record: unknown, status: string): boolean {
  return isObject(record) && record.status === status;
}

/** Due soonest first; tasks without a due date last; otherwise in the order given. */
export function byDueDate(a: unknown, b: unknown): number {
  const [left, right] = [dueDay(a), dueDay(b)];
  if (left === right) return 0;
  if (left === undefined) return 1;
  if (right === undefined) return -1;
  return left < right ? -1 : 1;
}
