// Help pages and topics. Each command's page shows its own flags, the examples the registry keeps
// beside it, and one line pointing at the global flags, which are described once: in `crm --help`
// and `crm help flags`. The topics (environment, exit codes, output, flags) are rendered from the
// registry's descriptions, as the README's tables are.

import { Command, Help } from 'commander';
import { ENVIRONMENT, EXIT_CODES, FORMAT_DESCRIPTIONS, GLOBAL_OPTIONS, HELP_FLAG, HELP_TOPICS, OUTPUT_FORMATS, VERSION_FLAG } from './registry/global.js';
import { PAGE_MAX } from './registry/service.js';
import { flagName, staticValues, type Example, type FieldSpec } from './registry/types.js';

/** A command of the tree, with the examples shown on its help page. */
export class CrmCommand extends Command {
  examples: readonly Example[] = [];

  override createCommand(name?: string): Command {
    return new CrmCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new CrmHelp(), this.configureHelp());
  }

  /** Help goes to stdout and exits 0, also for a group called without its subcommand (`crm contacts`). */
  override help(): never {
    return super.help();
  }
}

const POINTER = 'Global flags (--json, -o, --fields, -q, --profile, --dry-run, ...): crm help flags';
const SANDBOX_NOTE = 'With nothing configured, crm uses a local sandbox workspace with demo data (crm sandbox --help).';

class CrmHelp extends Help {
  override formatHelp(cmd: Command, helper: Help): string {
    const sections = [super.formatHelp(cmd, helper).trimEnd()];
    if (!cmd.parent) {
      sections.push(formatList('Help topics:', HELP_TOPICS.map((name) => [`crm help ${name}`, TOPICS[name].summary]), helper.helpWidth));
    }
    const examples = examplesOf(cmd);
    if (examples.length > 0) sections.push(formatExamples(examples));
    sections.push(cmd.parent ? POINTER : SANDBOX_NOTE);
    return `${sections.join('\n\n')}\n`;
  }
}

/** A command's own examples; a group's are the first of each of its commands. */
function examplesOf(cmd: Command): readonly Example[] {
  const own = cmd instanceof CrmCommand ? cmd.examples : [];
  if (own.length > 0 || !cmd.parent) return own;
  return cmd.commands.flatMap((child) => (child instanceof CrmCommand ? child.examples.slice(0, 1) : []));
}

function formatExamples(examples: readonly Example[]): string {
  return ['Examples:', ...examples.map((example) => `  # ${example.description}\n  $ ${example.command}`)].join('\n');
}

/** Two columns, the second wrapped to the width, as commander lays out options. */
function formatList(heading: string, rows: ReadonlyArray<readonly [string, string]>, width = 80): string {
  const helper = new Help();
  helper.prepareContext({ helpWidth: width });
  const termWidth = Math.max(...rows.map(([term]) => term.length));
  return [heading, ...rows.map(([term, description]) => helper.formatItem(term, termWidth, description, helper))].join('\n');
}

/** How a flag is spelt in help: `-o, --output <format>`. */
export function optionTerm(field: FieldSpec): string {
  const value = field.type === 'boolean' ? '' : ` <${field.placeholder ?? PLACEHOLDERS[field.type] ?? 'value'}>`;
  return `${field.short ? `-${field.short}, ` : ''}--${flagName(field)}${value}`;
}

const PLACEHOLDERS: Partial<Record<FieldSpec['type'], string>> = { integer: 'n', number: 'n', date: 'date', file: 'file', duration: 'duration', email: 'email', id: 'id', ids: 'ids', list: 'list', json: 'json' };

/** The description, with the values a field takes when they are known. */
export function describe(field: FieldSpec): string {
  const values = staticValues(field);
  return values ? `${field.description}: ${values.join(', ')}` : field.description;
}

interface Topic {
  summary: string;
  render(width: number): string;
}

export const TOPICS: Readonly<Record<(typeof HELP_TOPICS)[number], Topic>> = {
  environment: {
    summary: 'environment variables crm reads',
    render: (width) =>
      [
        formatList('Environment variables (a flag wins over them; they win over the stored profile):', ENVIRONMENT.map((variable) => [variable.name, variable.description]), width),
        'With no profile and no CRM_* variables, crm uses the local sandbox workspace.',
      ].join('\n\n'),
  },
  'exit-codes': {
    summary: 'what each exit code means',
    render: (width) => formatList('Exit codes:', EXIT_CODES.map((exit) => [String(exit.code), exit.meaning]), width),
  },
  output: {
    summary: 'output formats, --fields, --jq, -q, paging, colour',
    render: (width) =>
      [
        formatList('Output formats (-o FORMAT, or --json; a default from CRM_OUTPUT or `crm config set output`):', OUTPUT_FORMATS.map((format) => [format, FORMAT_DESCRIPTIONS[format]]), width),
        [
          'stdout carries data only; messages, prompts and spinners go to stderr.',
          '--fields a,b,c keeps those fields, in this order (dotted paths reach into nested objects);',
          '  a name the command does not print is exit 2, naming the fields it does. --json a,b is the same.',
          "--jq EXPR filters what --json prints with jq 1.8 (jq's own engine): --jq '.[] | .email'.",
          '  Each result on a line: a string as its text, anything else as JSON. A list is one array',
          '  (--all reads it whole first); with -o ndjson each record is filtered on its own, as it arrives.',
          '  An expression jq cannot compile is exit 2 before anything is sent; one that fails on the data, exit 1.',
          '-q prints only ids, one a line (list, create): ready for xargs or a - argument.',
          `Lists: --limit N (-L) returns at most N records in all, fetched ${PAGE_MAX} a request;`,
          '  --all walks every page, streamed; a table shows where the page sits on stderr.',
          '  A record there for the whole walk is printed once while others are created and deleted,',
          '  up to 3 a request; beyond that the walk stops with exit 1, never a silent gap.',
          'Colour only on a terminal (JSON too): NO_COLOR or --no-color turn it off, FORCE_COLOR forces it (JSON into a pipe stays plain).',
          'A failure prints `crm: <message>` (and `hint: ...`) on stderr; with JSON output (--json,',
          '  -o json, CRM_OUTPUT=json) also {"error": {"message", "status", "code", "exit_code"}}.',
        ].join('\n'),
      ].join('\n\n'),
  },
  flags: {
    summary: 'global flags, taken by every command',
    render: (width) =>
      [
        formatList('Global flags (every command takes them, before or after its name):', [...GLOBAL_OPTIONS, HELP_FLAG, VERSION_FLAG].map((field) => [optionTerm(field), describe(field)] as const), width),
        'Precedence: flag > environment > active profile.',
      ].join('\n\n'),
  },
};

