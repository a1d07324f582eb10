// What the HTTP core hands a transport and gets back. A transport moves bytes: the network, the
// embedded sandbox's handler, or (for --dry-run) a recorder that sends nothing.

export interface TransportRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  timeoutMs: number;
  /** Cancels the request: it fails with a TransportError coded CANCELLED. */
  signal?: AbortSignal;
  /** Told once the request may have reached the service (it was handed to a connection). */
  onSent?: () => void;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

interface TransportErrorOptions {
  /** Trying again cannot help: a certificate that fails verification, a proxy that refuses. */
  final?: boolean;
  /** An answer arrived that cannot be read (not HTTP, a bad encoding, too large). */
  malformed?: boolean;
  /** The request cannot be written (a header or URL no HTTP request may hold): nothing was sent. */
  invalid?: boolean;
  /** What the user can do about it. */
  hint?: string;
}

export class TransportError extends Error {
  /** False only when the request certainly never reached the service (so even a POST may be retried). */
  readonly delivered: boolean;
  readonly code: string;
  readonly final: boolean;
  readonly malformed: boolean;
  readonly invalid: boolean;
  readonly hint?: string;

  constructor(message: string, code: string, delivered: boolean, options: TransportErrorOptions = {}) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
    this.delivered = delivered;
    this.final = Boolean(options.final || options.malformed || options.invalid);
    this.malformed = options.malformed ?? false;
    this.invalid = options.invalid ?? false;
    this.hint = options.hint;
  }
}

/** The code of a request its signal cancelled (Ctrl-C, an MCP client's cancel). */
export const CANCELLED = 'ECANCELLED';

/**
 * The path and query of a request's URL exactly as built: URL parsing would resolve dot segments,
 * and the core refuses those itself (an id of ".."). A URL given as `http://host` or `http://host?q`
 * (a --forward-to) has the path `/`; a fragment is never sent.
 */
export function pathAndQuery(url: string): string {
  const end = authorityEnd(url);
  const fragment = url.indexOf('#', end);
  const rest = url.slice(end, fragment < 0 ? undefined : fragment);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** `scheme://authority`: what requests that may share a connection have in common. */
export function originOf(url: string): string {
  return url.slice(0, authorityEnd(url));
}

/** Where the authority ends: at the first `/`, `?` or `#` after `//`. */
function authorityEnd(url: string): number {
  for (let at = url.indexOf('//') + 2; at < url.length; at++) {
    const code = url.charCodeAt(at);
    if (code === 47 || code === 63 || code === 35) return at; // / ? #
  }
  return url.length;
}
