// When a task is due, for `crm tasks list --due` and `crm status`: overdue, today, this week, a day
// or a range of days, each date by the rules of the registry's date type (YYYY-MM-DD, today,
// tomorrow, +Nd, +Nw). The service has no due-date filter (the sandbox's `overdue` is an assumption
// a workspace may ignore), so every record is checked here against the range, whatever was sent.
// "Today" is the user's: the day it is in their time zone (the Context's), and a due date that is a
// timestamp is on the day it falls on there; one that is a date is that day.

import { STATUS } from '../../registry/resources.js';
import { usageError } from '../../cli/errors.js';
import { calendarDay, localDay, parseDate } from '../../cli/input.js';
import { DATE_FORMS } from '../../registry/types.js';
import { isObject } from '../../registry/values.js';

/** The days a task's due date must fall within (inclusive; either end may be open), and whether it must be open and past. */
interface DueRange {
  from?: string;
  to?: string;
  /** Open and due before today: the only case the service may filter itself (`overdue=true`). */
  overdue: boolean;
  /**
   * Overdue, and the service's day cannot be behind the user's: `overdue=true` may be sent. A service
   * whose day is UTC's (the sandbox's) would leave out a task due on the user's yesterday while their
   * day is ahead of UTC's (east of UTC, each morning): crm then chooses the overdue tasks itself.
   */
  askService: boolean;
  /** The time zone the due dates that are timestamps are read in. */
  timeZone?: string;
}

/** The flag a bad value is named by (`crm status` passes only values it knows to be good). */
const FLAG = '--due';
const FORMS = `overdue, today, week, a date or DATE..DATE; dates as ${DATE_FORMS}`;

/** `--due overdue|today|week|DATE|DATE..DATE`, today being `now`'s day in `timeZone` (the machine's when undefined); a bad value or an empty range is a usage error. */
export function parseDue(raw: string, now: Date, timeZone?: string): DueRange {
  const text = raw.trim().toLowerCase();
  const day = (value: string) => parseDate(value, FLAG, now, timeZone).slice(0, 10);
  const range = { overdue: false, askService: false, timeZone };
  if (text === 'overdue') return { ...range, to: dayBefore(day('today')), overdue: true, askService: day('today') <= localDay(now, 'UTC') };
  if (text === 'week') return { ...range, from: day('today'), to: day('+6d') };
  if (!text.includes('..')) {
    if (text === '') throw usageError(`invalid ${FLAG} "" (expected ${FORMS})`);
    const date = dayOf(raw, now, timeZone);
    return { ...range, from: date, to: date };
  }
  const parts = raw.split('..');
  if (parts.length !== 2 || parts.every((part) => part.trim() === '')) throw usageError(`invalid ${FLAG} "${raw}" (expected ${FORMS})`);
  const [from, to] = parts.map((part) => (part.trim() === '' ? undefined : dayOf(part, now, timeZone)));
  if (from !== undefined && to !== undefined && from > to) throw usageError(`invalid ${FLAG} "${raw}": the range ends before it starts`);
  return { ...range, from, to };
}

function dayOf(raw: string, now: Date, timeZone: string | undefined): string {
  try {
    return parseDate(raw.trim(), FLAG, now, timeZone).slice(0, 10);
  } catch {
    throw usageError(`invalid ${FLAG} "${raw}" (expected ${FORMS})`);
  }
}

/** The day before a YYYY-MM-DD day. */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** A task's due day (YYYY-MM-DD; a timestamp's in the time zone), or undefined. */
function dueDay(task: unknown, timeZone: string | undefined): string | undefined {
  return calendarDay(isObject(task) ? task.due_date : undefined, timeZone);
}

/** Whether the task is due within the range (an overdue one must also be open). */
export function isDue(task: unknown, range: DueRange): boolean {
  const day = dueDay(task, range.timeZone);
  if (day === undefined) return false;
  if (range.overdue && !hasStatus(task, STATUS.task.open)) return false;
  return (range.from === undefined || day >= range.from) && (range.to === undefined || day <= range.to);
}

/**
 * The task's status is this one. A task whose status is missing or null (a workspace that does not
 * carry it, as a deal without one is open) is completed when it has a completion time, else open.
 */
export function hasStatus(task: unknown, status: string): boolean {
  if (!isObject(task)) return false;
  if (typeof task.status === 'string') return task.status === status;
  if (task.status !== undefined && task.status !== null) return false;
  const completed = task.completed_at !== undefined && task.completed_at !== null && task.completed_at !== '';
  return status === (completed ? STATUS.task.completed : STATUS.task.open);
}

/** Due soonest first (by day, in the time zone); tasks without a due date last; otherwise in the order given. */
export const byDueDate = (timeZone: string | undefined) => (a: unknown, b: unknown): number => {
  const [left, right] = [dueDay(a, timeZone), dueDay(b, timeZone)];
  if (left === right) return 0;
  if (left === undefined) return 1;
  if (right === undefined) return -1;
  return left < right ? -1 : 1;
};
