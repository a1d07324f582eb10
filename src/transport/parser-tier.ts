// undici parses answers with llhttp compiled to WebAssembly. On Node 20 V8 goes on optimising that
// module in the background, and the process waits for it at exit: about 100 ms on every network
// command. Its baseline code (Liftoff) parses a page of JSON in microseconds.
// V8 folds the flags a process runs with into every code cache it writes, and refuses a cache whose
// flags differ from its own: the code cache (src/code-cache.ts) puts these flags back to their
// defaults before it writes, or no cache written by a network command would match a fresh start.

const LIFTOFF_ONLY = '--liftoff-only';
/** --liftoff-only and what V8 11 (Node 20) sets with it, as they are by default. */
const DEFAULTS = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering';

const onNode20 = (): boolean => Number(process.versions.node.split('.')[0]) < 22;

export function compileParserCheaply(): void {
  // Not import(): on Node 20 that builds a module facade of node:v8's exports too.
  if (onNode20()) process.getBuiltinModule('node:v8').setFlagsFromString(LIFTOFF_ONLY);
}

export function restoreDefaultParserFlags(): void {
  if (onNode20()) process.getBuiltinModule('node:v8').setFlagsFromString(DEFAULTS);
}
