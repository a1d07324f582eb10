// What the HTTP core hands a transport and gets back. A transport moves bytes: the network, the
// embedded sandbox's handler, or (for --dry-run) a recorder that sends nothing.

export interface TransportRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  timeoutMs: number;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export class TransportError extends Error {
  /** False only when the request certainly never reached the service (so even a POST may be retried). */
  readonly delivered: boolean;
  readonly code: string;

  constructor(message: string, code: string, delivered: boolean) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
    this.delivered = delivered;
  }
}

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
