// The README is the front door: its quick start works on a fresh install, the ids it shows exist in
// every fresh sandbox, and its tables of flags, variables and exit codes say what the registry says.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { ENVIRONMENT, EXIT_CODES, GLOBAL_OPTIONS, HELP_TOPICS, OUTPUT_FORMATS } from '../../src/registry/global.js';
import { COMMANDS } from '../../src/commands/index.js';
import { DEMO } from '../../src/registry/demo.js';
import { GROUP_NAMES, flagName } from '../../src/registry/types.js';
import { parseCommandLine, runPipeline } from '../helpers/examples.js';
import { BASE_URL, homeEnv, openWorkspace } from '../helpers/inprocess.js';
import { LOCAL_COMMANDS, ENDPOINT_COMMANDS } from '../helpers/tree.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The body of the section under this heading. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/**
 * The rows of the first table with this header in TEXT, as cells (a `\\|` inside a cell is not a
 * separator); every row must have as many cells as the header.
 */
function table(text: string, header: string[]): string[][] {
  const cells = (line: string) => line.slice(1, line.endsWith('|') ? -1 : undefined).split(/(?<!\\)\|/).map((cell) => cell.trim());
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|') && JSON.stringify(cells(line)) === JSON.stringify(header));
  expect(start, `a table | ${header.join(' | ')} |`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const row = cells(line);
    expect(row, `${line}: ${header.length} cells`).toHaveLength(header.length);
    rows.push(row);
  }
  return rows;
}

