// A long walk streamed to the printer (contacts export, --all, --limit over 50, crm api --paginate)
// or into the replica (crm sync): the walk keeps PAGES_IN_FLIGHT pages asked for while one is
// written out, and V8's heap is kept near what such a command needs, whatever the list's length.
// - The young generation stays at its starting size. A steady stream of allocations makes V8 grow
//   it step by step to 32 MB, which was most of what such a command's memory grew by (bench/scale.mjs:
//   100,000 records against 1,000). With its growth factor at 1 it stays flat, for more scavenges of
//   a small space (they are cheap).
// - The old generation grows by as little as V8 allows (--optimize-for-size): a long walk promotes
//   what its pages in flight hold, and V8's default growth let the heap, mostly garbage, grow with
//   the list (bench/mirror.mjs: peak RSS for 100,000 contacts against 1,000, a sync 1.35x and an
//   export 1.27x before).
// Setting them from inside the process is Node's documented way to change a V8 setting; V8 reads
// these each time it would grow a space. The code cache puts them back while it compiles and writes
// (src/cli/v8-flags.ts).

import type { ApiClient } from '../http/core.js';
import { PAGES_IN_FLIGHT, Walk, type WalkOptions } from '../http/paginate.js';
import type { Query } from '../http/url.js';
import { changeV8Flags } from '../cli/v8-flags.js';

export async function streamedWalk(client: ApiClient, path: string, query: Query, options: Omit<WalkOptions, 'concurrency'> = {}): Promise<Walk> {
  await keepHeapSmall();
  return new Walk(client, path, query, { ...options, concurrency: PAGES_IN_FLIGHT });
}

/** For the rest of the process (a long walk: this one, a sync), V8's heap grows by as little as it can. */
export async function keepHeapSmall(): Promise<void> {
  // --optimize-for-size sets --max-semi-space-size=1 with it (V8 11 to 13).
  changeV8Flags('--semi-space-growth-factor=1 --optimize-for-size', '--semi-space-growth-factor=2 --no-optimize-for-size --max-semi-space-size=0');
}
