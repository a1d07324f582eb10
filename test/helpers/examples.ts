// Runs a documented command line (a registry example, a README line) in-process against a workspace,
// as a shell would: quotes, pipes into another crm (`... -q | crm sequences enroll SEQ -`),
// `| xargs crm ...` and `$(crm ...)`. Anything else (redirections, other programs) is refused.
import type { Prompter } from '../../src/cli/prompt.js';
import { run, type RunOptions, type Workspace } from './inprocess.js';

type Word = string | { substitute: Word[][] };

/** Shell words of a command line: quotes, `|` between commands, `$(...)` (unquoted, whole words). */
export function parseCommandLine(line: string): Word[][] {
  const commands: Word[][] = [[]];
  let index = 0;
  const word = (): Word => {
    if (line.startsWith('$(', index)) {
      let depth = 1;
      const start = index + 2;
      index = start;
      while (depth > 0) {
        if (index >= line.length) throw new Error(`unclosed $( in ${line}`);
        if (line[index] === '(') depth++;
        if (line[index] === ')') depth--;
        index++;
      }
      return { substitute: parseCommandLine(line.slice(start, index - 1)) };
    }
    let text = '';
    while (index < line.length && !/[\s|]/.test(line[index]!)) {
      const char = line[index++]!;
      if (char === "'") {
        const end = line.indexOf("'", index);
        text += line.slice(index, end);
        index = end + 1;
      } else if (char === '"') {
        while (line[index] !== '"') text += line[index] === '\\' ? line[(index += 2) - 1] : line[index++];
        index++;
      } else if (/[<>;&`$]/.test(char)) {
        throw new Error(`cannot run "${char}" in: ${line} (an example that needs it says so: needs)`);
      } else {
        text += char;
      }
    }
    return text;
  };
  while (index < line.length) {
    if (/\s/.test(line[index]!)) index++;
    else if (line[index] === '|') {
      commands.push([]);
      index++;
    } else commands.at(-1)!.push(word());
  }
  return commands;
}

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A person who picks the first choice that changes something; nothing else is asked of them. */
const firstChoice: Prompter = {
  input: async (message) => {
    throw new Error(`unexpected question: ${message}`);
  },
  password: async (message) => {
    throw new Error(`unexpected question: ${message}`);
  },
  confirm: async () => true,
  select: async (_message, choices, current) => choices.find((choice) => choice.value !== current)!.value,
  checkbox: async (_message, choices) => [choices[0]!.value],
  search: async (_message, source) => (await source(undefined, new AbortController().signal)).find((choice) => choice.value !== '')!.value,
};

const AT_A_TERMINAL: RunOptions = { tty: { stdin: true, stdout: true, stderr: true }, prompter: firstChoice };

export async function runPipeline(commands: Word[][], ws: Workspace, terminal = false): Promise<Outcome> {
  let previous: Outcome | undefined;
  for (const command of commands) {
    const words: string[] = [];
    for (const item of command) {
      if (typeof item === 'string') words.push(item);
      else words.push(...(await runPipeline(item.substitute, ws)).stdout.split(/\s+/).filter(Boolean));
    }
    const [program, ...rest] = words;
    let argv: string[];
    if (program === 'crm') argv = rest;
    else if (program === 'xargs' && rest[0] === 'crm') argv = [...rest.slice(1), ...(previous?.stdout.split(/\s+/).filter(Boolean) ?? [])];
    else throw new Error(`only crm (or xargs crm) can run here, not ${program}`);
    const outcome = await run(argv, { ws, ...(terminal ? AT_A_TERMINAL : { stdin: previous?.stdout ?? '' }) });
    if (outcome.code !== 0) return outcome;
    previous = outcome;
  }
  return previous!;
}

