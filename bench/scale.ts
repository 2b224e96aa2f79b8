/**
 * Issue 23's bar, run by `npm run bench:scale`: the read endpoints' req/s at 30 connections through
 * nginx with three instances on PostgreSQL, against one instance alone on the same database, in the
 * same run (the set-up of `npm run test:scale`: tests/scale/scale-cluster.ts, with the demo data).
 * The machine's CPU use during each run is printed beside it: on a machine where the instances,
 * PostgreSQL, nginx and the load generator share two cores, the cores are the ceiling, not the
 * instances, and the figures show it.
 *
 *   npx tsx bench/scale.ts [--seconds S] [--connections C]
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { scaleAdmin, startCluster, stopCluster, type ScaleState } from '#tests/scale/scale-cluster.ts';
import { runHttpLoad, type HttpMeasurement } from './lib.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '30' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

/** Busy share of all cores between two readings of /proc/stat. */
function cpuTimes(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3]! + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

async function measure(url: string, cookie: string): Promise<HttpMeasurement & { cpuBusy: number; servedBy: string[] }> {
  // Which instances answer this address (one request each way is enough to see).
  const servedBy = new Set<string>();
  for (let index = 0; index < 6; index += 1) {
    const response = await fetch(url, { headers: { cookie, 'accept-encoding': 'gzip, br' } });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    await response.arrayBuffer();
    servedBy.add(response.headers.get('x-served-by') ?? '?');
  }
  await runHttpLoad({ url, headers: { cookie, 'accept-encoding': 'gzip, br' }, connections, seconds: 2 });
  const before = cpuTimes();
  const result = await runHttpLoad({ url, headers: { cookie, 'accept-encoding': 'gzip, br' }, connections, seconds });
  const after = cpuTimes();
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  return { ...result, cpuBusy: (after.busy - before.busy) / (after.total - before.total), servedBy: [...servedBy].sort() };
}

async function signIn(siteUrl: string): Promise<string> {
  const response = await fetch(`${siteUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: scaleAdmin.email, password: scaleAdmin.password }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
}

const today = new Date().toISOString().slice(0, 10);
const paths = [
  ['session', '/api/admin/session'],
  ['work-order list', '/api/admin/work-orders'],
  ['customer search', '/api/admin/customers?search=mar'],
  ['work-order detail', ''],
  ['dashboard', '/api/admin/dashboard'],
  ['calendar week', `/api/admin/calendar/events?start=${today}&end=${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)}`],
] as const;

let state: ScaleState | undefined;
try {
  console.log('Starting PostgreSQL database, three instances and nginx (tests/scale/scale-cluster.ts)...');
  state = await startCluster();
  const cookie = await signIn(state.siteUrl);
  const firstOrder = (await (await fetch(`${state.siteUrl}/api/admin/work-orders?pageSize=1`, { headers: { cookie } })).json()) as { workOrders: { id: string }[] };
  const rows: string[][] = [];
  for (const [name, path] of paths) {
    const target = path || `/api/admin/work-orders/${firstOrder.workOrders[0]!.id}`;
    console.log(`HTTP  ${name}: one instance, then three through nginx, ${connections} connections for ${seconds} s each...`);
    const one = await measure(`${state.instances[0]!.url}${target}`, cookie);
    const three = await measure(`${state.siteUrl}${target}`, cookie);
    const ratio = three.requestsPerSecond / one.requestsPerSecond;
    rows.push([
      name,
      one.requestsPerSecond.toFixed(0),
      one.p99Ms.toFixed(1),
      `${(one.cpuBusy * 100).toFixed(0)}%`,
      three.requestsPerSecond.toFixed(0),
      three.p99Ms.toFixed(1),
      `${(three.cpuBusy * 100).toFixed(0)}%`,
      three.servedBy.join(' '),
      `${ratio.toFixed(2)}x`,
      ratio >= 2 ? 'ok' : one.cpuBusy >= 0.9 ? 'cores saturated' : 'MISSED',
    ]);
  }
  const header = ['endpoint', '1 inst. req/s', 'p99 ms', 'CPU', '3 via nginx req/s', 'p99 ms', 'CPU', 'answered by', 'ratio', 'bar (>= 2x, or the limit shown)'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 || column === 7 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(`\nScale benchmark: ${connections} connections x ${seconds} s per run; PostgreSQL, demo data; Node ${process.version}, ${os.cpus().length} CPUs.\n`);
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log(
    `\n"CPU" is the whole machine's busy share during the run (all ${os.cpus().length} cores: the instances, PostgreSQL, nginx and the load generator). ` +
      'Where one instance alone already keeps the cores busy, three cannot serve more on this machine: the limit is the cores, and the ratio ' +
      'says what the extra instances and nginx cost. On machines with a core or more per instance, the instances scale until PostgreSQL is the limit.',
  );
} finally {
  await stopCluster();
}
