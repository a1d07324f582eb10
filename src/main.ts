// Entry point: builds the command tree from the commands' definitions (src/commands/index.ts) and
// runs it. Only commander and the definitions load up front; the code that runs a command
// (src/app.ts: the HTTP core, output, the command's handler) is imported when a command actually runs.

import { Command, CommanderError, Option } from 'commander';
import type { ContextInit, GlobalOptions } from './cli/context.js';
import type { Format } from './cli/printer.js';
import { describeOutputFailure, handleOutputErrors, processStderr, processStdout, whileRunning, type OutStream } from './cli/io.js';
import type { CommandBody, RunSettings } from './cli/runner.js';
import { VERSION } from './cli/version.js';
import { CrmCommand, TOPICS, describe, optionTerm } from './help.js';
import type { Command as CrmCommandSpec } from './commands/command.js';
import { COMMANDS, GROUPS } from './commands/index.js';
import { printedFields } from './commands/printed.js';
import { GLOBAL_OPTIONS, HELP_FLAG, HELP_TOPICS, VERSION_FLAG } from './registry/global.js';
import { commandOptions } from './registry/options.js';
import { flagName, flagSpellings, optionKey, staticValues, type Example, type FieldSpec } from './registry/types.js';

type MainInit = Omit<ContextInit, 'options'>;

/** crm's `help` command, as the root's listing and `crm help help` show it. */
const HELP_COMMAND = { term: 'help [topic|command...]', description: `show help for a command, or a topic: ${HELP_TOPICS.join(', ')}` };

/** `crm --help` shows the first example of these commands. */
const OVERVIEW_EXAMPLES = ['contacts_list', 'contacts_create', 'deals_stage', 'search', 'api'];

/** Global options that take a value, by every spelling (`-o`, `--output`): needed to read argv before the tree is built. */
const VALUE_OPTIONS = new Map(GLOBAL_OPTIONS.filter((field) => field.type !== 'boolean').flatMap((field) => flagSpellings(field).map((spelling) => [spelling, field.name] as const)));

/**
 * argv as commander will read it, for what must be known before the tree is built: the words that
 * are not global options or their values (the command path and its operands), and the values of
 * global options, in every form commander takes (`-o json`, `-ojson`, `-qo json`, `--output=json`).
 */
export function scanArgv(argv: readonly string[]): { words: string[]; values: Map<string, string> } {
  const words: string[] = [];
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') {
      words.push(arg);
    } else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = VALUE_OPTIONS.get(eq > 0 ? arg.slice(0, eq) : arg);
      if (name) values.set(name, eq > 0 ? arg.slice(eq + 1) : (argv[++index] ?? ''));
    } else {
      // Combined short flags: the first that takes a value takes the rest of the word, or the next one.
      for (let at = 1; at < arg.length; at++) {
        const name = VALUE_OPTIONS.get(`-${arg[at]}`);
        if (!name) continue;
        values.set(name, at + 1 < arg.length ? arg.slice(at + 1) : (argv[++index] ?? ''));
        break;
      }
    }
  }
  return { words, values };
}

/** JSON output asked for by a flag or CRM_OUTPUT (the profile's setting: jsonErrorsAsked): failures print the JSON error object too. */
function asksForJson(argv: readonly string[], values: Map<string, string>, env: NodeJS.ProcessEnv): boolean {
  const flags = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined);
  return flags.includes('--json') || [values.get('output'), env.CRM_OUTPUT].some((value) => value?.trim().toLowerCase() === 'json');
}

type Run = (body: CommandBody, command: Command, settings?: RunSettings) => Promise<void>;