/** The `code spans` of a cell. */
function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** Lines of ```sh blocks that run crm, without their comments. */
function crmLines(text: string): string[] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.flatMap((block) => block.split('\n')).map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line.startsWith('crm '));
}

describe('README', () => {
  it.each(crmLines(section('Quick start').split('\n### ')[0]!))('quick start: %s works on a fresh install', async (line) => {
    const ws = await openWorkspace();
    try {
      const outcome = await runPipeline(parseCommandLine(line), ws);
      expect(outcome.code, outcome.stderr).toBe(0);
    } finally {
      ws.close();
    }
  });

  // Blocks a reader runs as they stand, line after line, on a fresh install: each line must work
  // after the ones before it (a block that moved every proposal deal and then listed the proposal
  // deals read an empty stdin: exit 2).
  it.each([
    ['many records at once', readme.slice(readme.indexOf('<a id="many-records-at-once">'), readme.indexOf('<a id="many-records-at-once">') + 2000)],
    ['the day at a glance', section('Commands').split('\n### ').find((part) => part.startsWith('The day at a glance'))!],
    ['a record whole', section('Commands').split('\n### ').find((part) => part.startsWith('A record whole'))!],
  ])('%s: its first block works line after line on one fresh sandbox', async (_, text) => {
    const block = /```sh\n([\s\S]*?)```/.exec(text)![0];
    const ws = await openWorkspace();
    try {
      for (const line of crmLines(block)) {
        const outcome = await runPipeline(parseCommandLine(line), ws);
        expect(outcome.code, `${line}: ${outcome.stderr}`).toBe(0);
      }
    } finally {
      ws.close();
    }
  });

  it('runs crm only with ids that exist in a fresh sandbox', () => {
    // Record ids have digits (deal_risk, a suggestion type, does not).
    const ids = crmLines(readme).flatMap((line) => [...line.matchAll(/\b(?:con|acc|deal|seq|task|sug|note)_(?=[a-z]*\d)[a-z0-9]+\b/g)].map((match) => match[0]));
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(Object.values(DEMO), id).toContain(id);
  });

  it('installs crm globally before using it, on the Node versions package.json allows, and names the build tools of the SQLite binding', () => {
    const install = section('Install');
    expect(install).toContain('npm install -g crm-cli-');
    const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(install).toContain(`(\`${engines.node}\``);
    for (const tool of ['python3', 'make', 'g++']) expect(install).toContain(tool);
    expect(readme.indexOf('npm install -g')).toBeLessThan(readme.indexOf('\n## Quick start'));
  });

  it('has a global flags table of three cells a row: every flag of the registry once (with its short form), every variable one crm reads', () => {
    const rows = table(section('Global flags'), ['flag', 'env', 'meaning']);
    const flags = rows.map(([flag]) => flag!).filter((flag) => flag !== '');
    expect(flags.map((flag) => /--([a-z-]+)/.exec(flag)?.[1]).sort()).toEqual(GLOBAL_OPTIONS.map((field) => flagName(field)).sort());
    for (const field of GLOBAL_OPTIONS.filter((option) => option.short)) expect(flags).toContainEqual(expect.stringContaining(`-${field.short}, --${flagName(field)}`));
    const variables = rows.flatMap(([, env]) => codeSpans(env!).map((name) => name.replace(/=.*$/, '')));
    for (const name of variables) expect(ENVIRONMENT.map((variable) => variable.name)).toContain(name);
    for (const [flag, env] of rows) if (flag === '') expect(codeSpans(env!), 'a row without a flag names a variable').toHaveLength(1);
  });

  it('has an environment table naming each variable of the registry once, and an exit code table with each code once', () => {
    const variables = table(section('Environment variables'), ['variable', 'meaning']).flatMap(([names]) => codeSpans(names!));
    expect(variables.sort()).toEqual(ENVIRONMENT.map((variable) => variable.name).sort());
    const codes = table(section('Exit codes'), ['code', 'meaning']).map(([code]) => Number(code));
    expect(codes).toEqual(EXIT_CODES.map((exit) => exit.code));
  });

  it('names every command of the tree in its commands table', () => {
    // A row's command is the words of each code span up to the first argument: `crm a\|b c\|d ID` is a c, a d, b c and b d.
    const documented = table(section('Commands'), ['command', 'what it does']).flatMap(([cell]) => codeSpans(cell!)).flatMap((span) => {
      const words = span.split(' ').slice(1);
      const end = words.findIndex((word) => !/^[a-z][a-z-]*(\\\|[a-z][a-z-]*)*$/.test(word));
      return (end < 0 ? words : words.slice(0, end)).reduce<string[][]>((lines, word) => lines.flatMap((line) => word.split('\\|').map((choice) => [...line, choice])), [[]]).map((line) => line.join(' '));
    });
    const missing = COMMANDS.map((command) => command.command.join(' ')).filter((words) => !documented.some((line) => line === words || line.startsWith(`${words} `)));
    expect(missing).toEqual([]);
  });

  it('names in its environment table every variable src/ reads', () => {
    const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
    const read = new Set<string>();
    for (const file of sources(new URL('../../src', import.meta.url).pathname)) {
      const text = readFileSync(file, 'utf8');
      // env.NAME, env['NAME'], and the names handed to a helper that reads them (xdg(env, 'XDG_DATA_HOME')).
      for (const match of text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]*)\b|\benv\[['"]([A-Za-z_][A-Za-z0-9_]*)['"]\]|\(env, '([A-Z][A-Z0-9_]*)'\)/g)) read.add(match[1] ?? match[2] ?? match[3]!);
    }
    expect(read.size).toBeGreaterThan(20);
    const documented = section('Environment variables');
    const unnamed = [...read].filter((name) => !new RegExp(`[\`$%]${name}\\b`).test(documented));
    expect(unnamed).toEqual([]);
  });

  it('has tables of help topics, output formats, watch flags, mcp flags and tool groups as the registry has them', () => {
    expect(table(section('Help'), ['topic', 'what it says']).map(([topic]) => topic)).toEqual(HELP_TOPICS.map((topic) => `\`crm help ${topic}\``));
    expect(table(section('Output'), ['format', 'when', 'shape']).map(([format]) => format).sort()).toEqual(OUTPUT_FORMATS.map((format) => `\`${format}\``).sort());
    const watch = LOCAL_COMMANDS.find((command) => command.name === 'watch')!;
    expect(table(section('Scripting at scale').split('\n### ')[1]!, ['flag', 'meaning']).map(([flag]) => /--([a-z-]+)/.exec(flag!)?.[1])).toEqual(watch.options.map((option) => flagName(option)));
    const agents = section('AI agents: `crm mcp`');
    const mcp = LOCAL_COMMANDS.find((command) => command.name === 'mcp')!;
    expect(table(agents, ['flag', 'effect']).map(([flag]) => /--([a-z-]+)/.exec(flag!)?.[1])).toEqual(mcp.options.map((option) => flagName(option)));
    // Each tool once, in a row that names its group; every group in a row.
    const groups = table(agents, ['group', 'tools']).map(([names, tools]) => ({ names: names!.split(', '), tools: codeSpans(tools!) }));
    expect(groups.flatMap((row) => row.names)).toEqual([...GROUP_NAMES]);
    expect(groups.flatMap((row) => row.tools).sort()).toEqual(ENDPOINT_COMMANDS.map((op) => op.name).sort());
    for (const row of groups) for (const tool of row.tools) expect(row.names, tool).toContain(ENDPOINT_COMMANDS.find((op) => op.name === tool)!.group);
  });

  it('shows the paging footer under a table, as it says: stderr comes after the rows on a terminal', async () => {
    expect(readme).toContain('Under a table, stderr\nsays which records these are');
    const ws = await openWorkspace();
    try {
      const order: string[] = [];
      const stream = (name: string) => ({ write: (text: string) => order.push(`${name}:${text}`), isTTY: true, columns: 200 });
      const code = await main(['contacts', 'list', '--limit', '2', '--no-color'], { env: { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey }, stdout: stream('out'), stderr: stream('err'), transport: ws.transport });
      expect(code).toBe(0);
      expect(order.at(-1)).toMatch(/^err:Showing 1-2 of \d+ contacts; more with --offset 2, or --all\.\n$/);
      expect(order.slice(0, -1).every((line) => line.startsWith('out:'))).toBe(true);
    } finally {
      ws.close();
    }
  });

  it('says --limit is a total', () => {
    expect(readme).toContain('`--limit N` (`-L N`) returns at most N\nrecords in all');
  });
});
