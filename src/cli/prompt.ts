// Asking a person. Commands receive a Prompter; the real one loads @inquirer/prompts on first use and
// renders on stderr so that stdout stays data only. A cancelled prompt (Ctrl-C) exits 130.

import { interruptedError } from './errors.js';
import type { IOStreams } from './io.js';

export interface Choice {
  value: string;
  name?: string;
  description?: string;
}

export interface Prompter {
  input(message: string, options?: { required?: boolean; validate?: (value: string) => string | true }): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  select(message: string, choices: Choice[], defaultValue?: string): Promise<string>;
  checkbox(message: string, choices: Choice[]): Promise<string[]>;
  /** Pick one of the choices SOURCE gives for what was typed so far (asked again as the person types). */
  search(message: string, source: (term: string | undefined, signal: AbortSignal) => Promise<Choice[]>): Promise<string>;
}

export function createPrompter(io: IOStreams): Prompter {
  const context = { input: io.stdin as unknown as NodeJS.ReadableStream, output: io.stderr as unknown as NodeJS.WritableStream, clearPromptOnDone: false };
  const load = () => import('@inquirer/prompts');
  const ask = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) throw interruptedError();
      throw error;
    }
  };
  return {
    async input(message, options = {}) {
      const { input } = await load();
      return ask(() =>
        input(
          {
            message,
            required: options.required,
            validate: options.validate,
          },
          context,
        ),
      );
    },
    async password(message) {
      const { password } = await load();
      return ask(() => password({ message, mask: '*', validate: (value) => (value.trim() ? true : 'a value is required') }, context));
    },
    async confirm(message, defaultValue = false) {
      const { confirm } = await load();
      return ask(() => confirm({ message, default: defaultValue }, context));
    },
    async select(message, choices, defaultValue) {
      const { select } = await load();
      return ask(() => select({ message, choices, default: defaultValue, loop: false }, context));
    },
    async checkbox(message, choices) {
      const { checkbox } = await load();
      return ask(() => checkbox({ message, choices, loop: false }, context));
    },
    async search(message, source) {
      const { search } = await load();
      return ask(() => search({ message, source: (term, { signal }) => source(term, signal) }, context));
    },
  };
}
