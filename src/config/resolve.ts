// Which workspace a command talks to, and with which key. Precedence: flag > environment > profile.
// With nothing configured at all, the answer is the embedded local sandbox.

import { normalizeBaseUrl } from '../http/url.js';
import { ConfigError, DEFAULT_PROFILE, SANDBOX_PROFILE, profileOf, type ConfigData, type Profile } from './store.js';

export interface TargetFlags {
  profile?: string;
  baseUrl?: string;
}

/** Where the profile's name came from: --profile, CRM_PROFILE, config.json's active profile, or none of them. */
type ProfileSource = 'flag' | 'env' | 'config' | 'default';

export type Target =
  | { kind: 'sandbox'; profile: string; profileSource: ProfileSource; settings: Profile }
  | {
      kind: 'remote';
      profile: string;
      profileSource: ProfileSource;
      baseUrl: string;
      baseUrlSource: 'flag' | 'env' | 'profile';
      apiKey: string | undefined;
      keySource: 'env' | 'profile' | 'none';
      settings: Profile;
    };

export function activeProfileName(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigData): string {
  return chooseProfile(flags, env, config).name;
}

function chooseProfile(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigData): { name: string; source: ProfileSource } {
  const explicit = flags.profile || env.CRM_PROFILE;
  if (explicit) {
    if (explicit !== SANDBOX_PROFILE && !profileOf(config, explicit)) {
      throw new ConfigError(`unknown profile "${explicit}"`, 'list them with `crm profiles list`', true);
    }
    return { name: explicit, source: flags.profile ? 'flag' : 'env' };
  }
  const active = config.active_profile;
  if (typeof active === 'string' && (active === SANDBOX_PROFILE || profileOf(config, active))) return { name: active, source: 'config' };
  return { name: profileOf(config, DEFAULT_PROFILE) ? DEFAULT_PROFILE : SANDBOX_PROFILE, source: 'default' };
}

export function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigData): Target {
  const { name: profile, source: profileSource } = chooseProfile(flags, env, config);
  const settings = profileOf(config, profile) ?? {};
  const baseUrlSource = flags.baseUrl ? 'flag' : env.CRM_BASE_URL ? 'env' : 'profile';
  const baseUrlInput = flags.baseUrl || env.CRM_BASE_URL || settings.base_url;
  const envKey = env.CRM_API_KEY || undefined;
  if (!baseUrlInput) {
    if (envKey) throw new ConfigError('CRM_API_KEY is set but no base URL is configured', 'set CRM_BASE_URL or pass --base-url', true);
    return { kind: 'sandbox', profile, profileSource, settings };
  }
  const baseUrl = normalizeBaseUrl(baseUrlInput);
  if (baseUrl.startsWith('sandbox:')) return { kind: 'sandbox', profile, profileSource, settings };
  const apiKey = envKey ?? settings.api_key;
  return { kind: 'remote', profile, profileSource, baseUrl, baseUrlSource, apiKey, keySource: envKey ? 'env' : apiKey ? 'profile' : 'none', settings };
}
