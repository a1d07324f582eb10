// The framing of crm mcp's JSON-RPC lines (src/commands/mcp/lines.ts) against a real stream.

import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineTransport } from '../../src/commands/mcp/lines.js';

describe('LineTransport', () => {
  it('a client that reads slowly: the answers written meanwhile wait for one drain, in order (a listener each made Node warn of a leak past 10)', async () => {
    const chunks: string[] = [];
    let release: () => void = () => {};
    const opened = new Promise<void>((resolve) => (release = resolve));
    // A pipe whose reader takes nothing until it is released.
    const stdout = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString('utf8'));
        void opened.then(() => done());
      },
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const transport = new LineTransport(new PassThrough(), stdout);
      const sent = Array.from({ length: 40 }, (_, id) => transport.send({ jsonrpc: '2.0', id, result: {} }));
      expect(stdout.listenerCount('drain')).toBe(1);
      release();
      await Promise.all(sent);
      expect(chunks.join('').trim().split('\n').map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([...Array(40).keys()]);
      // The warning, when given, is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
