// What the three completion scripts share: their header, quoting, and the rule that every value they
// offer is one plain word, so that a completed value never needs quoting on the command line.

/** The shells crm writes a completion script for (`crm completion SHELL`, completions/). */
export const SHELL_NAMES = ['bash', 'zsh', 'fish'] as const;

export const GENERATED = "Generated from crm's command registry by `npm run completions`; do not edit.";

/**
 * Values a completion may insert: letters, digits and _ . @ % + / - (never a space, quote or $), not
 * starting with - (crm would read a stage named `--insecure` as that flag).
 */
const SHELL_WORD = /^[\w.@%+/][\w.@%+/-]*$/;

export function isShellWord(value: string): boolean {
  return SHELL_WORD.test(value);
}

/** Words for a script; a registry value that is not a plain word is a mistake caught when generating. */
export function shellWords(words: readonly string[]): string {
  for (const word of words) if (!isShellWord(word)) throw new Error(`completion value "${word}" is not a plain word`);
  return words.join(' ');
}

/** A single-quoted string for bash and zsh. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
