// The layers of src/ point one way: entry -> commands -> cli -> config -> mirror (the local replica's
// engine: it walks lists through the HTTP core into SQLite, and the CLI maps its errors) -> http ->
// transport -> sandbox -> sqlite (the local database interface: the sandbox and the replica share
// it, so it belongs to neither) -> registry (pure data). A module imports only from its own layer or those
// below it, and no import cycle exists between modules, type-only imports and dynamic ones included.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const LAYERS = ['entry', 'commands', 'cli', 'config', 'mirror', 'http', 'transport', 'sandbox', 'sqlite', 'registry'] as const;

function layerOf(file: string): number {
  const top = relative(SRC, file).split('/')[0]!;
  // The files at the top of src/ are entry points (main, app, help, the completion fast path).
  if (top.endsWith('.ts') || top === 'docs') return 0;
  const index = LAYERS.indexOf(top as (typeof LAYERS)[number]);
  if (index < 0) throw new Error(`${relative(SRC, file)} is in no layer`);
  return index;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports, statically, type-only or dynamically (relative imports only). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file)]));

describe('layers', () => {
  it('every import points to the same layer or one below', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        if (layerOf(target) < layerOf(file)) wrong.push(`${relative(SRC, file)} (${LAYERS[layerOf(file)]}) imports ${relative(SRC, target)} (${LAYERS[layerOf(target)]})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((step) => relative(SRC, step)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('sees the imports it checks (the scan is not empty)', () => {
    expect(graph.get(join(SRC, 'cli/context.ts'))).toContain(join(SRC, 'http/core.ts'));
    expect(graph.get(join(SRC, 'main.ts'))).toContain(join(SRC, 'app.ts'));
  });
});
