// -o ndjson: one JSON record a line; a streamed list (--all, watch) written as it arrives.

import { jsonValues } from './json.js';
import type { FormatWriter, Output } from './output.js';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

export function ndjsonWriter(out: Output): FormatWriter {
  return {
    ...jsonValues(out, line),
    async list(items) {
      for await (const item of items) {
        out.note(item);
        out.writeJson(line(out.pick(item)));
      }
    },
    plan(requests) {
      out.writeJson(requests.map(line).join(''));
    },
  };
}