/** buildProgram's `words` for the whole tree (the generated reference, the help tests). */
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
      // main() reports usage errors itself, with a hint where one helps.
      outputError: () => {},
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
    })
    .description('Operate a CRM workspace from the terminal, from scripts and from AI agents.')
    .version(VERSION, optionTerm(VERSION_FLAG), VERSION_FLAG.description)
    .helpOption(optionTerm(HELP_FLAG), HELP_FLAG.description)
    .showSuggestionAfterError(true);
  addOptions(program, GLOBAL_OPTIONS);
  (program as CrmCommand).examples = OVERVIEW_EXAMPLES.flatMap((name) => COMMANDS.find((spec) => spec.name === name)?.examples.slice(0, 1) ?? []);

  const descriptions = new Map(GROUPS);
  const groupOf = (path: readonly string[]): Command => {
    let parent: Command = program;
    for (let depth = 0; depth < path.length; depth++) {
      const name = path[depth]!;
      parent = parent.commands.find((command) => command.name() === name) ?? parent.command(name).description(descriptions.get(path.slice(0, depth + 1).join(' ')) ?? '');
    }
    return parent;
  };

  for (const spec of COMMANDS) {
    const level = detail(spec.command, spec.aliases);
    if (level === 'group') placeholder(program, spec.command, spec.summary, descriptions);
    else addCommand(groupOf(spec.command.slice(0, -1)), spec, run, level === 'full');
  }
  // Set last, so that groups keep commander's own `help [command]`: topics are crm's.
  program.helpCommand(HELP_COMMAND.term, HELP_COMMAND.description);
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

/** Flags from the registry: `--limit <n>`, `-L`, booleans without a value, repeatable ones collected. */
function addOptions(command: Command, fields: readonly FieldSpec[]): void {
  for (const field of fields) {
    const required = field.required && !field.readOnly ? ' (required)' : '';
    const option = new Option(optionTerm(field), `${describe(field)}${required}`);
    if (field.type !== 'boolean') option.argParser(flagValue(command, field));
    if (field.repeatable) option.default(undefined);
    command.addOption(option);
  }
}

/**
 * How a flag's value is taken from argv, each time the flag is given (commander hands it the value
 * before): a repeatable flag collects its values; another given twice takes the last, as gh and git
 * do, so that a wrapper's default (`crm -o json "$@"`) can be overridden. A value that is one of the
 * command's flags (`--company --yes`) is the flag's value left out, not a company named "--yes":
 * commander takes the next word whatever it is.
 */
function flagValue(command: Command, field: FieldSpec): (value: string, previous: unknown) => string | string[] {
  const label = `--${flagName(field)}`;
  return (value, previous) => {
    if (isFlagOf(command, value)) throw new CommanderError(2, 'crm.optionMissingArgument', `${label} needs a value (${value} follows it)`);
    return field.repeatable ? [...((previous as string[] | undefined) ?? []), value] : value;
  };
}

/** Whether a word is a flag of the command or of a command above it (`--yes`, `-y`, `--name=x`). */
function isFlagOf(command: Command, word: string): boolean {
  if (!/^--?[A-Za-z]/.test(word)) return false;
  const name = word.startsWith('--') ? word.split('=')[0]! : word;
  for (let node: Command | null = command; node; node = node.parent) {
    if (node.options.some((option) => option.long === name || option.short === name)) return true;
  }
  return name === '--help' || name === '-h';
}

function withExamples(command: Command, examples: readonly Example[]): void {
  (command as CrmCommand).examples = examples;
}

/** A command of the tree; its endpoint, if it calls one, shown in its description. */
function addCommand(parent: Command, spec: CrmCommandSpec, run: Run, full: boolean): void {
  const summary = spec.endpoint ? `${spec.summary}  [${spec.endpoint.method} ${spec.endpoint.path}]` : spec.summary;
  const command = parent.command(spec.command.at(-1)!).description(summary);
  if (spec.aliases) command.aliases([...spec.aliases]);
  if (!full) return;
  // Its own page says more; listings keep the one line.
  if (spec.description) command.summary(summary).description(`${summary}\n\n${spec.description}`);
  withExamples(command, spec.examples);
  addArguments(command, spec.args);
  addOptions(command, commandOptions(spec));
  command.action(async (...actionArgs: unknown[]) => {
    const leaf = actionArgs.at(-1) as Command;
    await run(
      async (ctx) => {
        // Run by name: app.js reads the definition from the same tree and loads its handler.
        const { runNamed } = await import('./app.js');
        return runNamed(ctx, spec.name, { args: positionalArgs(spec.args, leaf), options: leaf.opts() });
      },
      leaf,
      { ignoreProfileOutput: spec.ignoresOutputSetting, defaultFormat: chosenFormat(spec, leaf) ?? spec.defaultFormat, pipeFormat: spec.pipeFormat },
    );
  });
}

