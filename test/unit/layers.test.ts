// The layers of src/ point one way: entry -> commands -> cli -> config -> mirror (the local replica's
// engine: it walks lists through the HTTP core into SQLite, and the CLI maps its errors) -> http ->
// transport -> sandbox -> sqlite (the local database interface: the sandbox and the replica share
// it, so it belongs to neither) -> registry (pure data). A module imports only from its own layer or those
// below it, and no import cycle exists between modules, type-only imports and dynamic ones included.
// The one pair allowed to point both ways is a command's definition and its handler: command.ts
// loads run.ts on use, and run.ts imports only the types of command.ts beside it (a type has no
// run-time order, and the pair is one command).
// The sandbox has two doors: the embedded transport (in-process) and `crm sandbox serve` (HTTP);
// nothing else reaches into src/sandbox/.
// Imports are read with the TypeScript parser, so no spelling of an import escapes the check.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const LAYERS = ['entry', 'commands', 'cli', 'config', 'mirror', 'http', 'transport', 'sandbox', 'sqlite', 'registry'] as const;
/** The only modules outside src/sandbox/ that may import it. */
const SANDBOX_DOORS = ['transport/sandbox.ts', 'commands/sandbox/serve/run.ts'];

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

/**
 * The module specifiers a source text imports: `import ... from`, `import '...'`, `export ... from`,
 * `import x = require(...)`, `require('...')` (a module's own require, from createRequire),
 * `import('...')` and `typeof import('...')` in a type.
 */
function specifiersOf(fileName: string, text: string): string[] {
  return importsIn(fileName, text).map((found) => found.specifier);
}

/** Each import of a source text, and whether it imports only types (`import type`). */
function importsIn(fileName: string, text: string): Array<{ specifier: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const literal = (node: ts.Node | undefined, typeOnly = false) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) literal(node.moduleSpecifier, Boolean(node.importClause?.isTypeOnly));
    else if (ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require') literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every module of src/ a file imports, statically, type-only or dynamically (relative imports only). */
function importsOf(file: string): Array<{ target: string; typeOnly: boolean }> {
  return importsIn(file, readFileSync(file, 'utf8'))
    .filter(({ specifier }) => specifier.startsWith('.'))
    .map(({ specifier, typeOnly }) => ({ target: resolve(dirname(file), specifier.replace(/\.js$/, '.ts')), typeOnly }));
}

/** A handler's import of its own definition's types: the one back edge a command's pair has. */
const ownDefinition = (file: string, { target, typeOnly }: { target: string; typeOnly: boolean }) =>
  typeOnly && file.endsWith('/run.ts') && target === join(dirname(file), 'command.ts');

const files = sourceFiles(SRC);
const imports = new Map(files.map((file) => [file, importsOf(file)]));
const graph = new Map([...imports].map(([file, found]) => [file, found.map(({ target }) => target)]));
/** The graph a cycle is looked for in: every import but that one back edge. */
const cycleGraph = new Map([...imports].map(([file, found]) => [file, found.filter((edge) => !ownDefinition(file, edge)).map(({ target }) => target)]));
const inSandbox = (file: string) => relative(SRC, file).startsWith('sandbox/');

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

  it('only the two doors of the sandbox import src/sandbox/', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      if (inSandbox(file) || SANDBOX_DOORS.includes(relative(SRC, file))) continue;
      for (const target of imports) if (inSandbox(target)) wrong.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
    }
    expect(wrong).toEqual([]);
    // Each door exists and goes in: a door renamed away would leave this check guarding nothing.
    for (const door of SANDBOX_DOORS) expect(graph.get(join(SRC, door))?.some(inSandbox), door).toBe(true);
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
      for (const target of cycleGraph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('sees the imports it checks (the scan is not empty)', () => {
    expect(graph.get(join(SRC, 'cli/context.ts'))).toContain(join(SRC, 'http/core.ts'));
    expect(graph.get(join(SRC, 'main.ts'))).toContain(join(SRC, 'app.ts'));
  });

  it('reads every spelling of an import', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from './b.js';",
      "import './c.js';",
      "export { d } from './d.js';",
      "export * as e from './e.js';",
      "import f = require('./f.js');",
      "const g = await import('./g.js');",
      "type H = typeof import('./h.js');",
      "const i = await import(\n  './i.js'\n);",
      "const m = require('./m.js');",
      "// import j from './j.js';",
      "const k = \"import l from './l.js'\";",
    ].join('\n');
    expect(specifiersOf('sample.ts', text)).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js', './g.js', './h.js', './i.js', './m.js']);
  });
});
