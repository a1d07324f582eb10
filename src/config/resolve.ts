// Which workspace a command talks to, and with which key. Precedence: flag > environment > profile.
// With nothing configured at all, the answer is the embedded local sandbox.

import { usageError } from '../cli/errors.js';
import { normalizeBaseUrl } from '../http/url.js';
import { DEFAULT_PROFILE, SANDBOX_PROFILE, type ConfigData, type Profile } from './store.js';

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
    if (explicit !== SANDBOX_PROFILE && !config.profiles[explicit]) {
      throw usageError(`unknown profile "${explicit}"`, 'list them with `crm profiles list`');
    }
    return explicit;
  }
  if (config.active_profile && (config.active_profile === SANDBOX_PROFILE || config.profiles[config.active_profile])) {
    return config.active_profile;
  }
  return config.profiles[DEFAULT_PROFILE] ? DEFAULT_PROFILE : SANDBOX_PROFILE;
}

export function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv, config: ConfigData): Target {
  const profile = activeProfileName(flags, env, config);
  const settings = config.profiles[profile] ?? {};
  const baseUrlInput = flags.baseUrl || env.CRM_BASE_URL || settings.base_url;
  const envKey = env.CRM_API_KEY || undefined;
  if (!baseUrlInput) {
    if (envKey) throw usageError('CRM_API_KEY is set but no base URL is configured', 'set CRM_BASE_URL or pass --base-url');
    return { kind: 'sandbox', profile, settings };
  }
  const baseUrl = normalizeBaseUrl(baseUrlInput);
  if (baseUrl.startsWith('sandbox:')) return { kind: 'sandbox', profile, settings };
  const apiKey = envKey ?? settings.api_key;
  return { kind: 'remote', profile, baseUrl, apiKey, keySource: envKey ? 'env' : apiKey ? 'profile' : 'none', settings };
}
