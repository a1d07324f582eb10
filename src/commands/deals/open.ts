// Which deals are open and when they close, for `crm status` and the views of a record (`crm contacts
// view`, `crm accounts view`): the service has no close-date filter, and the spec shows no field of a
// deal, so these read what the sandbox's deals carry and take a deal without them as open.

import { STATUS } from '../../registry/resources.js';
import { calendarDay } from '../../cli/input.js';
import type { JsonObject } from '../../registry/values.js';

/** A deal's close day (YYYY-MM-DD; a timestamp's in the time zone, as a task's due date), if it has one. */
function closeDay(deal: JsonObject, timeZone?: string): string | undefined {
  return calendarDay(deal.close_date, timeZone);
}

export function closesWithin(deal: JsonObject, from: string, to: string, timeZone?: string): boolean {
  const day = closeDay(deal, timeZone);
  return day !== undefined && day >= from && day <= to;
}

/** Soonest close first; deals without a close date last. */
export const byCloseDate = (a: JsonObject, b: JsonObject) => (closeDay(a) ?? '\uffff').localeCompare(closeDay(b) ?? '\uffff');

/** Open by its status where it has one (the sandbox's deals do; the spec shows no field of a deal). */
export function notClosed(deal: JsonObject): boolean {
  return typeof deal.status !== 'string' || deal.status === STATUS.deal.open;
}
