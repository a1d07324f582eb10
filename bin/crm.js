#!/usr/bin/env node
// `crm --version` reads the version from package.json without loading the app; `crm __complete`
// (what the shell completions ask while you press TAB) loads only its own small module, compiled
// afresh: reading its kept code costs a TAB more than compiling it (2-3 ms).
// V8's compiled code of the app is kept between runs (dist/code-cache.js, in crm's cache folder),
// so that a command starts 10-25 ms sooner; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
'use strict';

/** Runs an entry of the bundle; its exit code is the process's (a failure it did not handle stays a crash, as ever). */
function run(entry, call, { codeCache = true } = {}) {
  if (codeCache) require('../dist/code-cache.js');
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
  run('../dist/complete.js', ({ complete }) => complete(args.slice(1)), { codeCache: false });
} else {
  run('../dist/crm.js', ({ main }) => main(args));
}
