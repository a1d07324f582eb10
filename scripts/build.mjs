// Bundles src/main.ts into dist/ with esbuild: one small entry chunk, and a chunk for each lazily
// imported command or library, so that a command loads only what it uses.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/**
 * commander requires node:child_process at load time only for executable subcommands, which crm
 * does not use; loading it (with net and dgram) costs several ms on every start. It is resolved to
 * a shim that loads the real module on first use.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander/') ? { path: 'lazy-child-process', namespace: 'crm-shim' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'crm-shim' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};

await build({
  plugins: [lazyChildProcess],
  entryPoints: { crm: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // A native addon cannot be bundled; it is loaded from node_modules.
  external: ['better-sqlite3'],
  define: { __CRM_VERSION__: JSON.stringify(version) },
  // Bundled CommonJS dependencies call require(); ESM output needs one.
  banner: { js: "import { createRequire as __crmCreateRequire } from 'node:module'; const require = __crmCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  minify: !process.env.CRM_BUILD_DEBUG,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
