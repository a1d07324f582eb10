// The settings of a profile that crm config reads and changes: how each is checked and shown.

import type { Context } from '../../cli/context.js';
import type { GlobalOptions } from '../../cli/settings.js';
import { usageError } from '../../cli/errors.js';
import { parseChoice, parseTimeout } from '../../cli/input.js';
import { FORMATS } from '../../cli/printer.js';
import { done, type Result } from '../../cli/result.js';
import { SANDBOX_PROFILE, profileOf, updateConfig, type Profile } from '../../config/store.js';
import { activeProfileName } from '../../config/resolve.js';
import { maskKey } from '../../http/redact.js';
import { normalizeBaseUrl } from '../../http/url.js';
import type { SETTING_NAMES } from '../../registry/local.js';

interface Setting {
  description: string;
  /** What overrides the profile's value for a command: its flag (not `config list`'s own output flags), its variable. */
  flag?: (options: GlobalOptions) => string | undefined;
  env?: string;
  /** Checks and normalises a value for `config set`; absent for read-only settings. */
  parse?: (value: string) => Profile[keyof Profile];
  show?: (value: unknown) => unknown;
}

/** One entry for each of the registry's SETTING_NAMES. */
export const SETTINGS: Record<(typeof SETTING_NAMES)[number], Setting> = {
  base_url: { description: 'the workspace base URL', parse: normalizeBaseUrl, flag: (options) => options.baseUrl, env: 'CRM_BASE_URL' },
  output: { description: 'default output format', parse: (value) => parseChoice(value, FORMATS, 'output'), env: 'CRM_OUTPUT' },
  timeout: {
    description: 'per-request timeout in seconds',
    parse: (value) => parseTimeout(value, 'timeout'),
    flag: (options) => options.timeout,
  },
  api_key: { description: 'the API key (set it with `crm auth login`)', show: (value) => (typeof value === 'string' ? maskKey(value) : value), env: 'CRM_API_KEY' },
};

export function settingOf(key: string): [keyof Profile, Setting] {
  if (!Object.hasOwn(SETTINGS, key)) throw usageError(`unknown setting "${key}" (expected one of: ${Object.keys(SETTINGS).join(', ')})`);
  return [key as keyof Profile, SETTINGS[key as keyof Profile]];
}

export function profileName(ctx: Context): string {
  return activeProfileName({ profile: ctx.options.profile }, ctx.env, ctx.config());
}

/**
 * The value a command given these flags and this environment uses, and where it came from: `flag`,
 * `env`, `profile`, or `default` (none of them: crm's default).
 */
export function inEffect(ctx: Context, key: keyof Profile, stored: Profile[keyof Profile] | undefined): { value: unknown; source: 'flag' | 'env' | 'profile' | 'default' } {
  const setting = SETTINGS[key];
  const flag = setting.flag?.(ctx.options);
  if (flag !== undefined && flag !== '') return { value: shown(key, flag), source: 'flag' };
  const env = setting.env && ctx.env[setting.env];
  if (env) return { value: shown(key, env), source: 'env' };
  return stored === undefined ? { value: null, source: 'default' } : { value: shown(key, stored), source: 'profile' };
}

/** A setting's value as it may be shown (the key masked). */
export function shown(key: keyof Profile, value: Profile[keyof Profile] | undefined): unknown {
  const show = SETTINGS[key].show;
  return value === undefined || !show ? value : show(value);
}

export async function change(ctx: Context, key: keyof Profile, value: Profile[keyof Profile] | undefined, message: string): Promise<Result> {
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
