// Bundles src/main.ts into dist/ with esbuild: one small entry chunk, and a chunk for each lazily
// imported command or library, so that a command loads only what it uses.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
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
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
