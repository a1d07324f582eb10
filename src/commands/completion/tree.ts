// What the shell completions know, derived from the registry: every command with its aliases, flags
// and positional arguments, and which values each takes (fixed, known, a comma-separated list of
// them, a workspace's own through `crm __complete`, or a file). Commands added to the registry or
// the local commands appear in the completions when they are generated again.

import { GLOBAL_OPTIONS, HELP_FLAG, HELP_TOPICS, VERSION_FLAG } from '../../registry/global.js';
import { commandOptions } from '../../registry/options.js';
import { flagName, staticValues, type DynamicValues, type FieldSpec } from '../../registry/types.js';
import type { Tree } from '../command.js';

/** How a value is completed: fixed words, a list of them, asked of `crm __complete`, or a file name. */
export type ValueCompletion =
  | { kind: 'words'; words: readonly string[] }
  /** A comma-separated list of these words (--types contacts,deals). */
  | { kind: 'list'; words: readonly string[] }
  /** Asked of `crm __complete SOURCE` when completing. */
  | { kind: 'dynamic'; source: DynamicValues }
  | { kind: 'file' };

export interface Flag {
  long: string;
  short?: string;
  description: string;
  repeatable?: boolean;
  /** Absent for a flag that takes no value. */
  value?: { name: string; values?: ValueCompletion };
}

export interface Argument {
  name: string;
  optional: boolean;
  variadic: boolean;
  values?: ValueCompletion;
}

export interface CommandNode {
  /** Words after `crm`: ['contacts', 'list']; [] for crm itself. */
  path: readonly string[];
  name: string;
  aliases: readonly string[];
  description: string;
  /** The command's own flags; the global ones apply everywhere. */
  flags: readonly Flag[];
  args: readonly Argument[];
  children: CommandNode[];
}

export interface CompletionTree {
  root: CommandNode;
  globals: readonly Flag[];
}


function valuesOf(field: FieldSpec): ValueCompletion | undefined {
  const words = staticValues(field);
  if (words) return { kind: field.type === 'list' ? 'list' : 'words', words };
  if (typeof field.known === 'string') return { kind: 'dynamic', source: field.known };
  return field.type === 'file' ? { kind: 'file' } : undefined;
}

/** How a completion flag may be written: `-o` (when it has a short form) and `--output`. */
export const spellings = (flag: Flag): string[] => [...(flag.short ? [`-${flag.short}`] : []), `--${flag.long}`];

function flagOf(field: FieldSpec): Flag {
  const value = field.type === 'boolean' ? undefined : { name: field.placeholder ?? field.name, values: valuesOf(field) };
  return { long: flagName(field), short: field.short, description: field.description, repeatable: field.repeatable, value };
}

const HELP = flagOf(HELP_FLAG);
const VERSION = flagOf(VERSION_FLAG);

function argumentOf(field: FieldSpec): Argument {
  return { name: field.flag ?? field.name, optional: Boolean(field.optional || field.variadic), variadic: Boolean(field.variadic), values: valuesOf(field) };
}

export function completionTree({ commands, groups }: Tree): CompletionTree {
  const root: CommandNode = { path: [], name: 'crm', aliases: [], description: 'crm', flags: [HELP, VERSION], args: [], children: [] };
  const descriptions = new Map(groups);
  const nodeAt = (path: readonly string[]): CommandNode => {
    let node = root;
    for (let depth = 0; depth < path.length; depth++) {
      const name = path[depth]!;
      let child = node.children.find((candidate) => candidate.name === name);
      if (!child) {
        const groupPath = path.slice(0, depth + 1);
        child = { path: groupPath, name, aliases: [], description: descriptions.get(groupPath.join(' ')) ?? '', flags: [HELP], args: [], children: [] };
        node.children.push(child);
      }
      node = child;
    }
    return node;
  };
  for (const command of commands) {
    Object.assign(nodeAt(command.command), {
      aliases: command.aliases ?? [],
      description: command.summary,
      flags: [...commandOptions(command).map(flagOf), HELP],
      args: command.args.map(argumentOf),
    });
  }
  root.children.push(helpNode(root.children));
  return { root, globals: GLOBAL_OPTIONS.map(flagOf) };
}

/**
 * `crm help TOPIC` and `crm help COMMAND...`: a topic, or the words of a command as `crm` itself
 * completes them (`crm help contacts <TAB>` offers what `crm contacts <TAB>` does), without their
 * flags and arguments, which help does not take.
 */
function helpNode(commands: readonly CommandNode[]): CommandNode {
  const node = (path: readonly string[], description: string, children: CommandNode[] = [], aliases: readonly string[] = []): CommandNode => ({ path, name: path.at(-1)!, aliases, description, flags: [HELP], args: [], children });
  const words = (command: CommandNode, path: readonly string[]): CommandNode => node(path, command.description, command.children.map((child) => words(child, [...path, child.name])), command.aliases);
  const topics = HELP_TOPICS.map((topic) => node(['help', topic], 'help topic'));
  return node(['help'], 'Show help for a command, or a topic', [...topics, ...commands.map((command) => words(command, ['help', command.name]))]);
}

/** Every command of the tree, crm itself first. */
export function allNodes(node: CommandNode): CommandNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

/** The flag spellings of a command that take a value, global ones included. */
export function valueFlags(node: CommandNode, globals: readonly Flag[]): string[] {
  return [...globals, ...node.flags].filter((flag) => flag.value).flatMap((flag) => [`--${flag.long}`, ...(flag.short ? [`-${flag.short}`] : [])]);
}
