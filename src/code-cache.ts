// V8's compiled code of crm, kept between runs: otherwise V8 parses and compiles crm's JavaScript
// afresh at every start, about 20 ms of a `contacts list`. This keeps V8's code cache of each file of
// dist/ in crm's cache folder: a file's first run compiles it and, when the process exits, writes its
// cache with every function the run compiled; later runs start from it. A run of another command
// than the one that wrote a file's cache writes it again, with what both compiled (a first
// `crm auth login` compiles little of what a list runs: each list then compiled it afresh, 1 ms),
// up to WRITES times a file, so that a build's caches settle after its first few commands.
// Node 20 has no compile cache of its own, and Node 22's (module.enableCompileCache) keeps what a
// module's compilation made, before it runs: a list over HTTP started 9 ms later with it on Node 24
// than with this.
// V8 refuses a cache made by another V8, under other flags or for a source of another length; a
// source of the same length is told apart by the folder's name, which holds the build's id (a hash
// of dist/, computed by scripts/build.mjs). V8 does not check a cache's bytes: one damaged on disk
// made it abort the process, at every run. Each file holds its cache twice, and a file whose two
// copies differ is not given to V8: comparing them costs 0.5 ms a run, where a checksum (Node's own
// compile cache keeps a CRC-32) needs node:zlib or node:crypto, 2 ms or more to load at every start.
// A cache is only ever a saving: any failure to read or write one is ignored.
// As with Node's own: NODE_DISABLE_COMPILE_CACHE turns it off, and NODE_COMPILE_CACHE names the
// folder (its crm folder; by default crm's cache folder's v8 folder).
// bin/crm.js loads this (dist/code-cache.js) before the app; loading it turns it on, and makes crm's
// files find one another by path (resolveOwnFilesByPath), cache or not.

import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';
import { cacheDir } from './config/paths.js';
import { restoreStartupFlags, underStartupFlags } from './cli/v8-flags.js';

declare const __CRM_BUILD_ID__: string;

/** How many builds' caches are kept (those written last). */
const KEPT_BUILDS = 3;

/** How many times a file's cache is written, each time by a run of another command. */
const WRITES = 3;

/** What Module.wrap puts before a file's text, on its first line. */
const WRAPPER_LENGTH = Module.wrap('').indexOf('\n');

/** This user, who alone may write the caches crm reads (none on Windows). */
const me = process.getuid?.();

type Compile = (this: Module, content: string, filename: string) => unknown;

/** Compiles the files under `dist` (a folder path ending in a separator) through V8's code cache. */
function useCodeCache(dist: string, env: NodeJS.ProcessEnv): void {
  if (env.NODE_DISABLE_COMPILE_CACHE) return;
  const root = cacheRoot(env);
  if (root === undefined) return;
  const build = `${__CRM_BUILD_ID__}-node${process.version}-${process.arch}`;
  const folder = join(root, build);
  const command = commandOf(process.argv.slice(2));
  const toWrite: Array<{ script: Script; file: string; writes: number }> = [];
  // A cache is code crm runs: one another user could write (NODE_COMPILE_CACHE=/tmp/cache, a
  // folder another user made) is neither read nor written.
  const guarded = () => ownedAlone(folder) && ownedAlone(root) && keepsItsEntries(dirname(root));
  const readable = guarded();

  const prototype = Module.prototype as unknown as { _compile: Compile };
  const compile = prototype._compile;
  prototype._compile = function compileWithCache(content, filename) {
    if (!filename.startsWith(dist)) return compile.call(this, content, filename);
    const file = join(folder, `${basename(filename)}.v8`);
    const stored = readable ? intact(readOrNothing(file)) : undefined;
    // The wrapper's text comes before the file's first line: positions in it (a stack trace's) are the file's.
    const script = underStartupFlags(() => new Script(Module.wrap(content), { filename, cachedData: stored?.cache, columnOffset: -WRAPPER_LENGTH }));
    if (stored === undefined || script.cachedDataRejected) toWrite.push({ script, file, writes: 1 });
    else if (stored.command !== command && stored.writes < WRITES) toWrite.push({ script, file, writes: stored.writes + 1 });
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    return run.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
  };

  process.once('exit', () => {
    if (toWrite.length === 0) return;
    try {
      restoreStartupFlags();
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      if (!guarded()) return;
      for (const { script, file, writes } of toWrite) {
        // Written whole, then renamed: another crm never reads half a cache.
        const partial = `${file}.${process.pid}`;
        try {
          writeFileSync(partial, sealed(script.createCachedData(), writes, command));
          renameSync(partial, file);
        } finally {
          // Left only when writing failed (a full disk).
          rmSync(partial, { force: true });
        }
      }
      // Caches of builds not run lately (crm upgraded or rebuilt) are removed; a few are kept, for
      // two crms used in turn (a global one and a project's) or two Node versions.
      const folders = readdirSync(root).map((name) => ({ name, at: statSync(join(root, name)).mtimeMs }));
      for (const { name } of folders.sort((a, b) => b.at - a.at).slice(KEPT_BUILDS)) rmSync(join(root, name), { recursive: true, force: true });
    } catch {
      // A cache is only ever a saving.
    }
  });
}

