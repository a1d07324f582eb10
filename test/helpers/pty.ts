// Drives crm in a pseudo-terminal, as a person at a keyboard: wait for text, type keys.

import { spawn } from '@lydell/node-pty';
import { CRM_BIN } from './crm.js';
import { capture } from './evidence.js';
import { PATIENCE_MS } from './wait.js';

export const KEY = { enter: '\r', down: '\x1b[B', up: '\x1b[A', space: ' ', ctrlC: '\x03', backspace: '\x7f' };

export interface PtySession {
  /** Everything the terminal showed so far, ANSI codes removed. */
  screen(): string;
  /** The same with the ANSI codes. */
  raw(): string;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  type(keys: string): void;
  exit(timeoutMs?: number): Promise<number>;
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]/g;

export function crmPty(args: string[], env: NodeJS.ProcessEnv): PtySession {
  const term = spawn(process.execPath, [CRM_BIN, ...args], {
    name: 'xterm-256color',
    cols: 120,
    rows: 40,
    env: { ...env, TERM: 'xterm-256color' } as Record<string, string>,
  });
  let output = '';
  let exitCode: number | undefined;
  const exitWaiters: Array<(code: number) => void> = [];
  term.onData((data) => (output += data));
  term.onExit(({ exitCode: code }) => {
    exitCode = code;
    capture(output, env);
    for (const waiter of exitWaiters.splice(0)) waiter(code);
  });
  const screen = () => output.replace(ANSI, '');
  return {
    screen,
    raw: () => output,
    async waitFor(text, timeoutMs = PATIENCE_MS) {
      const deadline = Date.now() + timeoutMs;
      const matches = () => (typeof text === 'string' ? screen().includes(text) : text.test(screen()));
      while (!matches()) {
        if (Date.now() > deadline || exitCode !== undefined) {
          throw new Error(`did not see ${String(text)} (exit ${exitCode}); screen:\n${screen()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    type(keys) {
      term.write(keys);
    },
    exit(timeoutMs = PATIENCE_MS) {
      if (exitCode !== undefined) return Promise.resolve(exitCode);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          term.kill();
          reject(new Error(`no exit; screen:\n${screen()}`));
        }, timeoutMs);
        exitWaiters.push((code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
    },
  };
}
