// Bundles the server (TypeScript) into ES modules: build/node/main.mjs (and its chunks), and beside it the embedded
// database's worker thread, build/node/pglite-worker.mjs (server/db/pglite-thread.ts starts it by
// that name), and the map's clustering thread, build/node/map-cluster-worker.mjs
// (server/modules/map/map-cluster-thread.ts); node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'server/main.ts', 'pglite-worker': 'server/db/pglite-worker.ts', 'map-cluster-worker': 'server/modules/map/map-cluster-worker.ts' },
  outdir: 'build/node',
  outExtension: { '.js': '.mjs' },
  // main.mjs loads only what opening the database needs; start.ts and the rest load in a chunk
  // while the database opens (server/main.ts). Chunks stay beside main.mjs: code in them finds the
  // project root and the worker relative to its own file.
  splitting: true,
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
