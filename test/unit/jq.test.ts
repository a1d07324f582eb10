// --jq's engine always ends: an expression without end is stopped at the time limit (the engine is
// synchronous and runs in WebAssembly, so nothing else would stop it), and one that needs more memory
// than the engine has says so. test/e2e/jq.test.ts has Ctrl-C and what a process prints.
import { describe, expect, it } from 'vitest';
import { compileJq } from '../../src/cli/jq.js';
import { CliError } from '../../src/cli/errors.js';

function failureOf(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }
  throw new Error('the filter ended without a failure');
}

describe('compileJq', () => {
  it('stops an expression without end at the time limit: exit 1 saying so, with how to bound it', async () => {
    for (const expression of ['last(repeat(1))', 'repeat(1)', '[.[] | recurse(.)]']) {
      const filter = await compileJq(expression, { timeLimitMs: 300 });
      const failure = failureOf(() => filter.run([[1]]));
      expect(failure.message, expression).toBe('--jq: the expression ran for more than 0.3 s and was stopped');
      expect(failure.exitCode).toBe(1);
      expect(failure.hint).toMatch(/limit\(n; \.\.\.\)/);
    }
  });

  it('an expression that needs more memory than the engine has: exit 1 saying so', async () => {
    const filter = await compileJq('[range(1e8)] | length');
    const failure = failureOf(() => filter.run([null]));
    expect(failure.message).toBe("--jq: the expression needs more memory than jq's engine has (256 MiB)");
    expect(failure.exitCode).toBe(1);
  });

  it('filters as before within the limit, call after call', async () => {
    const filter = await compileJq('.a + 1', { timeLimitMs: 60_000 });
    for (let at = 0; at < 3; at++) expect(filter.run([{ a: at }, { a: 10 }]).results).toEqual([at + 1, 11]);
  });
});
