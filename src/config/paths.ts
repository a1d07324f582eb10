// Where crm keeps its files: configuration (profiles, keys), data (the sandbox database, replicas)
// and caches.
// XDG directories on Linux and macOS, %APPDATA% / %LOCALAPPDATA% on Windows; CRM_CONFIG_DIR and
// CRM_DATA_DIR override both.

import { dirname, isAbsolute, join } from 'node:path';

/**
 * The home folder: HOME, as os.homedir() reads it first off Windows, without loading node:os (0.2 ms
 * of every start); else the system's answer. An empty HOME would make every path relative to the
 * working directory.
 */
function home(env: NodeJS.ProcessEnv): string {
  if (process.platform !== 'win32' && env.HOME) return env.HOME;
  const os = process.getBuiltinModule('node:os');
  return os.homedir() || os.userInfo().homedir;
}

/**
 * An XDG_*_HOME variable, if it is an absolute path: the XDG spec says a relative one is invalid
 * and to be ignored (crm wrote config.json, key and all, under the working directory).
 */
function xdg(env: NodeJS.ProcessEnv, name: 'XDG_CONFIG_HOME' | 'XDG_DATA_HOME' | 'XDG_CACHE_HOME'): string | undefined {
  const value = env[name];
  return value && isAbsolute(value) ? value : undefined;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.CRM_CONFIG_DIR) return env.CRM_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA || join(home(env), 'AppData', 'Roaming'), 'crm');
  return join(xdg(env, 'XDG_CONFIG_HOME') ?? join(home(env), '.config'), 'crm');
}

function dataDir(env: NodeJS.ProcessEnv): string {
  if (env.CRM_DATA_DIR) return env.CRM_DATA_DIR;
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(home(env), 'AppData', 'Local'), 'crm');
  return join(xdg(env, 'XDG_DATA_HOME') ?? join(home(env), '.local', 'share'), 'crm');
}

/** Caches that can be thrown away (shell completion's stages and sequences). */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(home(env), 'AppData', 'Local'), 'crm', 'cache');
  return join(xdg(env, 'XDG_CACHE_HOME') ?? join(home(env), '.cache'), 'crm');
}

/** The embedded sandbox's database. */
export function sandboxPath(env: NodeJS.ProcessEnv): string {
  return join(dataDir(env), 'sandbox.db');
}

/** The local replica of a profile's workspace (`crm sync`): one SQLite file per profile. */
export function replicaPath(env: NodeJS.ProcessEnv, profile: string): string {
  return join(dataDir(env), 'replicas', `${profile}.db`);
}

/** Beside the database: the "you are on the sandbox" notice was shown (reset removes it with the data). */
export function noticeMarker(dbPath: string): string {
  return join(dirname(dbPath), 'sandbox-notice-shown');
}
