// `crm completion SHELL` and the files in completions/: one script per shell from the same tree.

import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Tree } from '../command.js';
import { completionTree } from './tree.js';
import type { SHELL_NAMES } from './shell.js';
import { zshScript } from './zsh.js';

type Shell = (typeof SHELL_NAMES)[number];
const SHELLS: Readonly<Record<Shell, typeof bashScript>> = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** The script, without its last line break (the printer ends the value with one). */
export function completionScript(shell: Shell, tree: Tree): string {
  return SHELLS[shell](completionTree(tree)).trimEnd();
}
