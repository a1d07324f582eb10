// crm config get KEY | set KEY VALUE | list: settings of the active profile.

import type { Context } from '../cli/context.js';
import { usageError } from '../cli/errors.js';
import { parseFormat } from '../cli/output.js';
import { SANDBOX_PROFILE, updateConfig, type Profile } from '../config/store.js';
import { activeProfileName } from '../config/resolve.js';
import { maskKey } from '../http/redact.js';
import { normalizeBaseUrl } from '../http/url.js';
import type { LocalHandler } from './local.js';

interface Setting {
  description: string;
  /** Validates and normalises a value for `config set`; absent for read-only settings. */
  parse?: (value: string) => Profile[keyof Profile];
  show?: (value: unknown) => unknown;
}

const SETTINGS: Record<keyof Profile, Setting> = {
  base_url: { description: 'the workspace base URL', parse: normalizeBaseUrl },
  output: { description: 'default output format', parse: (value) => parseFormat(value, 'output') },
  timeout: {
    description: 'per-request timeout in seconds',
    parse: (value) => {
      const seconds = Number(value);
      if (!Number.isFinite(seconds) || seconds <= 0) throw usageError(`invalid timeout "${value}" (expected seconds > 0)`);
      return seconds;
    },
  },
  api_key: { description: 'the API key (set it with `crm auth login`)', show: (value) => (typeof value === 'string' ? maskKey(value) : value) },
};

function settingOf(key: string): [keyof Profile, Setting] {
  if (!(key in SETTINGS)) throw usageError(`unknown setting "${key}" (expected one of: ${Object.keys(SETTINGS).join(', ')})`);
  return [key as keyof Profile, SETTINGS[key as keyof Profile]];
}

function profileOf(ctx: Context): string {
  return activeProfileName({ profile: ctx.options.profile }, ctx.env, ctx.config());
}

export const get: LocalHandler = async (ctx, { args }) => {
  const [key, setting] = settingOf(String(args[0]));
  const value = ctx.config().profiles[profileOf(ctx)]?.[key];
  if (value === undefined) return;
  const shown = setting.show ? setting.show(value) : value;
  // The bare value, as `git config` prints it, so that $(crm config get KEY) works; JSON with --json.
  if (ctx.options.json) ctx.io.stdout.write(`${JSON.stringify(shown)}\n`);
  else ctx.io.stdout.write(`${String(shown)}\n`);
};

export const set: LocalHandler = async (ctx, { args }) => {
  const [key, setting] = settingOf(String(args[0]));
  if (!setting.parse) throw usageError(`${key} cannot be set here`, 'run `crm auth login`');
  const profile = profileOf(ctx);
  if (profile === SANDBOX_PROFILE && key === 'base_url') {
    throw usageError('the sandbox profile has no base URL', 'connect a workspace with `crm auth login --base-url URL`');
  }
  const value = setting.parse(String(args[1]));
  await updateConfig(ctx.env, (data) => {
    data.profiles[profile] = { ...data.profiles[profile], [key]: value };
  });
  ctx.info(`✓ ${key} = ${String(value)} (profile ${profile})`);
};

export const list: LocalHandler = async (ctx) => {
  const profile = profileOf(ctx);
  const stored = ctx.config().profiles[profile] ?? {};
  const rows = (Object.keys(SETTINGS) as Array<keyof Profile>).map((key) => {
    const value = stored[key];
    return { key, value: value === undefined ? null : SETTINGS[key].show ? SETTINGS[key].show!(value) : value, description: SETTINGS[key].description };
  });
  await ctx.printer.records(rows, { columns: ['key', 'value', 'description'] });
};
