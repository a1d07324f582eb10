// crm auth login | status | logout

import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, noKeyError, toCliError, usageError } from '../../cli/errors.js';
import { readAll } from '../../cli/io.js';
import { done, record } from '../../cli/result.js';
import { DEFAULT_PROFILE, SANDBOX_PROFILE, checkProfileName, profileOf, updateConfig } from '../../config/store.js';
import { activeProfileName } from '../../config/resolve.js';
import type { ApiClient } from '../../http/core.js';
import { isObject } from '../../registry/values.js';
import { HttpError } from '../../http/errors.js';
import { maskKey } from '../../http/redact.js';
import { normalizeBaseUrl } from '../../http/url.js';
import { offerToForgetReplica } from '../mirror/forget.js';
import type { LocalHandler } from './types.js';

/**
 * The cheapest request every key with read access can make. Its answer must look like the
 * service's: a redirect, an empty body or an envelope with nothing in it verifies nothing.
 */
async function probe(client: ApiClient): Promise<void> {
  const { data } = await client.exchange('GET', '/contacts', { query: { limit: 1 } });
  if (!isObject(data) && !Array.isArray(data)) {
    throw new HttpError('malformed', 'the service did not answer like a CRM workspace (no list of contacts)', { code: 'malformed_response' });
  }
}

/** Which profile login writes to: the one named, else the active one, else "default". */
function loginProfile(ctx: Context): string {
  const named = ctx.options.profile || ctx.env.CRM_PROFILE;
  if (named) return checkProfileName(named);
  const active = ctx.config().active_profile;
  return typeof active === 'string' && active !== SANDBOX_PROFILE && profileOf(ctx.config(), active) ? active : DEFAULT_PROFILE;
}

export const login: LocalHandler = async (ctx, { options }) => {
  const profile = loginProfile(ctx);
  if (profile === SANDBOX_PROFILE) throw usageError('the sandbox profile uses its local key; name another profile with --profile');
  const stored = profileOf(ctx.config(), profile);

  let baseUrlInput = ctx.options.baseUrl || ctx.env.CRM_BASE_URL || stored?.base_url;
  if (!baseUrlInput) {
    if (!ctx.io.canPrompt) throw usageError('missing --base-url', 'pass the workspace URL, e.g. --base-url https://crm.example.com');
    baseUrlInput = await ctx.prompter.input('Workspace base URL', { required: true, validate: validUrl });
  }
  const baseUrl = normalizeBaseUrl(baseUrlInput);

  let key: string;
  if (options.flag('with_key')) {
    key = (await readAll(ctx.io.stdin)).trim();
    if (!key) throw usageError('--with-key read an empty key from stdin');
  } else if (ctx.io.canPrompt) {
    key = (await ctx.prompter.password('API key (from the API section of the workspace settings)')).trim();
  } else {
    throw usageError('no key given', 'pipe it in: `crm auth login --with-key < keyfile`');
  }
  if (/\s/.test(key)) throw usageError('the API key contains whitespace', 'a key is one word; check what was pasted or piped');
  if (/[\u0000-\u001f\u007f]/.test(key)) throw usageError('the API key contains a control character');

  const client = await ctx.clientFor(baseUrl, key);
  try {
    await probe(client);
  } catch (error) {
    const failure = toCliError(error);
    if (failure.status === 401) {
      throw new CliError(`the service rejected the key: ${failure.message}`, ExitCode.auth, { status: 401, code: 'invalid_key', hint: 'nothing was saved' });
    }
    if (failure.status !== 403) throw new CliError(failure.message, failure.exitCode, { status: failure.status, code: failure.code, hint: 'nothing was saved' });
    ctx.warn(`the key works but cannot read contacts (${failure.message})`);
  }
  if (ctx.dryRun) return done('Dry run: nothing was saved.');

  await updateConfig(ctx.env, (data) => {
    data.profiles[profile] = { ...profileOf(data, profile), base_url: baseUrl, api_key: key };
    data.active_profile = profile;
  });
  return done(`✓ Logged in to ${baseUrl} (profile "${profile}", key ${maskKey(key)})`, { profile, base_url: baseUrl, key: maskKey(key), active: true });
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
    report = { profile: target.profile, base_url: target.baseUrl, key: target.apiKey ? maskKey(target.apiKey) : null, key_source: target.keySource };
    if (target.apiKey) client = await ctx.client();
  }

  let failure: CliError | undefined;
  if (!client) {
    failure = noKeyError();
  } else {
    try {
      await probe(client);
    } catch (error) {
      failure = toCliError(error);
      if (failure.exitCode === ExitCode.usage || failure.exitCode === ExitCode.interrupted) throw failure;
    }
  }
  report.works = !failure;
  if (failure) report.error = failure.message;
  return { ...record(report), failure };
};

export const logout: LocalHandler = async (ctx) => {
  const profile = activeProfileName({ profile: ctx.options.profile }, ctx.env, ctx.config());
  if (profile === SANDBOX_PROFILE) return done('The local sandbox has no stored key to remove.');
  const hadKey = Boolean(profileOf(ctx.config(), profile)?.api_key);
  if (ctx.dryRun) return done(`Dry run: the key of profile "${profile}" was not removed`);
  if (hadKey) {
    await updateConfig(ctx.env, (data) => {
      const entry = profileOf(data, profile);
      if (entry) delete entry.api_key;
    });
  }
  if (ctx.env.CRM_API_KEY) ctx.warn('CRM_API_KEY is still set in the environment and will be used');
  const replicaDeleted = await offerToForgetReplica(ctx, profile);
  return done(hadKey ? `✓ Removed the key of profile "${profile}"` : `Profile "${profile}" has no stored key.`, { profile, removed: hadKey, ...(replicaDeleted === undefined ? {} : { replica_deleted: replicaDeleted }) });
};
