// A file written whole or not at all: to a temporary file beside it, then renamed over it, so that a
// reader (or a crash) never meets half of it.

import { renameSync, writeFileSync } from 'node:fs';

export function writeFileAtomic(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}