/** The value of a command's own format option, when it is one the option offers (else it fails its check later). */
function chosenFormat(local: CrmCommandSpec, leaf: Command): Format | undefined {
  const field = local.options.find((option) => option.name === local.formatOption);
  const value = field ? leaf.opts()[optionKey(field)] : undefined;
  if (typeof value !== 'string') return undefined;
  return staticValues(field!)?.find((choice) => choice === value.trim().toLowerCase()) as Format | undefined;
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
  const stdout = init.stdout ?? processStdout();
  // process.stderr is created only when something is written to it.
  const stderr = init.stderr ?? { write: (text: string) => processStderr().write(text) };
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

  const fieldList = jsonFieldList(argv, scanArgv(argv).words);
  argv = fieldList.argv;
  const { words, values } = scanArgv(argv);
  // `crm help contacts list` shows what `crm contacts list --help` shows.
  const program = buildProgram(run, words.filter((word) => word !== 'help'), { stdout, stderr });
  const usageFailure = async (message: string, hint?: string): Promise<number> => {
    const { jsonErrorsAsked, printFailure, usageError } = await import('./app.js');
    const env = init.env ?? process.env;
    const json = asksForJson(argv, values, env) || jsonErrorsAsked({ profile: values.get('profile'), output: values.get('output'), jq: values.get('jq') }, env);
    const failure = usageError(message, hint);
    printFailure(stderr, failure, json);
    return failure.exitCode;
  };

  if (fieldList.conflict !== undefined) return usageFailure(`--json ${fieldList.conflict} and --fields both choose the fields`, `use one: --json --fields ${fieldList.conflict}`);

  if (words[0] === 'help') {
    const asked = words.slice(1);
    const topic = asked.length === 1 ? HELP_TOPICS.find((name) => name === asked[0]) : undefined;
    if (topic) {
      stdout.write(`${TOPICS[topic].render(stdout.isTTY && stdout.columns ? stdout.columns : 80)}\n`);
      return 0;
    }
    if (asked.length === 1 && asked[0] === 'help') {
      stdout.write(`Usage: crm ${HELP_COMMAND.term}\n\n${HELP_COMMAND.description}; \`crm help contacts list\` shows what \`crm contacts list --help\` shows\n`);
      return 0;
    }
    const command = findCommand(program, asked);
    if (!command) {
      const near = await nearestHelp(program, asked);
      return usageFailure(`unknown help topic or command "${asked.join(' ')}"`, near ? `did you mean \`crm help ${near}\`?` : `topics: ${HELP_TOPICS.join(', ')}; commands: crm --help`);
    }
    command.outputHelp();
    return 0;
  }

  try {
    await program.parseAsync(argv.length === 0 ? ['--help'] : argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
    // Commander's usage errors are exit 2, in one line (its "did you mean" comes on a line of its own).
    const message = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    const valued = switchWithValue(program, words, error);
    if (valued) return usageFailure(`${valued.flag} takes no value (given ${JSON.stringify(valued.value)})`, `give ${valued.flag} alone, or leave it out`);
    return usageFailure(message, /Did you mean/.test(message) ? undefined : wayOut(program, words, error));
  }
  return exitCode;
}

/**
 * `--all=maybe`, `--yes=true`: a flag that takes no value, given one. Commander calls it an unknown
 * option, though the command has it.
 */
function switchWithValue(program: Command, words: readonly string[], error: CommanderError): { flag: string; value: string } | undefined {
  const given = error.code === 'commander.unknownOption' ? /'(--[^'=]+)=([^']*)'/.exec(error.message) : null;
  if (!given) return undefined;
  for (let node = findCommand(program, commandPath(program, words)) ?? null; node; node = node.parent) {
    if (node.options.some((option) => option.long === given[1] && !option.required && !option.optional)) return { flag: given[1]!, value: given[2]! };
  }
  return undefined;
}

/** Words people bring from other tools for what crm names otherwise; offered only where the command exists. */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  show: ['view', 'get'],
  describe: ['view', 'get'],
  add: ['create'],
  move: ['stage'],
  login: ['auth login'],
  logout: ['auth logout'],
  whoami: ['auth status'],
};

/**
 * What to do after an unknown command or option commander has no near name for: the command a word
 * of another tool means (`crm contacts show`: `crm contacts view`; `crm login`: `crm auth login`),
 * else where the commands or flags are listed.
 */
