// A long walk streamed to the printer (contacts export, --all, --limit over 50, crm api --paginate)
// or into the replica (crm sync):
// the walk keeps PAGES_IN_FLIGHT pages asked for while one is written out, and V8's young generation
// is kept at its starting size.
// A steady stream of allocations makes V8 grow that generation step by step to 32 MB, which was most
// of what such a command's memory grew by (bench/scale.mjs: 100,000 records against 1,000). With its
// growth factor at 1 memory stays flat, for more scavenges of a small space (they are cheap). This
// is Node's documented way to change a V8 setting from inside the process; V8 reads this one each
// time it would grow the space.

import type { ApiClient } from '../http/core.js';
import { PAGES_IN_FLIGHT, Walk, type WalkOptions } from '../http/paginate.js';
import type { Query } from '../http/url.js';

export async function streamedWalk(client: ApiClient, path: string, query: Query, options: Omit<WalkOptions, 'concurrency'> = {}): Promise<Walk> {
  await keepYoungGenerationSmall();
  return new Walk(client, path, query, { ...options, concurrency: PAGES_IN_FLIGHT });
}

/** For the rest of the process (a long walk: this one, a sync), V8's young generation stays at its starting size. */
export async function keepYoungGenerationSmall(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
}
