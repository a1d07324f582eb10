// What the reliability checks collect across the whole run (test/reliability/global-setup.ts reads
// it at the end): everything crm printed with the keys it was given, for the secrets scan, and the
// figures the checks measured (faults x methods tried, bad inputs tried, records lost).

import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { inject } from 'vitest';
import { configPath } from '../../src/config/store.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's evidence goes; absent when the suite runs without its global setup. */
    evidenceDir?: string;
  }
}

/** Shorter strings are not secrets worth a scan (they would match ordinary words). */
const MIN_SECRET_LENGTH = 12;

function evidenceFile(name: string): string | undefined {
  const dir = inject('evidenceDir');
  return dir ? join(dir, `${name}-${process.pid}-${threadId}.jsonl`) : undefined;
}

/** Every key stored in the profiles of this environment's config file. */
function storedKeys(env: NodeJS.ProcessEnv): string[] {
  try {
    const config = JSON.parse(readFileSync(configPath(env), 'utf8')) as { profiles?: Record<string, { api_key?: unknown }> };
    return Object.values(config.profiles ?? {}).flatMap((profile) => (typeof profile?.api_key === 'string' ? [profile.api_key] : []));
  } catch {
    return [];
  }
}

/**
 * Keeps what one crm run printed, with the keys it was given (CRM_API_KEY, a key piped to
 * `auth login --with-key`, the keys of its stored profiles), for the scan at the end of the run.
 */
export function capture(output: string, env: NodeJS.ProcessEnv, extraSecrets: Array<string | undefined> = []): void {
  const file = evidenceFile('captures');
  if (!file) return;
  const secrets = [...new Set([env.CRM_API_KEY, ...extraSecrets, ...storedKeys(env)])].filter((key): key is string => typeof key === 'string' && key.trim().length >= MIN_SECRET_LENGTH);
  if (secrets.length === 0) return;
  appendFileSync(file, `${JSON.stringify({ secrets: secrets.map((key) => key.trim()), output })}\n`);
}

/** Adds to a figure of the run (the same name from several tests adds up). */
export function recordFigure(name: string, value: number): void {
  const file = evidenceFile('figures');
  if (file) appendFileSync(file, `${JSON.stringify({ name, value })}\n`);
}
