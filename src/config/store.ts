// Profiles and settings on disk. Reading is a plain JSON read (conf costs ~35 ms to load, and most
// commands only read); writing goes through conf, which writes atomically, with file mode 0600.

import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../cli/errors.js';
import { configDir } from './paths.js';

export const SANDBOX_PROFILE = 'sandbox';
export const DEFAULT_PROFILE = 'default';

export interface Profile {
  base_url?: string;
  api_key?: string;
  output?: string;
  timeout?: number;
}

export interface ConfigData {
  active_profile?: string;
  profiles: Record<string, Profile>;
}

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

export function readConfig(env: NodeJS.ProcessEnv): ConfigData {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, ExitCode.service);
  }
  try {
    const data = JSON.parse(text) as Partial<ConfigData>;
    return { ...data, profiles: data.profiles ?? {} };
  } catch {
    throw new CliError(`${path} is not valid JSON`, ExitCode.service, { hint: 'fix or delete the file, then run `crm auth login`' });
  }
}

/** Reads, changes and saves the configuration in one step. */
export async function updateConfig(env: NodeJS.ProcessEnv, change: (data: ConfigData) => void): Promise<ConfigData> {
  const { default: Conf } = await import('conf');
  const store = new Conf<ConfigData>({
    projectName: 'crm',
    cwd: configDir(env),
    configName: 'config',
    configFileMode: 0o600,
  });
  const data = readConfig(env);
  change(data);
  store.store = data;
  // A file created earlier with a wider mode is narrowed too.
  chmodSync(store.path, 0o600);
  return data;
}