/** The folder of the builds' caches; nothing when crm has no cache folder (a user without HOME nor an entry in the password database, as a container's --user may be: no command that needs no folder fails for the cache). */
function cacheRoot(env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_COMPILE_CACHE) return join(env.NODE_COMPILE_CACHE, 'crm');
  try {
    return join(cacheDir(env), 'v8');
  } catch {
    return undefined;
  }
}

/** A folder (not a link to one) of this user's that no one else can write, as ssh asks of ~/.ssh; any folder where there are no users (Windows). */
function ownedAlone(path: string): boolean {
  if (me === undefined) return true;
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() && stat.uid === me && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** A folder where no one else can replace crm's folder: this user's or root's, writable by others only if sticky (/tmp). */
function keepsItsEntries(path: string): boolean {
  if (me === undefined) return true;
  try {
    const stat = statSync(path);
    return (stat.uid === me || stat.uid === 0) && ((stat.mode & 0o002) === 0 || (stat.mode & 0o1000) !== 0);
  } catch {
    return false;
  }
}

function readOrNothing(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The command a run is for, as its first words name it (`contacts list`): the arguments before the
 * first option, two at most. Its operands may come in (`search acme`): they only spend a write.
 */
function commandOf(args: readonly string[]): string {
  const end = args.findIndex((arg) => arg.startsWith('-'));
  return args.slice(0, end < 0 ? 2 : Math.min(end, 2)).join(' ');
}

interface Stored {
  cache: Buffer;
  /** How many times it was written. */
  writes: number;
  /** The command of the run that wrote it last. */
  command: string;
}

/** A cache file: how many times it was written (a byte), the command that wrote it (its length, a byte, then its UTF-8 bytes, 255 at most: a longer one only spends the writes), then V8's cache, twice. */
function sealed(cache: Buffer, writes: number, command: string): Buffer {
  const name = Buffer.from(command, 'utf8').subarray(0, 255);
  return Buffer.concat([Buffer.of(writes, name.length), name, cache, cache]);
}

/** What a cache file holds, when V8's cache in it is whole: its two copies are the same bytes (damage, a bad sector or a torn write, makes them differ). */
function intact(file: Buffer | undefined): Stored | undefined {
  if (file === undefined || file.length < 2) return undefined;
  const start = 2 + file[1]!;
  const length = (file.length - start) / 2;
  if (!Number.isInteger(length) || length <= 0) return undefined;
  const cache = file.subarray(start, start + length);
  if (!cache.equals(file.subarray(start + length))) return undefined;
  return { cache, writes: file[0]!, command: file.subarray(2, start).toString('utf8') };
}

/**
 * crm's files require one another by relative path (`./chunks/chunk-X.js`), as the build wrote them
 * side by side in dist/: such a request, from a file of dist/ or bin/, is resolved by joining the
 * paths. Node's resolution looks each one up on disk and resolves the links on its path: 0.4 ms of
 * a list's start, for its 7 requests. Any other request goes Node's way.
 */
function resolveOwnFilesByPath(dist: string): void {
  const loader = Module as unknown as { _resolveFilename(request: string, parent: Module | undefined, ...rest: unknown[]): string };
  const resolve = loader._resolveFilename;
  const own = `${dirname(dist)}${sep}`;
  loader._resolveFilename = function resolveOwnFile(request, parent, ...rest) {
    if (parent?.filename?.startsWith(own) && request.endsWith('.js') && (request.startsWith('./') || request.startsWith('../'))) {
      const path = join(dirname(parent.filename), request);
      if (path.startsWith(dist)) return path;
    }
    return resolve.call(this, request, parent, ...rest);
  };
}

// The files beside this one: dist/. Last, once every constant of this module is set.
resolveOwnFilesByPath(`${__dirname}${sep}`);
useCodeCache(`${__dirname}${sep}`, process.env);
