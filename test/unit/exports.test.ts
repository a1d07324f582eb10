// No dead exports: every name a module of src/ exports is used by another module (of src/, the
// tests, the benchmarks or the scripts). An export used only in its own module is not part of its
// interface; one used nowhere is dead code. The type checker of the project's own program says
// which module each identifier refers to, through imports, re-exports, namespace and dynamic
// imports. (knip does this too, with some 60 packages of its own; the compiler this project
// type-checks with is enough, and reads the code exactly as tsc does.)
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

function projectProgram(): ts.Program {
  const configPath = join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  return ts.createProgram(parsed.fileNames, parsed.options);
}

/** For each symbol the project's files refer to, the files that do (an alias counts for what it stands for too). */
function referencingFiles(program: ts.Program, checker: ts.TypeChecker): Map<ts.Symbol, Set<string>> {
  const files = new Map<ts.Symbol, Set<string>>();
  const note = (symbol: ts.Symbol | undefined, file: string) => {
    const seen = new Set<ts.Symbol>();
    while (symbol && !seen.has(symbol)) {
      seen.add(symbol);
      files.set(symbol, (files.get(symbol) ?? new Set()).add(file));
      symbol = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : undefined;
    }
  };
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || source.fileName.includes('/node_modules/')) continue;
    const visit = (node: ts.Node): void => {
      // `() => import('./run.js')`: the module's whole namespace is handed on (a command's handler), so
      // what it exports counts as used where it is imported.
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isArrowFunction(node.parent)) {
        const module = node.arguments[0] && checker.getSymbolAtLocation(node.arguments[0]);
        for (const exported of module ? checker.getExportsOfModule(module) : []) note(exported, source.fileName);
      }
      if (ts.isIdentifier(node)) {
        note(checker.getSymbolAtLocation(node), source.fileName);
        // `const { run } = await import('./x.js')`: the member of the module the pattern takes apart.
        const element = node.parent;
        if (ts.isBindingElement(element) && ts.isObjectBindingPattern(element.parent) && (element.propertyName ?? element.name) === node) {
          note(checker.getTypeAtLocation(element.parent).getProperty(node.text), source.fileName);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return files;
}

describe('exports', () => {
  it('every export of src/ is used by another module', () => {
    const program = projectProgram();
    const checker = program.getTypeChecker();
    const referenced = referencingFiles(program, checker);
    const unused: string[] = [];
    let checked = 0;
    for (const source of program.getSourceFiles()) {
      const checkable = source.fileName.startsWith(SRC);
      const module = checkable ? checker.getSymbolAtLocation(source) : undefined;
      if (!module) continue;
      for (const exported of checker.getExportsOfModule(module)) {
        checked++;
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const users = new Set([...(referenced.get(exported) ?? []), ...(referenced.get(target) ?? [])]);
        users.delete(source.fileName);
        if (users.size === 0) unused.push(`${relative(ROOT, source.fileName)}: ${exported.name}`);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(unused).toEqual([]);
    // The whole program is type-checked here (about 10 s idle); two busy cores have taken over 120 s.
    // How long it takes is not what this test checks.
  }, 600_000);
});
