// The settings provider of a command's Context: the stored configuration, the workspace it points
// at, the output settings and the request timeout, each resolved on first use from the flags, the
// environment and the profile (a flag wins over the environment, which wins over the profile).
// Reading them has no other effect: nothing is written, nothing is sent.

import { readConfig, type ConfigData } from '../config/store.js';
import { resolveTarget, type Target } from '../config/resolve.js';
import { TIMEOUT_DEFAULT_SECONDS } from '../registry/global.js';
import { usageError } from './errors.js';
import { checkName, parseChoice, parseTimeout } from './input.js';
import { FORMATS, type Format } from './printer.js';

export interface GlobalOptions {
  json?: boolean;
  output?: string;
  fields?: string;
  jq?: string;
  escapeFormulas?: boolean;
  quiet?: boolean;
  profile?: string;
  baseUrl?: string;
  /** commander's --no-input sets input: false */
  input?: boolean;
  color?: boolean;
  debug?: boolean;
  dryRun?: boolean;
  timeout?: string;
  insecure?: boolean;
  wait?: boolean;
}

/** The output settings, resolved and checked before a command runs. */
interface OutputSettings {
  format: Format;
  fields?: string[];
  /** --jq: the expression that filters what the JSON format would print (checked by ./jq.ts before anything is sent). */
  jq?: string;
  quiet: boolean;
  /** JSON was asked for (--json, -o json, CRM_OUTPUT, the profile): failures print the JSON error object too. */
  jsonErrors: boolean;
}

/** What a command's definition says about its output, for the format's resolution. */
export interface OutputDefaults {
  ignoreProfileSetting?: boolean;
  defaultFormat?: Format;
  pipeFormat?: Format;
}

/**
 * Whether a failure of the command line itself (an unknown option, a misspelt command, found before a
 * command's options are read) prints the JSON error object because JSON was asked for: by a flag,
 * CRM_OUTPUT or the profile's output setting, as for every other failure. A configuration that
 * cannot be read asks for nothing.
 */
export function jsonErrorsAsked(options: GlobalOptions, env: NodeJS.ProcessEnv): boolean {
  try {
    return new Settings(options, env, false).output().jsonErrors;
  } catch {
    return false;
  }
}

export class Settings {
  private cachedConfig?: ConfigData;
  private cachedTarget?: Target;
  private cachedOutput?: OutputSettings;

  constructor(
    private readonly options: GlobalOptions,
    private readonly env: NodeJS.ProcessEnv,
    private readonly stdoutIsTTY: boolean,
  ) {}

  config(): ConfigData {
    return (this.cachedConfig ??= readConfig(this.env));
  }

  target(): Target {
    return (this.cachedTarget ??= resolveTarget({ profile: this.options.profile, baseUrl: this.options.baseUrl }, this.env, this.config()));
  }

  /**
   * Format, fields and quiet, from the flags, CRM_OUTPUT and the profile's setting. Checked before
   * anything is sent: a bad value is exit 2 naming where it came from.
   */
  output(defaults: OutputDefaults = {}): OutputSettings {
    if (this.cachedOutput) return this.cachedOutput;
    const { format, asked } = this.resolveFormat(defaults);
    let fields: string[] | undefined;
    if (this.options.fields !== undefined) {
      fields = this.options.fields.split(',').map((field) => field.trim());
      if (fields.every((field) => field === '')) throw usageError('--fields needs at least one field name', 'for example --fields id,name');
      for (const field of fields) checkName(field, '--fields');
    }
    const jq = this.options.jq;
    if (jq !== undefined) {
      if (jq.trim() === '') throw usageError('--jq needs an expression', "for example --jq '.[].id'");
      if (this.options.quiet) throw usageError('--jq and -q cannot be used together', "-q prints ids; --jq '.[].id' does too");
    }
    return (this.cachedOutput = { format, fields, jq, quiet: Boolean(this.options.quiet), jsonErrors: asked && format === 'json' });
  }

