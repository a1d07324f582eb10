// crm auth status: the profile, base URL, key (masked), where each came from, and whether the key works.

import { CliError, ExitCode, noKeyError, toCliError } from '../../../cli/errors.js';
import { record } from '../../../cli/result.js';
import type { ApiClient } from '../../../http/core.js';
import { maskKey } from '../../../http/redact.js';
import type { Handler } from '../../command.js';
import { probe } from '../probe.js';

export const run: Handler = async (ctx) => {
  const target = ctx.target();
  let report: Record<string, unknown>;
  let client: ApiClient | undefined;
  if (target.kind === 'sandbox') {
    client = await ctx.client();
    report = { profile: target.profile, profile_source: target.profileSource, base_url: 'sandbox (local)', base_url_source: 'sandbox', key: client.maskedKey, key_source: 'sandbox' };
  } else {
    const key = target.apiKey ? maskKey(target.apiKey) : null;
    report = { profile: target.profile, profile_source: target.profileSource, base_url: target.baseUrl, base_url_source: target.baseUrlSource, key, key_source: target.keySource };
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

