// Which workspace a command talks to, and with which key. Precedence: flag > environment > profile.
// With nothing configured at all, the answer is the embedded local sandbox.

import { normalizeBaseUrl } from '../http/url.js';
import { ConfigError, DEFAULT_PROFILE, SANDBOX_PROFILE, profileOf, type ConfigData, type Profile } from './store.js';

export interface TargetFlags {
  profile?: string;
  baseUrl?: string;
}

export type Target =
  | { kind: 'sandbox'; profile: string; settings: Profile }
  | {
      kind: 'remote';
      profile: string;
      baseUrl: string;
      apiKey: string | undefined;
      keySource: 'env' | 'profile' | 'none';
      settings: Profile;
    };

export function activeProfileName(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigData): string {
  const explicit = flags.profile || env.CRM_PROFILE;
  if (explicit) {
    if (explicit !== SANDBOX_PROFILE && !profileOf(config, explicit)) {
      throw new ConfigError(`unknown profile "${explicit}"`, 'list them with `crm profiles list`', true);
    }
    return explicit;
  }
  const active = config.active_profile;
  if (typeof active === 'string' && (active === SANDBOX_PROFILE || profileOf(config, active))) return active;
  return profileOf(config, DEFAULT_PROFILE) ? DEFAULT_PROFILE : SANDBOX_PROFILE;
}

export function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigData): Target {
  const profile = activeProfileName(flags, env, config);
  const settings = profileOf(config, profile) ?? {};
  const baseUrlInput = flags.baseUrl || env.CRM_BASE_URL || settings.base_url;
  const envKey = env.CRM_API_KEY || undefined;
  if (!baseUrlInput) {
    if (envKey) throw new ConfigError('CRM_API_KEY is set but no base URL is configured', 'set CRM_BASE_URL or pass --base-url', true);
    return { kind: 'sandbox', profile, settings };
  }
  const baseUrl = normalizeBaseUrl(baseUrlInput);
  if (baseUrl.startsWith('sandbox:')) return { kind: 'sandbox', profile, settings };
  const apiKey = envKey ?? settings.api_key;
  return { kind: 'remote', profile, baseUrl, apiKey, keySource: envKey ? 'env' : apiKey ? 'profile' : 'none', settings };
}
