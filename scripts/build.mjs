// Bundles crm into dist/ with esbuild, in builds that keep start-up reading as few files as possible:
// dist/crm.js (src/main.ts: commander and the command tree), dist/app.js (src/app.ts: what runs a
// command) and the chunks they share: the commands' definitions with the registry (loaded once, by
// both), and the core, which app.js loads; a chunk for each command's handler and for the libraries a
// command loads only when it uses them. dist/complete.js is the shell completions' fast path
// (src/complete.ts), a file of its own so a TAB loads neither; dist/code-cache.js keeps V8's
// compiled code between runs (src/code-cache.ts). All are CommonJS. dist/jq.wasm is --jq's engine
// (src/cli/jq.ts reads it from beside app.js; the package's "files" carry dist/ whole).
import { build, transformSync as transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const DIST = fileURLToPath(new URL('../dist', import.meta.url));
rmSync(DIST, { recursive: true, force: true });

/** A plugin that gives the modules `importer` names the imports `module` matches a stand-in: `contents`. */
function standIn(name, { module, importer, contents }) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: module }, (args) => (importer.test(args.importer) ? { path: name, namespace: 'crm-shim' } : undefined));
      build.onLoad({ filter: new RegExp(`^${name}$`), namespace: 'crm-shim' }, () => ({ contents, loader: 'js' }));
    },
  };
}

/**
 * commander requires node:child_process at load time only for executable subcommands, which crm
 * does not use; loading it (with net and dgram) costs several ms on every start. It is resolved to
 * a shim that loads the real module on first use.
 */
const lazyChildProcess = standIn('lazy-child-process', {
  module: /^(node:)?child_process$/,
  importer: /node_modules\/commander\//,
  contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
});

/**
 * The proxy agent (https-proxy-agent, loaded only when a proxy is set) logs through the debug
 * package, which prints when DEBUG names it (DEBUG=* does), and what it prints holds the proxy's URL
 * with its credentials. crm never prints a credential: the log is replaced by one that does nothing.
 */
const noProxyDebugLog = standIn('proxy-agent-debug', {
  module: /^debug$/,
  importer: /node_modules\/(https-proxy-agent|agent-base)\//,
  contents: 'module.exports = () => () => {};',
});

/** better-sqlite3 is optional: where it is not installed, src/sqlite/'s require() of it is left for run time. */
function betterSqliteInstalled() {
  try {
    createRequire(import.meta.url).resolve('better-sqlite3/package.json');
    return true;
  } catch {
    return false;
  }
}

const common = {
  plugins: [lazyChildProcess, noProxyDebugLog],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Everything is bundled: the package has no runtime dependencies. The one native addon
  // (better-sqlite3, optional) is the installed package's: src/sqlite/ finds it through createRequire,
  // which esbuild leaves alone; the package's JavaScript is bundled where it is installed.
  // kerberos: the proxy agent's Negotiate sign-in, which crm does not offer, imports it when used.
  external: ['kerberos', ...(betterSqliteInstalled() ? [] : ['better-sqlite3', 'better-sqlite3/package.json'])],
  define: { __CRM_VERSION__: JSON.stringify(version), __CRM_BUNDLE__: 'true' },
  minify: !process.env.CRM_BUILD_DEBUG,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // Kept in memory: commonJS() below writes what the build made.
  write: false,
};

/**
 * Each handler is a chunk of the app build, loaded when its command runs. esbuild puts a module
 * shared by several entries (app.js, the handlers) in a chunk for that set of entries, and the
 * handlers share different parts of the core: that made dozens of small chunks, read by every
 * command. Here each handler also imports what app.js loads, so the whole core has one set of
 * entries, and is one chunk.
 */
const handlersShareTheCore = {
  name: 'handlers-share-the-core',
  setup(build) {
    const app = fileURLToPath(new URL('../src/app.ts', import.meta.url));
    build.onLoad({ filter: /\/src\/commands\/.*\/run\.ts$/ }, (args) => ({ contents: `import ${JSON.stringify(app)};\n${readFileSync(args.path, 'utf8')}`, loader: 'ts', resolveDir: dirname(args.path) }));
  },
};

/**
 * What a command loads later (the sandbox, the MCP server, the proxy agent, the output libraries) imports
 * what app.js loads too, as each handler does: otherwise esbuild puts the parts of the core that such
 * a module shares in chunks of their own, and a command reads a dozen small files, each a module for
 * the loader to resolve, read and link. The stand-in re-exports the module it stands in for.
 */
