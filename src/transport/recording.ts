// --dry-run: a transport that records each request and sends nothing. It answers with a stand-in,
// so a command that needs an answer to go on (create then score, one request per id) still plans
// every request it would send; a value only a real answer would give is a placeholder such as
// "<new contact id>".

import { ENDPOINTS } from '../registry/endpoints.js';
import { resourceNamed } from '../registry/resources.js';
import { isObject } from '../registry/values.js';
import type { Transport, TransportRequest } from './types.js';

export interface PlannedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The last segment of the registry's endpoints of a kind: /contacts/{id}/notes → notes. */
const lastSegments = (kind: string) => new Set(Object.values(ENDPOINTS).filter((endpoint) => endpoint.kind === kind).map((endpoint) => endpoint.path.split('/').at(-1)!));
/** Collections whose POST creates a record with a new id. */
const COLLECTIONS = lastSegments('create');
/** Paths whose GET answers a list (the others answer one record). */
const LISTS = lastSegments('list');
/** Collections whose records a path names by id: /ai/suggestions/{id}/accept. */
const RECORDS = new Set(Object.values(ENDPOINTS).flatMap((endpoint) => endpoint.path.split('/').flatMap((segment, at, all) => (all[at + 1] === '{id}' ? [segment] : []))));

/**
 * Records each request into PLAN. With `reads`, a GET is also sent through it (the look-ups a dry run
 * makes: src/cli/context.ts lookupClient) and answered for real; anything else gets a stand-in.
 */
export function createRecordingTransport(plan: PlannedRequest[], mask: (request: TransportRequest) => TransportRequest, reads?: Transport): Transport {
  return async (request) => {
    const shown = mask(request);
    const body = shown.body === undefined ? null : JSON.parse(shown.body);
    plan.push({ method: shown.method, url: shown.url, headers: shown.headers, body });
    if (reads && request.method === 'GET') return reads(request);
    // Said in its headers too: --debug traces the answer as it traces one the service sent.
    const headers = { 'x-crm-dry-run': 'not sent; this answer is a stand-in', 'content-type': 'application/json' };
    return { status: request.method === 'POST' ? 201 : 200, headers, body: JSON.stringify({ data: standIn(request), error: null }) };
  };
}

function standIn(request: TransportRequest): unknown {
  const segments = new URL(request.url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const last = segments.at(-1) ?? '';
  if (request.method === 'GET') return LISTS.has(last) ? [] : { id: last };
  if (request.method === 'DELETE') return { id: last, deleted: true };
  const sent: unknown = request.body === undefined ? {} : JSON.parse(request.body);
  const fields = isObject(sent) ? sent : {};
  if (request.method === 'POST' && COLLECTIONS.has(last)) return { ...fields, id: `<new ${resourceNamed(last) ?? last} id>` };
  // An update or an action on a record: the record's id is the segment after its collection.
  const at = segments.findLastIndex((segment) => RECORDS.has(segment));
  return at >= 0 && at + 1 < segments.length ? { ...fields, id: segments[at + 1] } : fields;
}