function wayOut(program: Command, words: readonly string[], error: CommanderError): string | undefined {
  const path = commandPath(program, words);
  const help = ['crm', ...path, '--help'].join(' ');
  const unknown = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  if ((unknown === 'version' || unknown === '-v') && path.length === 0) return '`crm --version` prints the version';
  if (error.code === 'commander.unknownOption') return path.length === 0 ? '`crm help flags` lists the global flags' : `\`${help}\` lists its flags, \`crm help flags\` the global ones`;
  if (error.code !== 'commander.unknownCommand') return undefined;
  // The tree is built only along the words given: a synonym in another group is checked by its group.
  const meant = (SYNONYMS[unknown] ?? []).find((words) => findCommand(program, [...path, words.split(' ')[0]!]));
  if (meant) return `did you mean \`${['crm', ...path, meant].join(' ')}\`?`;
  return `\`${help}\` lists the commands`;
}

/** What an unknown `crm help WORDS` most likely meant: a topic, or a command with its last word misspelt. */
async function nearestHelp(program: Command, asked: readonly string[]): Promise<string | undefined> {
  const parent = findCommand(program, asked.slice(0, -1));
  if (!parent || asked.length === 0) return undefined;
  // Loaded only on this failure: start-up does not pay for it.
  const { closestName } = await import('./registry/values.js');
  const names = parent.commands.flatMap((child) => [child.name(), ...child.aliases()]);
  const near = closestName(asked.at(-1)!, asked.length === 1 ? [...HELP_TOPICS, ...names] : names);
  return near && [...asked.slice(0, -1), near].join(' ');
}

/** The command path: the leading words that name commands (an option's value is not among the words). */
function commandPath(program: Command, words: readonly string[]): string[] {
  const path: string[] = [];
  for (const word of words) if (findCommand(program, [...path, word]) && path.length === words.indexOf(word)) path.push(word);
  return path;
}

/** The command a path of names or aliases leads to (the program itself for none). */
function findCommand(program: Command, path: readonly string[]): Command | undefined {
  let command: Command | undefined = program;
  for (const word of path) command = command?.commands.find((child) => child.name() === word || child.aliases().includes(word));
  return command;
}

/** A word given to --json as gh takes it: field names, comma-separated (`id,email`, `account.name`). */
const FIELD_LIST = /^[A-Za-z_][\w.]*(,[A-Za-z_][\w.]*)*$/;

/**
 * gh's `--json id,email`: crm's --json takes no value, so the list goes to --fields. The word after
 * --json is a field list when it has the shape of one and holds a comma or names a field the
 * command prints (for a command that cannot say what it prints: when it takes no arguments);
 * otherwise it stays what it was (`crm contacts get --json con_1`: the id). `--json=a,b` always is.
 */
function jsonFieldList(argv: readonly string[], words: readonly string[]): { argv: string[]; conflict?: string } {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  for (let at = 0; at < end; at++) {
    const given = argv[at]!.startsWith('--json=') ? argv[at]!.slice('--json='.length) : undefined;
    const next = argv[at] === '--json' && at + 1 < end ? argv[at + 1]! : undefined;
    const list = given ?? (next !== undefined && namesFields(next, words, scanArgv(argv.slice(0, at)).words.length) ? next : undefined);
    if (list === undefined) continue;
    if (argv.slice(0, end).some((arg) => arg === '--fields' || arg.startsWith('--fields='))) return { argv: [...argv], conflict: list };
    return { argv: [...argv.slice(0, at), '--json', '--fields', list, ...argv.slice(at + (given === undefined ? 2 : 1))] };
  }
  return { argv: [...argv] };
}

/** Whether the word after --json, which has `before` words before it, names fields. */
function namesFields(word: string, words: readonly string[], before: number): boolean {
  if (!FIELD_LIST.test(word)) return false;
  if (word.includes(',')) return true;
  const command = COMMANDS.find((spec) => spec.command.every((name, index) => words[index] === name || (index === spec.command.length - 1 && spec.aliases?.includes(words[index]!))));
  // A word of the command's path (`crm --json analytics`) is that word.
  if (!command || before < command.command.length) return false;
  const fields = printedFields(command, words[command.command.length]);
  return fields ? fields.includes(word.split('.')[0]!) : command.args.length === 0;
}
