// Entry point: builds the command tree (from the endpoint registry plus the local commands) and
// runs it. Only commander and the two command lists load up front; the code that runs a command
// (src/app.ts: the HTTP core, output, commands) is imported when a command actually runs.

import { Command, CommanderError, Option } from 'commander';
import type { ContextInit, GlobalOptions } from './cli/context.js';
import { describeOutputFailure, handleOutputErrors, whileRunning, type OutStream } from './cli/io.js';
import type { CommandBody, RunSettings } from './cli/runner.js';
import { VERSION } from './cli/version.js';
import { LOCAL_COMMANDS, LOCAL_GROUPS, type LocalCommand } from './registry/local.js';
import { GROUPS, OPERATIONS, commandOptions } from './registry/operations.js';
import { flagName, staticValues, type FieldSpec } from './registry/types.js';

export type MainInit = Omit<ContextInit, 'options'>;

const HELP_FOOTER = `
Output: a table on a terminal, tab-separated values in a pipe; --json, -o json|ndjson|csv|tsv|table.
Environment: CRM_API_KEY, CRM_BASE_URL, CRM_PROFILE, CRM_OUTPUT, CRM_NO_INPUT, CRM_DEBUG,
  CRM_CONFIG_DIR, CRM_DATA_DIR, NO_COLOR, FORCE_COLOR.
Exit codes: 0 ok, 1 service error, 2 usage, 3 auth, 4 not found, 5 rate limited, 6 network,
  7 partial failure, 130 interrupted.
With nothing configured, crm uses a local sandbox workspace with demo data (see \`crm sandbox\`).`;

/** Help goes to stdout and exits 0, also for a group called without its subcommand (`crm contacts`). */
class CrmCommand extends Command {
  override createCommand(name?: string): Command {
    return new CrmCommand(name);
  }
  override help(): never {
    return super.help();
  }
}

/** Global options that take a value: needed to find the first command word in argv. */
const VALUE_OPTIONS = new Set(['-o', '--output', '--fields', '--profile', '--base-url', '--timeout']);

function addGlobalOptions(program: Command): void {
  program
    .option('--json', 'machine output: JSON (same as -o json)')
    .addOption(new Option('-o, --output <format>', 'output format: table, json, ndjson, csv, tsv'))
    .option('--fields <list>', 'comma-separated fields to keep, in this order')
    .option('-q, --quiet', 'print only ids (list, create); nothing for other commands')
    .option('--profile <name>', 'stored workspace profile to use (env CRM_PROFILE)')
    .option('--base-url <url>', 'service base URL, overrides the profile (env CRM_BASE_URL)')
    .option('--no-input', 'never prompt; fail naming the missing flags (env CRM_NO_INPUT=1)')
    .option('--no-color', 'no colour (env NO_COLOR; FORCE_COLOR forces it)')
    .option('--debug', 'trace requests and responses on stderr, key redacted (env CRM_DEBUG=1)')
    .option('--dry-run', 'print the request that would be sent, and send nothing')
    .option('--timeout <seconds>', 'per-request timeout in seconds (default 30)')
    .option('--wait', 'wait out a long Retry-After instead of exiting 5')
    .option('--insecure', 'allow sending the API key over plain HTTP to a non-local host');
}

/** The words of argv that are not global options or their values: the command path and its operands. */
export function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') words.push(arg);
    else if (VALUE_OPTIONS.has(arg)) index++;
  }
  return words;
}

type Run = (body: CommandBody, command: Command, settings?: RunSettings) => Promise<void>;

/** buildProgram's `words` for the whole tree (the generated reference, completions). */
export const ALL_COMMANDS = null;

/**
 * The command tree. Only what argv names is built in full: the command being run with its options,
 * or a whole group for `crm contacts --help`. Other groups are listed with their description and
 * other commands of the group with name and aliases (enough for help and "did you mean"), which
 * keeps start-up cheap: commander's options cost about 0.07 ms each.
 */
export function buildProgram(run: Run, words: string[] | typeof ALL_COMMANDS, io: { stdout: OutStream; stderr: OutStream }): Command {
  /** 'full': build with options and action; 'name': name and aliases only; 'group': only its group's entry. */
  const detail = (command: readonly string[], aliases: readonly string[] = []): 'full' | 'name' | 'group' => {
    if (words === ALL_COMMANDS) return 'full';
    if (words[0] !== command[0]) return 'group';
    const named = command.every((word, index) => index >= words.length || words[index] === word || (index === command.length - 1 && aliases.includes(words[index]!)));
    return named ? 'full' : 'name';
  };
  // Set before any subcommand is added: commander copies these settings into each one.
  const program = new CrmCommand('crm')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`crm: ${text.replace(/^error: /, '')}`),
    })
    .description('Operate a CRM workspace from the terminal, from scripts and from AI agents.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addHelpText('after', HELP_FOOTER)
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true);
  addGlobalOptions(program);

  const descriptions = new Map([...GROUPS, ...LOCAL_GROUPS]);
  const groupOf = (path: readonly string[]): Command => {
    let parent: Command = program;
    for (let depth = 0; depth < path.length; depth++) {
      const name = path[depth]!;
      parent = parent.commands.find((command) => command.name() === name) ?? parent.command(name).description(descriptions.get(path.slice(0, depth + 1).join(' ')) ?? '');
    }
    return parent;
  };

  for (const op of OPERATIONS) {
    const level = detail(op.command, op.aliases);
    if (level === 'group') {
      placeholder(program, op.command, op.summary, descriptions);
      continue;
    }
    const command = groupOf(op.command.slice(0, -1)).command(op.command.at(-1)!).description(`${op.summary}  [${op.method} ${op.path}]`);
    if (op.aliases) command.aliases([...op.aliases]);
    if (level === 'name') continue;
    addArguments(command, op.args);
    addOptions(command, commandOptions(op));
    command.action(async (...actionArgs: unknown[]) => {
      const leaf = actionArgs.at(-1) as Command;
      await run(async (ctx) => {
        const { runOperation } = await import('./app.js');
        return runOperation(ctx, op, { args: positionalArgs(op.args, leaf), options: leaf.opts() });
      }, leaf);
    });
  }
  for (const local of LOCAL_COMMANDS) {
    const level = detail(local.command, local.aliases);
    if (level === 'group') placeholder(program, local.command, local.summary, descriptions);
    else addLocalCommand(groupOf(local.command.slice(0, -1)), local, run, level === 'full');
  }
  return program;
}

