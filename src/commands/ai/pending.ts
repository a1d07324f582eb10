// Which AI suggestions are pending, for `crm status` and `crm contacts view`: the spec says the list
// holds the pending ones, so a suggestion without a status (missing or null) is taken as pending.

import { STATUS } from '../../registry/resources.js';
import type { JsonObject } from '../../registry/values.js';

export function isPending(suggestion: JsonObject): boolean {
  return suggestion.status === undefined || suggestion.status === null || suggestion.status === STATUS.suggestion.pending;
}
