// Bundles the server (TypeScript) into ES modules: build/node/main.mjs, and beside it the embedded
// database's worker thread, build/node/pglite-worker.mjs (server/db/pglite-thread.ts starts it by
// that name); node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'server/main.ts', 'pglite-worker': 'server/db/pglite-worker.ts' },
  outdir: 'build/node',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