/** A top-level entry for help listings of a group (or single command) that this run does not need. */
function placeholder(program: Command, path: readonly string[], summary: string, descriptions: Map<string, string>): void {
  const name = path[0]!;
  if (program.commands.some((command) => command.name() === name)) return;
  program.command(name).description(path.length === 1 ? summary : descriptions.get(name) ?? '');
}

/** Positional arguments: `<id>`, `[stage]`, `[contact_ids...]`; an argument's `flag` is its display name. */
function addArguments(command: Command, args: readonly FieldSpec[]): void {
  for (const arg of args) {
    const label = `${arg.flag ?? arg.name}${arg.variadic ? '...' : ''}`;
    command.argument(arg.optional ? `[${label}]` : `<${label}>`, describe(arg));
  }
}

const PLACEHOLDERS: Partial<Record<FieldSpec['type'], string>> = { integer: 'n', number: 'n', date: 'date', file: 'file', duration: 'duration', email: 'email', id: 'id', ids: 'ids', list: 'list', json: 'json' };

/** Flags from the registry: `--limit <n>`, `-L`, booleans without a value, repeatable ones collected. */
function addOptions(command: Command, fields: readonly FieldSpec[]): void {
  for (const field of fields) {
    const long = `--${flagName(field)}`;
    const flags = `${field.short ? `-${field.short}, ` : ''}${long}${field.type === 'boolean' ? '' : ` <${PLACEHOLDERS[field.type] ?? 'value'}>`}`;
    const required = field.required && !field.readOnly ? ' (required)' : '';
    const option = new Option(flags, `${describe(field)}${required}`);
    if (field.repeatable) option.argParser(collect).default(undefined);
    command.addOption(option);
  }
}

/** The description, with the values a field takes when they are known. */
function describe(field: FieldSpec): string {
  const values = staticValues(field);
  return values ? `${field.description}: ${values.join(', ')}` : field.description;
}

function addLocalCommand(parent: Command, local: LocalCommand, run: Run, full: boolean): void {
  const command = parent.command(local.command.at(-1)!).description(local.summary);
  if (local.aliases) command.aliases([...local.aliases]);
  if (!full) return;
  addArguments(command, local.args);
  addOptions(command, local.options);
  command.action(async (...actionArgs: unknown[]) => {
    const leaf = actionArgs.at(-1) as Command;
    await run(
      async (ctx) => {
        const { runLocal } = await import('./app.js');
        return runLocal(ctx, local, { args: positionalArgs(local.args, leaf), options: leaf.opts() });
      },
      leaf,
      { ignoreProfileOutput: local.command[0] === 'config', defaultFormat: local.defaultFormat },
    );
  });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function positionalArgs(args: readonly FieldSpec[], command: Command): Record<string, unknown> {
  const values = command.processedArgs as unknown[];
  return Object.fromEntries(args.map((arg, index) => [arg.name, values[index]]));
}

function rootOf(command: Command): Command {
  let node = command;
  while (node.parent) node = node.parent;
  return node;
}

/** Runs crm with the given arguments (without "node crm") and resolves to the exit code. */
export async function main(argv: string[], init: MainInit = {}): Promise<number> {
  const stdout = init.stdout ?? process.stdout;
  // process.stderr is created only when something is written to it.
  const stderr = init.stderr ?? { write: (text: string) => process.stderr.write(text) };
  // While a command runs, its runner reports a failing stdout; before and after, this does.
  handleOutputErrors(stdout, (end) => {
    if (end.reason !== 'output_failed') return 0;
    stderr.write(`crm: ${describeOutputFailure(end.error)}\n`);
    return 1;
  });
  let exitCode = 0;

  const run: Run = async (body, command, settings) => {
    const { runAction } = await import('./app.js');
    exitCode = await runAction({ ...init, options: rootOf(command).opts() as GlobalOptions }, body, { ...settings, track: whileRunning });
  };

  // `crm help contacts list` shows what `crm contacts list --help` shows.
  const words = commandWords(argv).filter((word) => word !== 'help');
  const program = buildProgram(run, words, { stdout, stderr });
  try {
    await program.parseAsync(argv.length === 0 ? ['--help'] : argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
    // Commander printed its message already; its usage errors are exit 2.
    if (argv.includes('--json')) {
      const { usageErrorJson } = await import('./app.js');
      stderr.write(`${usageErrorJson(error.message.replace(/^error: /, ''))}\n`);
    }
    return 2;
  }
  return exitCode;
}
