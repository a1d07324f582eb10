// crm auth login | status | logout

import type { Context } from '../cli/context.js';
import { CliError, ExitCode, usageError } from '../cli/errors.js';
import { readAll } from '../cli/io.js';
import { DEFAULT_PROFILE, SANDBOX_PROFILE, updateConfig } from '../config/store.js';
import { activeProfileName } from '../config/resolve.js';
import type { ApiClient } from '../http/core.js';
import { maskKey } from '../http/redact.js';
import { normalizeBaseUrl } from '../http/url.js';
import type { LocalHandler } from './local.js';

/** The cheapest request every key with read access can make. */
const probe = (client: ApiClient) => client.request('GET', '/contacts', { query: { limit: 1 } });

/** Which profile login writes to: the one named, else the active one, else "default". */
function loginProfile(ctx: Context): string {
  const named = ctx.options.profile || ctx.env.CRM_PROFILE;
  if (named) return named;
  const active = ctx.config().active_profile;
  return active && active !== SANDBOX_PROFILE ? active : DEFAULT_PROFILE;
}

export const login: LocalHandler = async (ctx, { options }) => {
  const profile = loginProfile(ctx);
  if (profile === SANDBOX_PROFILE) throw usageError('the sandbox profile uses its local key; name another profile with --profile');
  const stored = ctx.config().profiles[profile];

  let baseUrlInput = ctx.options.baseUrl || ctx.env.CRM_BASE_URL || stored?.base_url;
  if (!baseUrlInput) {
    if (!ctx.io.canPrompt) throw usageError('missing --base-url', 'pass the workspace URL, e.g. --base-url https://crm.example.com');
    baseUrlInput = await ctx.prompter.input('Workspace base URL', { required: true, validate: validUrl });
  }
  const baseUrl = normalizeBaseUrl(baseUrlInput);

  let key: string;
  if (options.withKey) {
    key = (await readAll(ctx.io.stdin)).trim();
    if (!key) throw usageError('--with-key read an empty key from stdin');
  } else if (ctx.io.canPrompt) {
    key = (await ctx.prompter.password('API key (from the API section of the workspace settings)')).trim();
  } else {
    throw usageError('no key given', 'pipe it in: `crm auth login --with-key < keyfile`');
  }
  if (/\s/.test(key)) throw usageError('the API key contains whitespace');

  const client = await ctx.clientFor(baseUrl, key);
  try {
    await probe(client);
  } catch (error) {
    if (error instanceof CliError && error.status === 401) {
      throw new CliError(`the service rejected the key: ${error.message}`, ExitCode.auth, { status: 401, code: 'invalid_key', hint: 'nothing was saved' });
    }
    if (!(error instanceof CliError && error.status === 403)) throw error;
    ctx.warn(`the key works but cannot read contacts (${error.message})`);
  }

  await updateConfig(ctx.env, (data) => {
    data.profiles[profile] = { ...data.profiles[profile], base_url: baseUrl, api_key: key };
    data.active_profile = profile;
  });
  if (ctx.options.json) {
    await ctx.printer.record({ profile, base_url: baseUrl, key: maskKey(key), active: true });
  } else {
    ctx.info(`✓ Logged in to ${baseUrl} (profile "${profile}", key ${maskKey(key)})`);
  }
};

function validUrl(value: string): string | true {
  try {
    normalizeBaseUrl(value);
    return true;
  } catch (error) {
    return (error as Error).message;
  }
}

export const status: LocalHandler = async (ctx) => {
  const target = ctx.target();
  let report: Record<string, unknown>;
  let client: ApiClient | undefined;
  if (target.kind === 'sandbox') {
    client = await ctx.client();
    report = { profile: target.profile, base_url: 'sandbox (local)', key: client.maskedKey, key_source: 'sandbox' };
  } else {
    report = {
      profile: target.profile,
      base_url: target.baseUrl,
      key: target.apiKey ? maskKey(target.apiKey) : null,
      key_source: target.keySource,
    };
    if (target.apiKey) client = await ctx.client();
  }

  let failure: CliError | undefined;
  if (!client) {
    failure = new CliError('no API key configured', ExitCode.auth, { hint: 'run `crm auth login`' });
  } else {
    try {
      await probe(client);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      failure = error;
    }
  }
  report.works = !failure;
  if (failure) report.error = failure.message;
  await ctx.printer.record(report);
  if (failure) throw failure;
};

export const logout: LocalHandler = async (ctx) => {
  const profile = activeProfileName({ profile: ctx.options.profile }, ctx.env, ctx.config());
  if (profile === SANDBOX_PROFILE) {
    ctx.info('The local sandbox has no stored key to remove.');
    return;
  }
  const hadKey = Boolean(ctx.config().profiles[profile]?.api_key);
  if (hadKey) {
    await updateConfig(ctx.env, (data) => {
      const entry = data.profiles[profile];
      if (entry) delete entry.api_key;
    });
  }
  ctx.info(hadKey ? `✓ Removed the key of profile "${profile}"` : `Profile "${profile}" has no stored key.`);
  if (ctx.env.CRM_API_KEY) ctx.warn('CRM_API_KEY is still set in the environment and will be used');
};
