// Profiles and settings on disk. Reading is a plain JSON read (conf costs ~35 ms to load, and most
// commands only read); writing goes through conf, which writes atomically (a temporary file renamed
// over the old one: a reader or a killed writer never sees half a file) with file mode 0600, under a
// lock file so that concurrent crm processes never lose each other's changes.

import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeHolder, tryLock } from './lock.js';
import { configDir } from './paths.js';
import { pauseForOtherProcess } from '../registry/pause.js';
import { cannotUseFile } from '../registry/values.js';

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

/** A problem with the stored configuration or a name given for it; `usage` when the user's input was wrong. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly usage = false,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty']);

/** Profile names: letters, digits, `_`, `.`, `-`; never a name an object already has. */
export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name) || RESERVED.has(name)) {
    throw new ConfigError(`invalid profile name "${name}"`, 'use letters, digits, _, . and - (up to 64)', true);
  }
  return name;
}

/** The stored profile of that name, if there is one (own members only). */
export function profileOf(config: ConfigData, name: string): Profile | undefined {
  return Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
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
    // No file there (ENOTDIR: a file stands where a directory of the path should be): nothing configured.
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return { profiles: {} };
    throw new ConfigError(cannotUseFile('read', path, error));
  }
  // An editor on Windows may save a byte order mark; an empty file (touched, or cut short) holds nothing.
  text = text.replace(/^\uFEFF/, '');
  if (!text.trim()) return { profiles: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`${path} is not valid JSON`, DAMAGED_HINT);
  }
  const wrong = shapeProblem(data);
  if (wrong) throw new ConfigError(`${path}: ${wrong}`, DAMAGED_HINT);
  const config = data as Partial<ConfigData>;
  return { ...config, profiles: config.profiles ?? {} };
}

const DAMAGED_HINT = 'fix or delete the file, then run `crm auth login`';
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
// A timeout written by hand as "30" is read as crm config set would have stored it (its value is checked where it is used).
const FIELD_TYPES: Record<keyof Profile, string[]> = { base_url: ['string'], api_key: ['string'], output: ['string'], timeout: ['number', 'string'] };

/**
 * What is wrong with the file's shape, if anything. A file of another shape (a profile that is a
 * string, a key that is a number) was read as no profile at all, and crm went to the sandbox (or
 * crashed) instead of the workspace the user meant; a later write would have dropped it.
 */
function shapeProblem(data: unknown): string | undefined {
  if (!isPlainObject(data)) return 'not a JSON object';
  if (data.active_profile !== undefined && typeof data.active_profile !== 'string') return 'active_profile is not a string';
  if (data.profiles === undefined) return undefined;
  if (!isPlainObject(data.profiles)) return 'profiles is not an object';
  for (const [name, profile] of Object.entries(data.profiles)) {
    if (!isPlainObject(profile)) return `profile ${JSON.stringify(name)} is not an object`;
    for (const [field, types] of Object.entries(FIELD_TYPES)) {
      const value = profile[field];
      if (value !== undefined && !types.includes(typeof value)) return `profile ${JSON.stringify(name)}: ${field} is not a ${types[0]}`;
    }
  }
  return undefined;
}

/**
 * Why the stored keys are not the user's alone, if they are not: config.json readable or writable by
 * other users, or its folder writable by them (they could put a file there whose base_url is
 * theirs, and collect the key). ssh refuses such a key file; crm warns, since a copied file (cp, a
 * mounted secret) is often 0644, and says how to fix it. crm's own writes make it 0600 in a 0700
 * folder. Nothing on Windows, whose files have no such modes.
 */
export function keyFileExposure(env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform === 'win32') return undefined;
  const path = configPath(env);
  const dir = dirname(path);
  let fileMode: number;
  let dirMode: number;
  try {
    fileMode = statSync(path).mode;
    dirMode = statSync(dir).mode;
  } catch {
    return undefined;
  }
  const mode = (value: number) => (value & 0o7777).toString(8).padStart(4, '0');
  if (fileMode & 0o066) {
    const can = fileMode & 0o022 ? 'change' : 'read';
    return `${path} holds the API key and other users can ${can} it (mode ${mode(fileMode)}); run \`chmod 600 ${path}\``;
  }
  // A sticky folder (/tmp) lets no one replace another's file.
  if (dirMode & 0o022 && !(dirMode & 0o1000)) return `other users can replace ${path}, the file of the API key: its folder is writable by them (mode ${mode(dirMode)}); run \`chmod 700 ${dir}\``;
  return undefined;
}

const LOCK_WAIT_MS = 10_000;

/**
 * Holds `<config>.lock` (naming this process) while `work` runs. `work` is synchronous, so Ctrl-C
 * is handled before or after it, never inside; a lock left by a crm that was killed is taken over.
 */
function withLock<T>(path: string, work: () => T): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const attempt = tryLock(lock);
    if (attempt.acquired) {
      try {
        return work();
      } finally {
        attempt.release();
      }
    }
    if (Date.now() > deadline) throw new ConfigError(`the configuration is locked by another crm (${describeHolder(attempt.holder)}, ${lock})`, 'try again; delete the lock file if no crm is running');
    pauseForOtherProcess();
  }
}

/** Reads, changes and saves the configuration in one locked step. */
export async function updateConfig(env: NodeJS.ProcessEnv, change: (data: ConfigData) => void): Promise<ConfigData> {
  const { default: Conf } = await import('conf');
  const dir = configDir(env);
  try {
    // Owner-only, also when an earlier version created it wider.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  } catch (error) {
    throw new ConfigError(cannotUseFile('create', `the configuration's directory ${dir}`, error), 'set CRM_CONFIG_DIR to a directory crm can write');
  }
  const path = configPath(env);
  try {
    return withLock(path, () => {
      const store = new Conf<ConfigData>({ projectName: 'crm', cwd: dir, configName: 'config', configFileMode: 0o600 });
      const data = readConfig(env);
      change(data);
      store.store = data;
      // A file created earlier with a wider mode is narrowed too.
      chmodSync(store.path, 0o600);
      return data;
    });
  } catch (error) {
    // The folder is there but its files cannot be written (a read-only disk, another user's folder, a
    // full disk): said as every file crm cannot use is, never Node's own words, and nothing claimed saved.
    if (error instanceof ConfigError || typeof (error as NodeJS.ErrnoException).code !== 'string') throw error;
    throw new ConfigError(cannotUseFile('write', `the configuration ${path}`, error), 'nothing was saved; set CRM_CONFIG_DIR to a directory crm can write');
  }
}
