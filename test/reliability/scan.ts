// The secrets scan and the figures of a run, read from the evidence the tests left (test/helpers/evidence.ts).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Capture {
  secrets: string[];
  output: string;
}

export interface Leak {
  /** The key as it may be shown: its last 4 characters. */
  key: string;
  /** Where it appeared, with some context. */
  excerpt: string;
}

/** Every capture in which one of its keys appears whole. */
export function findLeaks(captures: Iterable<Capture>): Leak[] {
  const leaks: Leak[] = [];
  for (const { secrets, output } of captures) {
    for (const secret of secrets) {
      const at = output.indexOf(secret);
      if (at >= 0) leaks.push({ key: `…${secret.slice(-4)}`, excerpt: output.slice(Math.max(0, at - 60), at + secret.length + 20).replace(secret, '<KEY>') });
    }
  }
  return leaks;
}

function* lines<T>(dir: string, prefix: string): Generator<T> {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${prefix}-`)) continue;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) if (line) yield JSON.parse(line) as T;
  }
}

export function readCaptures(dir: string): Capture[] {
  return [...lines<Capture>(dir, 'captures')];
}

/** Figures by name, summed. */
export function readFigures(dir: string): Map<string, number> {
  const figures = new Map<string, number>();
  for (const { name, value } of lines<{ name: string; value: number }>(dir, 'figures')) figures.set(name, (figures.get(name) ?? 0) + value);
  return figures;
}
