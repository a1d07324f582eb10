// The built bundle as files: its chunks, which of them holds a given piece of code, and every file a
// command loads before its action runs (the static imports of the entries): how tests prove that a
// heavy library is loaded only by the commands that use it.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The chunks whose code includes `text`. */
export function chunksWith(text: string): string[] {
  return readdirSync(join(DIST, 'chunks'))
    .map((name) => join(DIST, 'chunks', name))
    .filter((file) => readFileSync(file, 'utf8').includes(text));
}

/** Every file the entries (names in dist/) import statically, themselves included. */
export function loadedUpFront(entries: readonly string[]): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    // The bundle is CommonJS: a static import is `var x=require("./…")` or `require("./…");`, a
    // dynamic one `Promise.resolve().then(()=>toESM(require("./…")))`, its require inside a call.
    for (const match of readFileSync(file, 'utf8').matchAll(/(?<![(\w.$])require\("(\.[^"]+)"\)/g)) visit(resolve(dirname(file), match[1]!));
  };
  for (const entry of entries) visit(join(DIST, entry));
  return loaded;
}
