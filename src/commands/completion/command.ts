// crm completion bash|zsh|fish: the shell's completion script, generated from the command tree.

import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';
import { SHELL_NAMES } from './shell.js';

const spec = {
  command: ['completion'],
  summary: 'Print the shell completion script for bash, zsh or fish',
  args: [{ name: 'shell', type: 'string', description: 'the shell', choices: SHELL_NAMES }],
  // The script itself, whatever CRM_OUTPUT or the profile say: it is sourced, not read.
  defaultFormat: 'tsv',
  examples: [
    ex('crm completion bash', 'the bash script; load it with `source <(crm completion bash)` in ~/.bashrc'),
    ex('crm completion zsh', 'the zsh script; save it as _crm in a folder of $fpath'),
    ex('crm completion fish', 'the fish script; save it as ~/.config/fish/completions/crm.fish'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
