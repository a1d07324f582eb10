#!/usr/bin/env node
// `crm __complete` (what the shell completions ask while you press TAB) loads only its own small module.
const args = process.argv.slice(2);
if (args[0] === '__complete') {
  const { complete } = await import('../dist/complete.js');
  process.exitCode = await complete(args.slice(1));
} else {
  const { main } = await import('../dist/crm.js');
  process.exitCode = await main(args);
}
