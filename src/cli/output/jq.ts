// --jq: what the JSON format would print (the --fields kept), filtered by a jq expression (../jq.ts).
// Each result on a line of its own, as gh prints them: a string as its text (as jq -r does), anything
// else as JSON, compact into a pipe and indented and coloured on a terminal. What came from the
// service cannot drive a terminal either way.
//
// With -o json (what --jq implies) a list is one array, so the whole list is read before the filter
// runs: `--all` holds every record in memory. With -o ndjson each record is an input of its own, as
// `crm ... -o ndjson | jq EXPR` would have it: filtered as it arrives, in constant memory.

import type { JqFilter } from '../jq.js';
import { safeLines } from '../format.js';
import type { View } from '../result.js';
import type { FormatWriter, Items, Output } from './output.js';

/** Records of a walk filtered in one call of the engine (each call costs a few ms, whatever its size). */
const BATCH = 200;

export function jqWriter(out: Output, filter: JqFilter, eachRecord: boolean): FormatWriter {
  const filterInputs = (inputs: readonly unknown[]) => {
    const { results, messages, error } = filter.run(inputs);
    for (const result of results) printResult(out, result);
    if (messages) out.io.stderr.write(`${out.io.stderrIsTTY ? safeLines(messages) : messages}\n`);
    if (error) throw error;
  };
  return {
    async list(items, view) {
      if (!eachRecord) {
        const all: unknown[] = [];
        for await (const item of items) all.push(picked(out, item));
        return filterInputs([all]);
      }
      for await (const batch of batches(items, view, filter.readsInputs)) filterInputs(batch.map((item) => picked(out, item)));
    },
    async record(value) {
      filterInputs([out.pick(value)]);
    },
    async done(data) {
      filterInputs([out.pick(data)]);
    },
    value(value) {
      filterInputs([value]);
    },
    // A dry run's plan is what would be sent, not data to filter.
    plan(requests) {
      out.writeJson(`${JSON.stringify(requests, null, 2)}\n`);
    },
  };
}

function picked(out: Output, item: unknown): unknown {
  out.note(item);
  return out.pick(item);
}

function printResult(out: Output, result: unknown): void {
  if (typeof result === 'string') return out.write(`${out.tty ? safeLines(result) : result}\n`);
  out.writeJson(`${JSON.stringify(result, null, out.tty ? 2 : undefined)}\n`);
}

/**
 * A list's records in batches; records that keep coming (crm watch) one at a time, as each arrives;
 * for an expression that reaches past its own input (`inputs`, `halt`), all of them in one.
 */
async function* batches(items: Items, view: View, whole: boolean): AsyncGenerator<unknown[]> {
  const size = view.stream ? 1 : whole ? Number.POSITIVE_INFINITY : BATCH;
  let batch: unknown[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length < size) continue;
    yield batch;
    batch = [];
  }
  if (batch.length > 0) yield batch;
}
