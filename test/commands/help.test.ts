// Help as a person reads it: every command's page has its description, its own flags, examples from
// the registry and one line pointing at the global flags; the topics say what the registry says.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { ALL_COMMANDS, buildProgram } from '../../src/main.js';
import { ENVIRONMENT, GLOBAL_OPTIONS, OUTPUT_FORMATS } from '../../src/registry/global.js';
import { flagName } from '../../src/registry/types.js';
import { BASE_URL, homeEnv, run, useWorkspace } from '../helpers/inprocess.js';
import { LOCAL_COMMANDS, ENDPOINT_COMMANDS } from '../helpers/tree.js';

const ws = useWorkspace();
const POINTER = 'Global flags (--json, -o, --fields, -q, --profile, --dry-run, ...): crm help flags';

function leaves(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
}

describe('command help', () => {
  const ignore = { write: () => true };
  const program = buildProgram(async () => {}, ALL_COMMANDS, { stdout: ignore, stderr: ignore });

  it('gives every command its description, its own flags, an example and a pointer to the global flags', () => {
    const specs = [...ENDPOINT_COMMANDS, ...LOCAL_COMMANDS];
    const pages = leaves(program);
    expect(pages.length).toBe(specs.length);
    for (const spec of specs) {
      let command: Command = program;
      for (const word of spec.command) command = command.commands.find((child) => child.name() === word)!;
      const page = command.helpInformation();
      const name = spec.command.join(' ');
      expect(page.replace(/\s+/g, ' '), name).toContain(spec.summary);
      expect(spec.examples.length, name).toBeGreaterThan(0);
      expect(page, name).toContain(`Examples:\n  # ${spec.examples[0]!.description}\n  $ ${spec.examples[0]!.command}`);
      expect(page.trimEnd().endsWith(POINTER), name).toBe(true);
      // Global flags are described once, in `crm --help` and `crm help flags`, not on each page.
      expect(page, name).not.toContain('--base-url <url>');
      expect(page, name).not.toContain('Global Options');
    }
  });

  it('says `-` reads the ids from stdin on the page of every command that takes several ids (tasks complete and ai accept said only "task ids")', () => {
    const bulk = [...ENDPOINT_COMMANDS, ...LOCAL_COMMANDS].filter((spec) => spec.args?.some((arg) => arg.type === 'ids' && arg.variadic));
    expect(bulk.map((spec) => spec.command.join(' '))).toEqual(expect.arrayContaining(['tasks complete', 'ai accept', 'tasks update']));
    for (const spec of bulk) {
      let command: Command = program;
      for (const word of spec.command) command = command.commands.find((child) => child.name() === word)!;
      expect(command.helpInformation().replace(/\s+/g, ' '), spec.command.join(' ')).toMatch(/`-`( to read them| reads them)? from stdin|or `-`/);
    }
  });

  it('shows the global flags once in `crm --help`, with the topics and examples', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    for (const field of GLOBAL_OPTIONS) expect(result.stdout.match(new RegExp(`^  (-\\w, )?--${flagName(field)}\\b`, 'gm')), flagName(field)).toHaveLength(1);
    for (const topic of ['environment', 'exit-codes', 'output', 'flags']) expect(result.stdout).toContain(`crm help ${topic}`);
    expect(result.stdout).toContain('$ crm contacts list --status lead --limit 10');
    expect(await run([])).toEqual(result);
  });

  it('shows a group its commands and the first example of each', async () => {
    const result = await run(['deals', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('stage [options] <id...>');
    expect(result.stdout).toContain('$ crm deals list --stage proposal');
    expect(result.stdout).toContain('$ crm deals stage deal_m279ns143s296hm4 negotiation');
    expect(result.stdout.trimEnd().endsWith(POINTER)).toBe(true);
  });

  it('uses the right article in summaries', async () => {
    expect((await run(['accounts', 'create', '--help'])).stdout).toContain('Create an account  [POST /accounts]');
    expect((await run(['deals', 'create', '--help'])).stdout).toContain('Create a deal  [POST /deals]');
  });

  it('`crm help COMMAND` is `crm COMMAND --help`, aliases too', async () => {
    const viaFlag = await run(['contacts', 'list', '--help']);
    expect(await run(['help', 'contacts', 'list'])).toEqual(viaFlag);
    expect(await run(['help', 'contacts', 'ls'])).toEqual(viaFlag);
    expect(viaFlag.stdout).toContain('-L, --limit <n>   at most this many records in all, fetched 50 a request');
  });

  it('`crm help help` says how help is used (it was exit 2, an unknown topic)', async () => {
    const result = await run(['help', 'help']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('Usage: crm help [topic|command...]\n\nshow help for a command, or a topic: environment, exit-codes, output, flags; `crm help contacts list` shows what `crm contacts list --help` shows\n');
  });
});

describe('help topics', () => {
  it('crm help exit-codes lists every exit code crm uses', async () => {
    const result = await run(['help', 'exit-codes']);
    expect(result.code).toBe(0);
    for (const code of Object.values(ExitCode)) expect(result.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });

  it("FORCE_COLOR's help says what it does: JSON into a pipe stays plain (it said 'colour even into a pipe')", async () => {
    const forced = await run(['contacts', 'list', '-L', '1', '--json'], { ws, env: { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, FORCE_COLOR: '1' } });
    expect(forced.stdout).not.toMatch(/\x1b\[/);
    const help = await run(['help', 'environment']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('FORCE_COLOR set (not 0): colour even into a pipe, but for JSON, which a pipe gets plain');
    const output = await run(['help', 'output']);
    expect(output.stdout.replace(/\s+/g, ' ')).toContain('FORCE_COLOR forces it (JSON into a pipe stays plain)');
  });

  it('crm help environment lists every variable', async () => {
    const result = await run(['help', 'environment']);
    expect(result.code).toBe(0);
    for (const variable of ENVIRONMENT) expect(result.stdout).toContain(`  ${variable.name} `);
  });

  it('crm help flags lists every global flag, crm help output every format', async () => {
    const flags = await run(['help', 'flags']);
    expect(flags.code).toBe(0);
    for (const field of GLOBAL_OPTIONS) expect(flags.stdout).toContain(`--${flagName(field)}`);
    expect(flags.stdout).toContain('-o, --output <format>  output format: table, json, ndjson, csv, tsv');
    const output = await run(['help', 'output']);
    expect(output.code).toBe(0);
    for (const format of OUTPUT_FORMATS) expect(output.stdout).toMatch(new RegExp(`^  ${format} +\\S`, 'm'));
    expect(output.stdout).toContain('--limit N (-L) returns at most N records in all');
  });

  it('-q says what it prints for a bulk command: the ids that succeeded (it said nothing for commands other than list and create)', async () => {
    const open = (ws.api('GET', '/tasks?status=open&limit=1').data.tasks as Array<{ id: string }>)[0]!.id;
    const bulk = await run(['tasks', 'complete', open, 'task_missing', '-q'], { ws });
    expect(bulk.code).toBe(ExitCode.partial);
    expect(bulk.stdout).toBe(`${open}\n`);
    const flags = await run(['help', 'flags']);
    expect(flags.stdout.replace(/\s+/g, ' ')).toContain('-q, --quiet print only ids (list, create; a bulk command: the ids that succeeded)');
  });

  it('an unknown topic exits 2 listing the topics, and prints nothing on stdout', async () => {
    for (const argv of [['help', 'nonsense'], ['help', 'contacts', 'nonsense']]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`crm: unknown help topic or command "${argv.slice(1).join(' ')}"`);
      expect(result.stderr).toContain('hint: topics: environment, exit-codes, output, flags; commands: crm --help');
    }
    const json = await run(['help', 'nonsense', '--json']);
    expect(JSON.parse(json.stderr.split('\n')[2]!).error).toMatchObject({ code: 'usage', exit_code: 2 });
  });

  it('a misspelt topic or command is exit 2 with the one it most likely meant, as gh says "Did you mean this?"', async () => {
    for (const [argv, meant] of [
      [['help', 'environmnt'], 'environment'],
      [['help', 'contcts'], 'contacts'],
      [['help', 'contacts', 'lst'], 'contacts list'],
      [['help', 'contacts', 'notes', 'ad'], 'contacts notes add'],
    ] as const) {
      const result = await run([...argv]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`crm: unknown help topic or command "${argv.slice(1).join(' ')}"\nhint: did you mean \`crm help ${meant}\`?\n`);
    }
  });

  it("commander's usage error is one line in the --json error too (its 'Did you mean' was on a line of its own there)", async () => {
    const result = await run(['contcts', 'list', '--json']);
    expect(result.code).toBe(2);
    const [line, json] = result.stderr.trimEnd().split('\n');
    expect(line).toBe("crm: unknown command 'contcts' (Did you mean contacts?)");
    expect(JSON.parse(json!).error.message).toBe("unknown command 'contcts' (Did you mean contacts?)");
  });
});

describe('an unknown command or option with no near name says what to do', () => {
  it.each([
    [['contacts', 'show', 'con_1'], "unknown command 'show'", 'did you mean `crm contacts view`?'],
    [['tasks', 'show', 'task_1'], "unknown command 'show'", 'did you mean `crm tasks view`?'],
    [['contacts', 'add', '--name', 'Ada'], "unknown command 'add'", 'did you mean `crm contacts create`?'],
    [['deals', 'move', 'deal_1', 'won'], "unknown command 'move'", 'did you mean `crm deals stage`?'],
    [['login'], "unknown command 'login'", 'did you mean `crm auth login`?'],
    [['whoami'], "unknown command 'whoami'", 'did you mean `crm auth status`?'],
    [['version'], "unknown command 'version'", '`crm --version` prints the version'],
    [['-v'], "unknown option '-v'", '`crm --version` prints the version'],
    [['opportunities', 'list'], "unknown command 'opportunities'", '`crm --help` lists the commands'],
    [['profiles', 'show'], "unknown command 'show'", '`crm profiles --help` lists the commands'],
    [['--profile', 'x', 'contacts', 'notes', 'edit'], "unknown command 'edit'", '`crm contacts notes --help` lists the commands'],
    [['contacts', 'list', '-s', 'lead'], "unknown option '-s'", '`crm contacts list --help` lists its flags, `crm help flags` the global ones'],
    [['--bogus'], "unknown option '--bogus'", '`crm help flags` lists the global flags'],
  ])('%j: exit 2, one line naming it, a hint with the way out, nothing sent', async (argv, message, hint) => {
    const result = await run([...argv], { ws });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`crm: ${message}\nhint: ${hint}\n`);
    expect(ws.requests()).toEqual([]);
  });
});

describe('gh habits (--json a,b: test/commands/jq.test.ts)', () => {
  it('other excess arguments keep commander\'s message', async () => {
    const result = await run(['tasks', 'list', '--overdue', 'yes'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("crm: too many arguments for 'list'. Expected 0 arguments but got 1.\n");
  });
});
