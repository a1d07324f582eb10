// crm auth login: store a key for a workspace, verified before it is saved.

import type { Context } from '../../../cli/context.js';
import { CliError, ExitCode, toCliError, usageError } from '../../../cli/errors.js';
import { readAll } from '../../../cli/io.js';
import { done } from '../../../cli/result.js';
import { DEFAULT_PROFILE, SANDBOX_PROFILE, checkProfileName, profileOf, updateConfig } from '../../../config/store.js';
import { maskKey } from '../../../http/redact.js';
import { normalizeBaseUrl } from '../../../http/url.js';
import type { Handler } from '../../command.js';
import { probe } from '../probe.js';
import type { Spec } from './command.js';

const NOT_THE_API_HINT = 'nothing was saved; check --base-url: the origin (https://crm.example.com), or the API base ending in /api/v1';

/** Which profile login writes to: the one named, else the active one, else "default". */
function loginProfile(ctx: Context): string {
  const named = ctx.options.profile || ctx.env.CRM_PROFILE;
  if (named) return checkProfileName(named);
  const active = ctx.config().active_profile;
  return typeof active === 'string' && active !== SANDBOX_PROFILE && profileOf(ctx.config(), active) ? active : DEFAULT_PROFILE;
}

export const run: Handler<Spec> = async (ctx, { options }) => {
  const profile = loginProfile(ctx);
  if (profile === SANDBOX_PROFILE) throw usageError('the sandbox profile uses its local key; name another profile with --profile');
  const stored = profileOf(ctx.config(), profile);

  let baseUrlInput = ctx.options.baseUrl || ctx.env.CRM_BASE_URL || stored?.base_url;
  if (!baseUrlInput) {
    if (!ctx.io.canPrompt) throw usageError('missing --base-url', 'pass the workspace URL, e.g. --base-url https://crm.example.com');
    baseUrlInput = await ctx.prompter().input('Workspace base URL', { required: true, validate: validUrl });
  }
  const baseUrl = normalizeBaseUrl(baseUrlInput);

  let key: string;
  if (options.with_key) {
    key = (await readAll(ctx.io.stdin)).trim();
    if (!key) throw usageError('--with-key read an empty key from stdin');
  } else if (ctx.io.canPrompt) {
    key = (await ctx.prompter().password('API key (from the API section of the workspace settings)')).trim();
  } else {
    // As gh's --with-token: a key on stdin is read only when asked for, never by accident.
    throw usageError('no key given: crm asks for it at a terminal only, and reads it from stdin only with --with-key', 'pipe it in: `crm auth login --with-key < keyfile`');
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
    if (failure.status !== 403) {
      // A 404 or a page that is not JSON: most likely no API at that URL (a path of the web app, /api).
      const elsewhere = failure.status === 404 || failure.code === 'malformed_response';
      // A host that is not there (not found, refused): the URL given is the one to check.
      const nowhere = failure.code === 'enotfound' || failure.code === 'eai_again' || failure.code === 'econnrefused';
      throw new CliError(failure.message, failure.exitCode, { status: failure.status, code: failure.code, hint: elsewhere ? NOT_THE_API_HINT : nowhere ? 'nothing was saved; check --base-url' : 'nothing was saved' });
    }
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

