// A repeat of an action that sets a state (a stage move, completing a task, accepting a suggestion,
// an enrolment) changes nothing, and says so as a success, as gh does for "already closed". A
// workspace may answer a repeat as it answers the first time (the sandbox completes a task twice
// harmlessly), or refuse it (the sandbox: 409 for a move to the deal's own stage). A refusal is
// not taken at its word, which could mean something else (an archived sequence refuses enrolments
// too): the state is read, and only a record found in the state asked for makes it a success.

import { HttpError } from '../http/errors.js';
import { toCliError, ExitCode } from '../cli/errors.js';

/** Answers a workspace may give to an action that is done already. */
const REFUSALS = new Set([400, 409, 422]);

/** The action was done already: the record in that state (`already_<state>` in a report). */
export class Already {
  constructor(
    readonly state: string,
    readonly record: unknown,
  ) {}
}

/**
 * Runs `act`; when the service refuses it, `current` reads the record and says whether it is in
 * `state` already (the record; undefined when it is not, or cannot be read): then the action is
 * done, `Already`; otherwise the refusal stands. A cancellation while reading is not swallowed.
 */
export async function unlessAlready<T>(act: () => Promise<T>, state: string, current: () => Promise<unknown>): Promise<T | Already> {
  try {
    return await act();
  } catch (error) {
    if (!(error instanceof HttpError) || error.status === undefined || !REFUSALS.has(error.status)) throw error;
    let record: unknown;
    try {
      record = await current();
    } catch (readError) {
      if (toCliError(readError).exitCode === ExitCode.interrupted) throw readError;
      record = undefined;
    }
    if (record === undefined) throw error;
    return new Already(state, record);
  }
}
