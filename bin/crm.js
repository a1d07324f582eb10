#!/usr/bin/env node
// `crm --version` reads the version from package.json without loading the app; `crm __complete`
// (what the shell completions ask while you press TAB) loads only its own small module. Where Node
// has it (22.1 and newer), V8's compiled code is kept between runs (in Node's own cache directory,
// by default under the system's temporary directory): a command starts about 10 ms sooner.
// Built-in modules come from process.getBuiltinModule, not `import`: on Node 20 an import of one
// builds a module facade of all its exports (node:fs's loads the file streams), about 2 ms.

process.getBuiltinModule('node:module').enableCompileCache?.();

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // As the app reports a stdout that cannot be written: a reader gone away is no error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') return;
    process.stderr.write(`crm: cannot write the output: ${error.message}\n`);
    process.exitCode = 1;
  });
  process.stdout.write(`${JSON.parse(process.getBuiltinModule('node:fs').readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (args[0] === '__complete') {
  const { complete } = await import('../dist/complete.js');
  process.exitCode = await complete(args.slice(1));
} else {
  const { main } = await import('../dist/crm.js');
  process.exitCode = await main(args);
}
