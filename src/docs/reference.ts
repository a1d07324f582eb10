// docs/commands.md, generated from the command tree (itself built from the endpoint registry and the
// local command list) with commander's own help text, so the reference says what `--help` says.
// Regenerate with `npm run docs`; a test fails while the committed file is stale.

import type { Command } from 'commander';
import { ALL_COMMANDS, buildProgram } from '../main.js';

const ignore = { write: () => true };

function leaves(command: Command): Command[] {
  if (command.commands.length === 0) return [command];
  return command.commands.flatMap(leaves);
}

function fullName(command: Command): string {
  const names: string[] = [];
  for (let node: Command | null = command; node; node = node.parent) names.unshift(node.name());
  return names.join(' ');
}

export function renderReference(): string {
  const program = buildProgram(async () => {}, ALL_COMMANDS, { stdout: ignore, stderr: ignore });
  const width = { helpWidth: 100 };
  program.configureHelp({ ...width, showGlobalOptions: false });
  const lines = [
    '# Command reference',
    '',
    'Generated from the command tree by `npm run docs`: every command with the text of its `--help`.',
    'The global options (`crm --help`) apply to every command.',
    '',
    '## crm',
    '',
    '```text',
    program.helpInformation().trimEnd(),
    '```',
  ];
  for (const command of leaves(program)) {
    command.configureHelp({ ...width, showGlobalOptions: false });
    lines.push('', `## ${fullName(command)}`, '', '```text', command.helpInformation().trimEnd(), '```');
  }
  return `${lines.join('\n')}\n`;
}
