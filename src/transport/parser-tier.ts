// undici parses answers with llhttp compiled to WebAssembly. On Node 20 V8 goes on optimising that
// module in the background, and the process waits for it at exit: about 100 ms on every network
// command. Its baseline code (Liftoff) parses a page of JSON in microseconds.
// The code cache puts the flags back while it compiles and writes (./v8-flags.ts).

import { changeV8Flags } from './v8-flags.js';

/** --liftoff-only and what V8 11 (Node 20) sets with it, as they are by default. */
const DEFAULTS = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering';

const onNode20 = (): boolean => Number(process.versions.node.split('.')[0]) < 22;

export function compileParserCheaply(): void {
  if (onNode20()) changeV8Flags('--liftoff-only', DEFAULTS);
}
