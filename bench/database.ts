/**
 * Where a benchmark's data lives: a PGlite data dir under bench/.data (the default), or the
 * PostgreSQL database named by `--database-url`. Seeds it once with the demo data and the bench
 * staff user, and marks it complete so later runs reuse it:
 *
 * - PGlite: seeding happens in `<dir>.partial`, renamed into place with a `seeded.json` marker.
 * - PostgreSQL: a one-row table `bench_seed` written after the seed. A database without it is
 *   seeded only when it is empty (no customers, no work orders); one with data but no marker is
 *   refused, so the bench never writes into, or wipes, a database it did not seed. `--reseed` (or
 *   other counts) wipes only a database that carries the marker.
 *
 * Also scratch PostgreSQL databases for the benchmarks that start from an empty database
 * (calendar, geocoding): created next to the given one and dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isDatabaseEmpty, openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { seedDemoData, type SeedDemoResult } from '#server/db/seed/demo-data.ts';
import { createAuthRepository } from '#server/modules/auth/auth.repository.ts';
import { createStaffService } from '#server/modules/auth/auth.service.ts';
import os from 'node:os';
import { benchAdmin, projectRoot, startBuiltServer, type ServerProcess } from './lib.ts';

export type BenchDatabase = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export type SeedInfo = { reused: boolean; seconds: number; counts: SeedDemoResult; customers: number; workOrders: number };
type Marker = { seconds: number; counts: SeedDemoResult; customers: number; workOrders: number; seededAt: string };

const markerName = 'seeded.json';
const markerTable = 'bench_seed';

/** The URL without its password, for printing. */
export function describeDatabase(target: BenchDatabase): string {
  if (target.kind === 'pglite') return path.relative(projectRoot, target.dataDir);
  const url = new URL(target.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/** The label of the database in a report's title. */
export function databaseLabel(target: BenchDatabase): string {
  return target.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
}

export function openBenchDatabase(target: BenchDatabase, poolSize?: number): Promise<DatabaseHandle> {
  return target.kind === 'pglite' ? openDatabase({ kind: 'pglite', dataDir: target.dataDir }) : openDatabase({ kind: 'postgres', url: target.url, poolSize });
}

export type EnsureSeededOptions = {
  customers: number;
  workOrders: number;
  reseed: boolean;
  /** Create the bench staff user too (bench/api.ts signs in with it). */
  withBenchUser: boolean;
  /** PostgreSQL: reuse a database the bench seeded whatever its counts (bench/map.ts shares bench/api.ts's). */
  anyCounts?: boolean;
};

/** Seeds the target once (then reuses it), as described at the top of this file. */
export async function ensureSeeded(target: BenchDatabase, options: EnsureSeededOptions): Promise<SeedInfo> {
  return target.kind === 'pglite' ? ensureSeededPglite(target.dataDir, options) : ensureSeededPostgres(target.url, options);
}

async function seedInto(handle: DatabaseHandle, options: EnsureSeededOptions): Promise<SeedDemoResult> {
  const counts = await seedDemoData(handle.db, { customers: options.customers, workOrders: options.workOrders });
  if (options.withBenchUser) await createStaffService(createAuthRepository(handle.db)).createStaffUser(benchAdmin);
  return counts;
}

function printSeeded(seconds: number, counts: SeedDemoResult, options: EnsureSeededOptions): void {
  console.log(
    `Seeded in ${seconds.toFixed(1)} s (open + migrate + seed${options.withBenchUser ? ' + bench user' : ''}): ${counts.customers} customers, ${counts.workOrders} work orders, ` +
      `${counts.technicians} technicians, ${counts.estimateRequests} estimate requests, ${counts.aiConversations} chat messages, ${counts.aiLeads} chat leads.`,
  );
}

async function ensureSeededPglite(dataDir: string, options: EnsureSeededOptions): Promise<SeedInfo> {
  const markerPath = path.join(dataDir, markerName);
  if (!options.reseed && fs.existsSync(markerPath)) {
    const marker = JSON.parse(fs.readFileSync(markerPath, 'utf8')) as Marker;
    console.log(`Reusing ${path.relative(projectRoot, dataDir)} (seeded ${marker.seededAt}${marker.seconds ? ` in ${marker.seconds.toFixed(1)} s` : ''}).`);
    return { reused: true, seconds: marker.seconds, counts: marker.counts, customers: options.customers, workOrders: options.workOrders };
  }

  const partialDir = `${dataDir}.partial`;
  fs.rmSync(partialDir, { recursive: true, force: true });
  console.log(`Seeding ${options.customers} customers and ${options.workOrders} work orders into ${path.relative(projectRoot, dataDir)}...`);
  const started = performance.now();
  const handle = await openDatabase({ kind: 'pglite', dataDir: partialDir });
  let counts: SeedDemoResult;
  try {
    counts = await seedInto(handle, options);
  } finally {
    await handle.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const marker: Marker = { seconds, counts, customers: options.customers, workOrders: options.workOrders, seededAt: new Date().toISOString() };
  fs.writeFileSync(path.join(partialDir, markerName), `${JSON.stringify(marker, null, 2)}\n`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.renameSync(partialDir, dataDir);
  printSeeded(seconds, counts, options);
  return { reused: false, seconds, counts, customers: options.customers, workOrders: options.workOrders };
}

async function readPostgresMarker(handle: DatabaseHandle): Promise<Marker | undefined> {
  const [exists] = await handle.query<{ present: boolean }>('select to_regclass($1) is not null as present', [`public.${markerTable}`]);
  if (!exists?.present) return undefined;
  const [row] = await handle.query<{ marker: Marker }>(`select marker from ${markerTable} limit 1`);
  return row?.marker;
}

async function ensureSeededPostgres(url: string, options: EnsureSeededOptions): Promise<SeedInfo> {
  const where = describeDatabase({ kind: 'postgres', url });
  const started = performance.now();
  let handle = await openDatabase({ kind: 'postgres', url, poolSize: 2, statementTimeoutMs: 0 });
  try {
    const marker = await readPostgresMarker(handle);
    const countsMatch = marker !== undefined && (options.anyCounts || (marker.customers === options.customers && marker.workOrders === options.workOrders));
    if (marker && countsMatch && !options.reseed) {
      console.log(`Reusing ${where}: ${marker.counts.customers} customers, ${marker.counts.workOrders} work orders (seeded ${marker.seededAt} in ${marker.seconds.toFixed(1)} s).`);
      return { reused: true, seconds: marker.seconds, counts: marker.counts, customers: marker.customers, workOrders: marker.workOrders };
    }
    if (marker) {
      // The bench seeded this database: it may wipe it (other counts asked for, or --reseed).
      console.log(`Wiping ${where} (seeded by the bench with ${marker.customers} / ${marker.workOrders}; asked for ${options.customers} / ${options.workOrders}${options.reseed ? ', --reseed' : ''})...`);
      await handle.query('drop schema public cascade');
      await handle.query('create schema public');
      await handle.query('drop schema if exists drizzle cascade');
      await handle.close();
      handle = await openDatabase({ kind: 'postgres', url, poolSize: 2, statementTimeoutMs: 0 });
    } else if (!(await isDatabaseEmpty(handle.db))) {
      throw new Error(
        `${where} has customers or work orders but no ${markerTable} table: not seeded by the bench. ` +
          'Point --database-url at an empty database (the bench seeds it and marks it as its own).',
      );
    }
    console.log(`Seeding ${options.customers} customers and ${options.workOrders} work orders into ${where}...`);
    const counts = await seedInto(handle, options);
    const seconds = (performance.now() - started) / 1000;
    const written: Marker = { seconds, counts, customers: options.customers, workOrders: options.workOrders, seededAt: new Date().toISOString() };
    await handle.query(`create table ${markerTable} (marker jsonb not null)`);
    await handle.query(`insert into ${markerTable} (marker) values ($1)`, [JSON.stringify(written)]);
    printSeeded(seconds, counts, options);
    return { reused: false, seconds, counts, customers: options.customers, workOrders: options.workOrders };
  } finally {
    await handle.close();
  }
}

/**
 * A new, empty database on the same PostgreSQL server as `url` (named after it and `label`), for a
 * benchmark that starts from nothing; `drop` removes it. Needs the right to create databases.
 */
export async function createScratchPostgresDatabase(url: string, label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(url);
  const name = `${decodeURIComponent(base.pathname.slice(1)) || 'postgres'}_${label}_${randomBytes(4).toString('hex')}`.slice(0, 63);
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return { url: scratch.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

/**
 * The built server on a fresh, empty database: a temporary PGlite data dir, or (with `databaseUrl`)
 * a scratch PostgreSQL database next to it plus a temporary data dir for uploads and the outbox.
 * Its `stop` also removes both.
 */
export async function startFreshServer(label: string, databaseUrl: string | undefined, env: NodeJS.ProcessEnv, timeoutMs?: number): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hvac-${label}-bench-`));
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  const cleanup = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  };
  try {
    if (databaseUrl) scratch = await createScratchPostgresDatabase(databaseUrl, label);
    const server = await startBuiltServer(dataDir, { ...env, ...(scratch ? { DATABASE_URL: scratch.url } : {}) }, timeoutMs);
    return { ...server, stop: () => server.stop().finally(cleanup) };
  } catch (error) {
    await cleanup().catch(() => undefined);
    throw error;
  }
}
