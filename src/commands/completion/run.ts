// crm completion bash|zsh|fish: the shell's completion script, generated from the command tree.

import type { Handler } from '../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (_ctx, { args, tree }) => {
  const { completionScript } = await import('./scripts.js');
  return { kind: 'value', value: completionScript(args.shell, tree) };
};