const lazyModulesShareTheCore = {
  name: 'lazy-modules-share-the-core',
  setup(build) {
    const app = fileURLToPath(new URL('../src/app.ts', import.meta.url));
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.namespace !== 'file' || !/\/src\//.test(args.importer) || isBuiltin(args.path) || args.path === './run.js' || args.path === './app.js') return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path, namespace: 'with-core' };
    });
    build.onLoad({ filter: /.*/, namespace: 'with-core' }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const esm = /^\s*(import|export)[\s{*]/m.test(text);
      // A CommonJS module's default is its module.exports; an ES module may have none.
      const withDefault = !esm || /\bexport\s+default\b|\bas\s+default\b/.test(text);
      const target = JSON.stringify(args.path);
      return { contents: `import ${JSON.stringify(app)};\nexport * from ${target};\n${withDefault ? `export { default } from ${target};\n` : ''}`, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** complete.ts imports './app.js' when a value is not cached: that is the other build's output, not bundled in. */
const appIsSeparate = {
  name: 'app-is-separate',
  setup(build) {
    build.onResolve({ filter: /^\.\/app\.js$/ }, (args) => (/complete\.ts$/.test(args.importer) ? { path: './app.js', external: true } : undefined));
  },
};

const EXPORTS_COPIED = 'module.exports = __toCommonJS(stdin_exports);';
const EXPORTS_AS_THEY_ARE = 'module.exports = __defProp(stdin_exports, "__esModule", { value: true });';

/**
 * esbuild splits only ES modules, but V8's compiled code is kept between runs (src/code-cache.ts)
 * only for CommonJS, which vm.Script compiles: each file the builds made is turned
 * into CommonJS, its imports into require() (import() into a promise of one), in strict mode as an
 * ES module is. dist/package.json says the files are CommonJS, and the bundled libraries' require()
 * is the module's own.
 */
function commonJS(outputFiles) {
  for (const { path, text } of outputFiles) {
    const usesImportMeta = text.includes('import.meta');
    const { code: converted } = transform(text, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__importMetaUrl' },
      legalComments: 'none',
      logLevel: 'warning',
    });
    // esbuild defines each export as a getter on an object, then copies them all, as getters again,
    // onto a new object for module.exports (__toCommonJS): for the core's 144 exports, about 0.2 ms
    // of every start, and a call more at each use of one. Here the first object is module.exports.
    const exported = converted.replace(EXPORTS_COPIED, EXPORTS_AS_THEY_ARE);
    if (exported.includes('__toCommonJS(')) throw new Error(`${path}: esbuild's CommonJS exports are not as expected`);
    const { code } = transform(exported, { format: 'cjs', platform: 'node', target: 'node20', minify: common.minify, treeShaking: true, legalComments: 'none', logLevel: 'warning' });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `"use strict";${usesImportMeta ? 'var __importMetaUrl=require("node:url").pathToFileURL(__filename).href;' : ''}${code}`);
  }
}

/** The build's id: a hash of the JavaScript files in dist/ so far (test/e2e/code-cache.test.ts computes it so too). */
function buildId() {
  const files = readdirSync(DIST, { recursive: true }).filter((file) => file.endsWith('.js')).sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${readFileSync(join(DIST, file), 'utf8')}\0`);
  return hash.digest('hex').slice(0, 16);
}

// The completions' fast path without splitting: one file. The entry and the app with splitting: the
// definitions, which both hold, are one chunk of theirs.
const complete = await build({ ...common, plugins: [...common.plugins, appIsSeparate], entryPoints: { complete: 'src/complete.ts' }, outdir: 'dist', splitting: false });
const app = await build({ ...common, plugins: [...common.plugins, handlersShareTheCore, lazyModulesShareTheCore], entryPoints: { crm: 'src/main.ts', app: 'src/app.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunks/[name]-[hash]' });
commonJS([...complete.outputFiles, ...app.outputFiles]);
writeFileSync(new URL('../dist/package.json', import.meta.url), '{\n  "type": "commonjs"\n}\n');

// The code cache (loaded by bin/crm.js before the app), named by a hash of everything
// above: a cache is never read for another build's file of the same length.
const codeCache = await build({ ...common, entryPoints: { 'code-cache': 'src/code-cache.ts' }, outdir: 'dist', splitting: false, define: { ...common.define, __CRM_BUILD_ID__: JSON.stringify(buildId()) } });
commonJS(codeCache.outputFiles);

copyFileSync(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm'), new URL('../dist/jq.wasm', import.meta.url));
