/**
 * `npm run bench [-- flags]`: the API benchmark, then the calendar, geocoding, map, messaging,
 * technician app, billing PDF, online booking and maintenance agreements benchmarks, one after the other, stopping at the first that fails (after the build, which npm runs first).
 *
 * npm appends the arguments after `--` to the end of the script's command line, so with a `&&`
 * chain they would reach the last benchmark only. This runner hands them out instead:
 * - every flag goes to bench/api.ts (its own flags: --customers, --duration, --only...);
 * - `--database-url URL` goes to every benchmark (each runs on PostgreSQL then);
 * - with `--only` (a quick check of some endpoints, or `--only export`), only bench/api.ts runs;
 *   `--only messaging` runs bench/messaging.ts alone instead, `--only tech` bench/tech.ts,
 *   `--only invoices` bench/invoices.ts, `--only pdf` bench/billing-pdf.ts, `--only booking` bench/booking.ts,
 *   `--only agreements` bench/agreements.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from './lib.ts';

const args = process.argv.slice(2);
// Only the flags the runner acts on; the rest is bench/api.ts's to check.
const { values } = parseArgs({ args, options: { 'database-url': { type: 'string' }, only: { type: 'string' } }, strict: false });
const databaseUrl = typeof values['database-url'] === 'string' ? values['database-url'] : undefined;
const shared = databaseUrl ? ['--database-url', databaseUrl] : [];

/** Benchmarks that `--only <name>` runs alone (the other `--only` values are bench/api.ts's). */
const alone: Record<string, string> = { messaging: 'bench/messaging.ts', tech: 'bench/tech.ts', invoices: 'bench/invoices.ts', pdf: 'bench/billing-pdf.ts', booking: 'bench/booking.ts', agreements: 'bench/agreements.ts' };
const only = typeof values.only === 'string' ? alone[values.only] : undefined;
const runs: [script: string, args: string[]][] = only ? [[only, shared]] : [['bench/api.ts', args]];
if (values.only === undefined) {
  runs.push(['bench/calendar.ts', shared], ['bench/geocoding.ts', shared], ['bench/map.ts', shared], ['bench/messaging.ts', shared], ['bench/tech.ts', shared], ['bench/billing-pdf.ts', shared], ['bench/booking.ts', shared], ['bench/agreements.ts', shared]);
}

let current: ChildProcess | undefined;
// Ctrl-C reaches the running benchmark from the terminal too: it stops its server and exits, then so does this.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => current?.kill('SIGTERM'));

for (const [script, scriptArgs] of runs) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, script), ...scriptArgs], { cwd: projectRoot, stdio: 'inherit' });
  current = child;
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  if (code !== 0) {
    process.stderr.write(`\n${script} ${signal ? `stopped by ${signal}` : `exited with ${code}`}; the benchmarks after it did not run.\n`);
    process.exit(code ?? 1);
  }
}
