/**
 * Start-up of the built server on an existing data dir, by phase (issue 17's "start-up ≤ 2 s",
 * decision 023-b):
 *
 *   npx tsx bench/startup.ts [--runs 5] [--data-dir DIR] [--root DIR ...]
 *
 * Starts build/node/main.mjs `--runs` times on the data dir `npm run bench` seeded (default
 * bench/.data/pglite-c20000-w100000; seed it with `npx tsx bench/api.ts --only 'signed-in session read'`),
 * as bench/api.ts does (spawn to the first 200 from GET /healthz), with STARTUP_TIMING=1 so the
 * server prints its phase marks (server/lib/startup-timing.ts). Each `--root` is a project
 * directory holding a build (build/node, build/client, server/db/migrations, node_modules); with
 * several, the runs alternate between them, so a before/after comparison shares the machine's load.
 * Prints each run's phases and the median per root. Figures only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchHost, findFreePort, fixed, projectRoot, startServerProcess } from './lib.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'data-dir': { type: 'string', default: path.join(projectRoot, 'bench/.data/pglite-c20000-w100000') },
    root: { type: 'string', multiple: true },
  },
});
const runs = Number(values.runs);
const dataDir = path.resolve(values['data-dir']);
const roots = (values.root ?? [projectRoot]).map((root) => path.resolve(root));
if (!fs.existsSync(path.join(dataDir, 'pglite'))) throw new Error(`${dataDir} holds no PGlite data dir: seed it with npx tsx bench/api.ts --only 'signed-in session read'`);

type Run = { root: string; totalMs: number; marks: [string, number][] };

async function startOnce(root: string): Promise<Run> {
  const port = await findFreePort(benchHost);
  const server = await startServerProcess({
    command: process.execPath,
    args: [path.join(root, 'build/node/main.mjs')],
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: benchHost, SEED_DEMO: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_URL: '', STARTUP_TIMING: '1' },
    host: benchHost,
    port,
    timeoutMs: 30_000,
    pollIntervalMs: 20,
  });
  const marks = [...server.output().matchAll(/^startup-timing (.+) (\d+(?:\.\d+)?)$/gm)].map(
    (match): [string, number] => [match[1]!, Number(match[2]) - server.spawnedAtEpochMs],
  );
  await server.stop();
  return { root, totalMs: server.startupMs, marks: marks.sort((a, b) => a[1] - b[1]) };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor((numbers.length - 1) / 2)]!;

const results: Run[] = [];
for (let index = 0; index < runs; index++) {
  for (const root of roots) {
    const run = await startOnce(root);
    results.push(run);
    const phases = run.marks.map(([phase, ms]) => `${phase} ${fixed(ms, 0)}`).join(' · ');
    console.log(`${path.basename(root)} run ${index + 1}: first answer ${fixed(run.totalMs, 0)} ms  (${phases})`);
  }
}
console.log('');
for (const root of roots) {
  const own = results.filter((run) => run.root === root);
  const phaseNames = [...new Set(own.flatMap((run) => run.marks.map(([phase]) => phase)))];
  const phaseMedians = phaseNames.map((phase) => `${phase} ${fixed(median(own.flatMap((run) => run.marks.filter(([name]) => name === phase).map(([, ms]) => ms))), 0)}`);
  console.log(`${root}: median first answer ${fixed(median(own.map((run) => run.totalMs)), 0)} ms of ${own.length} (min ${fixed(Math.min(...own.map((run) => run.totalMs)), 0)}, max ${fixed(Math.max(...own.map((run) => run.totalMs)), 0)})`);
  console.log(`  median phases (ms from spawn): ${phaseMedians.join(' · ')}`);
}
