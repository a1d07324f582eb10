// Facts of the service as a whole (service-api.md): where its API lives and how its lists page.
// Read from here by the CLI, MCP, dry-run, the docs and the sandbox alike.

/** The path every endpoint is under. */
export const API_PREFIX = '/api/v1';

/** The methods the service's endpoints take (crm api). */
export const API_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** The header that carries the API key. */
export const API_KEY_HEADER = 'X-Service-API-Key';
/** The records a list page holds when no limit is asked for. */
export const PAGE_DEFAULT = 20;
/** The most records one page holds. */
export const PAGE_MAX = 50;
/** The published limit of POST /ai/trigger: 10 calls a minute per key (service-facts.md). */
export const SCORE_CALLS_PER_WINDOW = 10;
/** The window that limit is counted in: a minute. */
export const SCORE_WINDOW_MS = 60_000;
