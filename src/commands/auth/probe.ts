// The request crm auth login, crm auth status and crm mcp (before it serves) make to see that a key works.

import type { ApiClient } from '../../http/core.js';
import { HttpError } from '../../http/errors.js';
import { isObject } from '../../registry/values.js';
import { ENDPOINTS } from '../../registry/endpoints.js';

/**
 * The cheapest request every key with read access can make. Its answer must look like the
 * service's: a redirect, an empty body or an envelope with nothing in it verifies nothing.
 */
export async function probe(client: ApiClient): Promise<void> {
  const { data } = await client.exchange('GET', ENDPOINTS.contacts_list.path, { query: { limit: 1 } });
  if (!isObject(data) && !Array.isArray(data)) {
    throw new HttpError('malformed', 'the service did not answer like a CRM workspace (no list of contacts)', { code: 'malformed_response' });
  }
}
