// What can go wrong talking to the service, by kind. The HTTP layer says what happened; the CLI
// decides what that means for a user (exit codes, hints) in one place: src/cli/errors.ts.

type HttpErrorKind =
  /** The request could not be built: a bad base URL, path parameter or transport; nothing was sent. */
  | 'invalid_request'
  /** The service answered with an error status or an error member. */
  | 'status'
  /** The service asked to wait longer than crm was allowed to (a long Retry-After). */
  | 'retry_later'
  /** No usable answer: unreachable, reset, timed out, TLS. */
  | 'network'
  /** An answer crm cannot read: not JSON, a list without a list, cut short. */
  | 'malformed'
  /** A redirect: crm does not follow them with the key attached. */
  | 'redirect'
  /** A walk of a list lost its place: the list changed faster than it could follow (src/http/paginate.ts). */
  | 'lost_track'
  /** Cancelled (Ctrl-C, an MCP client's cancel) before an answer came. */
  | 'cancelled';

interface HttpErrorDetails {
  status?: number;
  /** The service's error code, or a code of crm's own (econnrefused, malformed_response, ...). */
  code?: string;
  /** Milliseconds the service asked to wait (Retry-After), when it said. */
  retryAfterMs?: number;
  /** A redirect's target. */
  location?: string;
  /** What the user can do about it, when the HTTP layer knows best (a refused transport). */
  hint?: string;
  /** Cancelled before any attempt was sent (waiting for its turn at the shared pace): the service never saw it. */
  unsent?: boolean;
  /**
   * A write that is not safe to repeat (a POST) reached the service and crm does not know what came
   * of it: no answer, an answer it cannot read, or a 5xx. It may have taken effect: sending it again
   * may do it twice.
   */
  mayHaveActed?: boolean;
}

export class HttpError extends Error {
  readonly kind: HttpErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly location?: string;
  readonly hint?: string;
  readonly unsent: boolean;
  readonly mayHaveActed: boolean;

  constructor(kind: HttpErrorKind, message: string, details: HttpErrorDetails = {}) {
    super(message);
    this.name = 'HttpError';
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterMs = details.retryAfterMs;
    this.location = details.location;
    this.hint = details.hint;
    this.unsent = details.unsent ?? false;
    this.mayHaveActed = details.mayHaveActed ?? false;
  }
}

export const invalidRequest = (message: string, hint?: string): HttpError =>
  new HttpError('invalid_request', message, { code: 'invalid_request', hint });

/** The work was cancelled: what to say of it. */
export const cancelledError = (hint?: string, unsent = false): HttpError => new HttpError('cancelled', 'cancelled', { code: 'cancelled', hint, unsent });
