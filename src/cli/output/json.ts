// -o json (--json): an array for lists ([] when empty), an object for one record, 2-space indent.

import type { FormatWriter, Output } from './output.js';

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** What the JSON formats write the same way, each with its own layout: a record, a done command's data, a bare value, a plan. */
export function jsonValues(out: Output, text: (value: unknown) => string): Omit<FormatWriter, 'list'> {
  return {
    async record(value) {
      out.writeJson(text(out.pick(value)));
    },
    async done(data) {
      out.writeJson(text(out.pick(data)));
    },
    value(value) {
      out.writeJson(text(value));
    },
    plan(requests) {
      out.writeJson(text(requests));
    },
  };
}

export function jsonWriter(out: Output): FormatWriter {
  return {
    ...jsonValues(out, pretty),
    async list(items) {
      let first = true;
      for await (const item of items) {
        out.note(item);
        out.writeJson(`${first ? '[\n' : ',\n'}  ${JSON.stringify(out.pick(item), null, 2).replace(/\n/g, '\n  ')}`);
        first = false;
      }
      out.writeJson(first ? '[]\n' : '\n]\n');
    },
  };
}