  /** The format, and whether it was asked for (a flag, CRM_OUTPUT, the profile) rather than a default. */
  private resolveFormat({ ignoreProfileSetting, defaultFormat, pipeFormat = 'tsv' }: OutputDefaults): { format: Format; asked: boolean } {
    const parse = (value: string, source: string) => ({ format: parseChoice(value, FORMATS, source) as Format, asked: true });
    if (this.options.jq !== undefined) return this.jqFormat(defaultFormat, pipeFormat);
    if (this.options.output !== undefined) {
      const chosen = parse(this.options.output, '--output');
      if (this.options.json && chosen.format !== 'json') throw usageError(`--json and --output ${chosen.format} ask for different formats`);
      return chosen;
    }
    if (this.options.json) return { format: 'json', asked: true };
    if (defaultFormat) return { format: defaultFormat, asked: false };
    if (this.env.CRM_OUTPUT) return parse(this.env.CRM_OUTPUT, 'CRM_OUTPUT');
    if (!ignoreProfileSetting) {
      const configured = this.profileSettings()?.output;
      if (configured !== undefined) return parse(String(configured), 'output setting of the profile (`crm config unset output`)');
    }
    return { format: this.stdoutIsTTY ? 'table' : pipeFormat, asked: false };
  }

  /**
   * --jq filters JSON: the JSON format (a list is one array), or NDJSON (each record an input of its own)
   * when -o ndjson asks for it or the command streams NDJSON (crm watch, contacts export --format
   * ndjson). Other formats cannot be filtered; CRM_OUTPUT and the profile's setting do not apply.
   */
  private jqFormat(defaultFormat: Format | undefined, pipeFormat: Format): { format: Format; asked: boolean } {
    const asked = this.options.output === undefined ? undefined : (parseChoice(this.options.output, FORMATS, '--output') as Format);
    if (asked !== undefined && asked !== 'json' && asked !== 'ndjson') throw usageError(`--jq filters JSON: it cannot be used with --output ${asked}`, 'leave out --output, or use -o ndjson to filter each record on its own');
    if (this.options.json && asked === 'ndjson') throw usageError('--json and --output ndjson ask for different formats');
    const ndjson = asked === 'ndjson' || (asked === undefined && (defaultFormat === 'ndjson' || pipeFormat === 'ndjson'));
    return { format: ndjson ? 'ndjson' : 'json', asked: Boolean(this.options.json) || asked === 'json' };
  }

  /** Whether a failure prints the JSON error object too; when the output settings were refused, from the flags and CRM_OUTPUT. */
  jsonErrors(): boolean {
    try {
      return this.output().jsonErrors;
    } catch {
      return Boolean(this.options.json) || [this.options.output, this.env.CRM_OUTPUT].some((value) => value?.trim().toLowerCase() === 'json');
    }
  }

  /**
   * --profile '' and --base-url '' (an unset variable in a script: crm --profile "$P") were read as
   * not given, and the command went to the active profile's workspace: refused, as -o '' is.
   */
  checkWorkspaceFlags(): void {
    for (const [flag, value] of [['--profile', this.options.profile], ['--base-url', this.options.baseUrl]] as const) {
      if (value !== undefined && !value.trim()) throw usageError(`${flag} is empty`, `leave ${flag} out to use the active profile (\`crm auth status\` says which)`);
    }
  }

  /** --timeout, else the profile's, else the default; checked (exit 2 when out of bounds). */
  timeoutMs(): number {
    const flag = this.options.timeout;
    const raw = flag ?? this.profileSettings()?.timeout;
    const source = flag === undefined ? 'timeout setting of the profile (`crm config unset timeout`)' : '--timeout';
    return Math.round((raw === undefined ? TIMEOUT_DEFAULT_SECONDS : parseTimeout(String(raw), source)) * 1000);
  }

  /** The profile's settings, or none when the configuration cannot be read (its own command says why). */
  private profileSettings() {
    try {
      return this.target().settings;
    } catch {
      return undefined;
    }
  }
}
