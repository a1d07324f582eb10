#!/usr/bin/env node
// `crm --version` reads the version from package.json without loading the app; `crm __complete`
// (what the shell completions ask while you press TAB) loads only its own small module.
// V8's compiled code is kept between runs, so that a command starts 15-25 ms sooner: where Node has
// a compile cache (22.1 and newer) it is Node's (in Node's own cache directory, by default under the
// system's temporary directory); on Node 20 it is crm's (dist/code-cache.js, in crm's cache folder).
// NODE_DISABLE_COMPILE_CACHE=1 turns either off.
'use strict';

const { enableCompileCache } = require('node:module');

/** Runs an entry of the bundle; its exit code is the process's (a failure it did not handle stays a crash, as ever). */
function run(entry, call) {
  if (enableCompileCache) enableCompileCache();
  else require('../dist/code-cache.js');
  Promise.resolve(require(entry))
    .then(call)
    .then((code) => {
      process.exitCode = code;
    });
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // As the app reports a stdout that cannot be written: a reader gone away is no error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') return;
    process.stderr.write(`crm: cannot write the output: ${error.message}\n`);
    process.exitCode = 1;
  });
  process.stdout.write(`${JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '../package.json'), 'utf8')).version}\n`);
} else if (args[0] === '__complete') {
  run('../dist/complete.js', ({ complete }) => complete(args.slice(1)));
} else {
  run('../dist/crm.js', ({ main }) => main(args));
}
