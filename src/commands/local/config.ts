// crm config get KEY | set KEY VALUE | unset KEY | list: settings of the active profile.

import type { Context } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { parseChoice } from '../../cli/input.js';
import { FORMATS } from '../../cli/printer.js';
import { done, list, type Result } from '../../cli/result.js';
import { SANDBOX_PROFILE, profileOf, updateConfig, type Profile } from '../../config/store.js';
import { activeProfileName } from '../../config/resolve.js';
import { maskKey } from '../../http/redact.js';
import { normalizeBaseUrl } from '../../http/url.js';
import type { LocalHandler } from './types.js';

interface Setting {
  description: string;
  /** Checks and normalises a value for `config set`; absent for read-only settings. */
  parse?: (value: string) => Profile[keyof Profile];
  show?: (value: unknown) => unknown;
}

const SETTINGS: Record<keyof Profile, Setting> = {
  base_url: { description: 'the workspace base URL', parse: normalizeBaseUrl },
  output: { description: 'default output format', parse: (value) => parseChoice(value, FORMATS, 'output') },
  timeout: {
    description: 'per-request timeout in seconds',
    parse: (value) => {
      const seconds = Number(value);
      if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) throw usageError(`invalid timeout "${value}" (expected seconds, more than 0 and at most 86400)`);
      return seconds;
    },
  },
  api_key: { description: 'the API key (set it with `crm auth login`)', show: (value) => (typeof value === 'string' ? maskKey(value) : value) },
};

function settingOf(key: string): [keyof Profile, Setting] {
  if (!Object.hasOwn(SETTINGS, key)) throw usageError(`unknown setting "${key}" (expected one of: ${Object.keys(SETTINGS).join(', ')})`);
  return [key as keyof Profile, SETTINGS[key as keyof Profile]];
}

function profileName(ctx: Context): string {
  return activeProfileName({ profile: ctx.options.profile }, ctx.env, ctx.config());
}

export const get: LocalHandler = async (ctx, { args }) => {
  const [key] = settingOf(args.string('key')!);
  // The bare value, as `git config` prints it, so that $(crm config get KEY) works; JSON with --json.
  return { kind: 'value', value: shown(key, profileOf(ctx.config(), profileName(ctx))?.[key]) };
};

/** A setting's value as it may be shown (the key masked). */
function shown(key: keyof Profile, value: Profile[keyof Profile] | undefined): unknown {
  const show = SETTINGS[key].show;
  return value === undefined || !show ? value : show(value);
}

async function change(ctx: Context, key: keyof Profile, value: Profile[keyof Profile] | undefined, message: string): Promise<Result> {
  const profile = profileName(ctx);
  if (profile === SANDBOX_PROFILE && key === 'base_url') {
    throw usageError('the sandbox profile has no base URL', 'connect a workspace with `crm auth login --base-url URL`');
  }
  if (ctx.dryRun) return done(`Dry run: not saved: ${message} (profile ${profile})`);
  await updateConfig(ctx.env, (data) => {
    const entry = { ...profileOf(data, profile) };
    if (value === undefined) delete entry[key];
    else Object.defineProperty(entry, key, { value, enumerable: true, writable: true, configurable: true });
    data.profiles[profile] = entry;
  });
  return done(`${message} (profile ${profile})`, { profile, key, value: value ?? null });
}

export const set: LocalHandler = async (ctx, { args }) => {
  const [key, setting] = settingOf(args.string('key')!);
  if (!setting.parse) throw usageError(`${key} cannot be set here`, 'run `crm auth login`');
  const value = setting.parse(args.string('value')!);
  return change(ctx, key, value, `✓ ${key} = ${String(value)}`);
};

export const unset: LocalHandler = async (ctx, { args }) => {
  const [key, setting] = settingOf(args.string('key')!);
  if (!setting.parse) throw usageError(`${key} cannot be unset here`, 'run `crm auth logout`');
  return change(ctx, key, undefined, `✓ ${key} unset`);
};

export const listSettings: LocalHandler = async (ctx) => {
  const stored = profileOf(ctx.config(), profileName(ctx)) ?? {};
  const rows = (Object.keys(SETTINGS) as Array<keyof Profile>).map((key) => {
    return { key, value: shown(key, stored[key]) ?? null, description: SETTINGS[key].description };
  });
  return list(rows, { columns: ['key', 'value', 'description'], noun: 'settings' });
};
