// --jq: jq's own engine (jq 1.8, the C program compiled to WebAssembly: the jq-wasm package), so an
// expression means what it means to jq. This module is a chunk of its own, loaded only when --jq is
// given (Context.loadJq): the engine costs a command 60-90 ms (README) and none of it is paid otherwise.
//
// The engine runs jq's main() for each call, on inputs given as JSON text: each call costs a few
// milliseconds whatever its size, so several records are filtered in one call where they can be.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createContext, Script } from 'node:vm';
import { loadJq, type Jq } from 'jq-wasm';
import { CliError, ExitCode, interruptedError, usageError } from './errors.js';

/** Set by the bundler (scripts/build.mjs): the bundle carries jq.wasm beside app.js. */
declare const __CRM_BUNDLE__: boolean | undefined;

/** What one call of the filter produced: its results in order, what it wrote to stderr (debug, stderr), and the error that stopped it. */
interface JqOutcome {
  results: unknown[];
  messages: string;
  error?: CliError;
}

export interface JqFilter {
  /** Filters each input in turn, as jq does with several JSON texts on its standard input. */
  run(inputs: readonly unknown[]): JqOutcome;
  /**
   * The expression reaches past its own input: it reads the inputs after it (`input`, `inputs`), or
   * stops them all (`halt`). It must be given every input in one call, or it would read only those
   * of its batch (`reduce inputs as $r (1; . + 1)` counting 200 and 81 for 281 records) and a halt
   * would stop only its batch. Told by the words alone: `.input` or "halt" in a string cost only
   * the streaming, never a result.
   */
  readsInputs: boolean;
}

/**
 * How long one call of the engine may run. A call filters a whole list (-o json) or 200 records
 * (-o ndjson); jq's engine here filters 100,000 records in a few seconds.
 */
const TIME_LIMIT_MS = 60_000;
/** The memory jq's engine is built with (jq-wasm's heap): an expression that needs more stops it. */
const ENGINE_MEMORY = '256 MiB';

/** Loads the engine and compiles EXPRESSION without running it: an invalid one is exit 2, before anything is sent. */
export async function compileJq(expression: string, { timeLimitMs = TIME_LIMIT_MS } = {}): Promise<JqFilter> {
  const jq = await loadJq({ wasmBinary: await readFile(wasmPath()) });
  checkExpression(jq, expression);
  const engine = bounded(timeLimitMs);
  const call = (inputs: readonly unknown[]): JqOutcome => {
    // -c: one result a line, which is how they are told apart.
    const { stdout, stderr, exitCode } = engine(() => jq.raw(inputs.map((input) => JSON.stringify(input)).join('\n'), expression, ['-c']));
    const results = stdout === '' ? [] : stdout.split('\n').map((line) => JSON.parse(line) as unknown);
    if (exitCode === 0) return { results, messages: stderr };
    return { results, messages: '', error: jqError(stderr, exitCode) };
  };
  const readsInputs = /\b(?:inputs?|halt)\b/.test(expression);
  return {
    readsInputs,
    run(inputs) {
      const outcome = call(inputs);
      const failedBefore = !outcome.error && /^jq: error/m.test(outcome.messages);
      if (inputs.length === 1 || (!outcome.error && !failedBefore)) return outcome;
      // An expression that reaches past its own input cannot be run on one at a time: jq's results stand.
      if (readsInputs) return failedBefore ? { results: outcome.results, messages: '', error: jqError(outcome.messages, 5) } : outcome;
      // jq goes on to the next input after one fails, and its status tells only of the last input:
      // a call of several that failed on one before the last ends 0, its message among the others,
      // and holds the results of the inputs after it. Filtered one at a time, the failure is known
      // and what is printed stops at its input, whatever the batch (only a failure pays for it).
      const before: JqOutcome = { results: [], messages: '' };
      for (const input of inputs) {
        const one = call([input]);
        before.results.push(...one.results);
        before.messages += one.messages;
        if (one.error) return { ...before, error: one.error };
      }
      return outcome;
    },
  };
}

/**
 * Runs a call of the engine so that it always ends. The engine is synchronous: while it runs, the event
 * loop, and with it crm's Ctrl-C handler, waits. Run as a script with a timeout, V8 stops it even in
 * a loop inside WebAssembly (`repeat(1)`, `last(range(infinite))`), at the time limit or at Ctrl-C.
 */
function bounded(timeLimitMs: number): <T>(call: () => T) => T {
  const script = new Script('call()');
  const context = createContext({ call: undefined as unknown });
  return (call) => {
    context.call = call;
    // The engine also writes its abort ("Aborted()") with console.error: the error thrown says it.
    const report = console.error;
    console.error = () => {};
    try {
      return script.runInContext(context, { timeout: timeLimitMs, breakOnSigint: true });
    } catch (error) {
      throw engineFailure(error, timeLimitMs);
    } finally {
      console.error = report;
      context.call = undefined;
    }
  };
}

/** The engine stopped: by the time limit, by Ctrl-C, or out of memory (it aborts). */
function engineFailure(error: unknown, timeLimitMs: number): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') return interruptedError();
  const hint = 'bound an expression without end (repeat, range(infinite), recurse) with limit(n; ...) or first(...); with -o ndjson each record is filtered on its own';
  if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
    return new CliError(`--jq: the expression ran for more than ${timeLimitMs / 1000} s and was stopped`, ExitCode.service, { code: 'jq_error', hint });
  }
  if (typeof message === 'string' && message.startsWith('Aborted(')) {
    return new CliError(`--jq: the expression needs more memory than jq's engine has (${ENGINE_MEMORY})`, ExitCode.service, { code: 'jq_error', hint });
  }
  return error;
}

function wasmPath(): string {
  // Run from source (the tests), the package's own copy.
  return typeof __CRM_BUNDLE__ === 'boolean' ? fileURLToPath(new URL('../jq.wasm', import.meta.url)) : createRequire(import.meta.url).resolve('jq-wasm/jq.wasm');
}

/**
 * jq has no compile-only mode: the expression is compiled behind `empty |`, on a line of its own, so
 * that it is compiled in full (every name it uses must exist) and never runs. jq's messages then
 * count one line too many: they are given back with the user's line numbers.
 */
function checkExpression(jq: Jq, expression: string): void {
  const { stderr, exitCode } = jq.raw('null', `empty |\n${expression}`, ['-n']);
  if (exitCode === 0) return;
  const errors = stderr.split('\n').filter((line) => line.startsWith('jq: error'));
  const first = (errors[0] ?? stderr).replace(/^jq: error: /, '').replace(/ at <top-level>, line (\d+)(, column (\d+))?:?$/, (_, line: string, _column, column?: string) => ` (line ${Number(line) - 1}${column ? `, column ${column}` : ''})`);
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw usageError(`invalid --jq expression: ${first}${more}`, 'see https://jqlang.org/manual/');
}

function jqError(stderr: string, exitCode: number): CliError {
  return new CliError(`--jq: ${runtimeMessage(stderr, exitCode)}`, ExitCode.service, { code: 'jq_error' });
}

/** jq's message for a failure while filtering: `jq: error (at <stdin>:0): Cannot index...` without its prefix. */
function runtimeMessage(stderr: string, exitCode: number): string {
  // The first failure's, after what debug and stderr wrote before it.
  const text = stderr.trim().replace(/^(?:(?!jq: error)[^\n]*\n)+(?=jq: error)/, '').split(/\njq: error/)[0]!;
  if (text === '') return `the expression stopped with status ${exitCode}`;
  return text.replace(/^jq: error \(at [^)]*\)(?: \(not a string\))?: /, '');
}
