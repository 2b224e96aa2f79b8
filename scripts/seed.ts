/**
 * Fills the database with demo data.
 *
 *   npx tsx scripts/seed.ts [--customers N] [--work-orders N] [--force]
 *
 * Uses DATABASE_URL (PostgreSQL) when set, else the embedded database in DATA_DIR. Refuses a
 * database that already has customers or work orders unless --force is given (then it only adds).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '#server/config.ts';
import { isDatabaseEmpty, openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { seedDemoData } from '#server/db/seed/demo-data.ts';

const usage = 'Usage: npx tsx scripts/seed.ts [--customers N] [--work-orders N] [--force]';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed)) fail(`--${name} must be a whole number (got "${value}").\n${usage}`);
  return parsed;
}

async function main(): Promise<void> {
  let args: { customers?: string; 'work-orders'?: string; force?: boolean; help?: boolean };
  try {
    args = parseArgs({
      options: {
        customers: { type: 'string' },
        'work-orders': { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`);
  }
  if (args.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const customers = count(args.customers, 'customers', 60);
  const workOrders = count(args['work-orders'], 'work-orders', 240);

  const config = loadConfig();
  let handle: DatabaseHandle;
  try {
    handle = config.databaseUrl
      ? await openDatabase({ kind: 'postgres', url: config.databaseUrl })
      : await openDatabase({ kind: 'pglite', dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }

  try {
    if (!args.force && !(await isDatabaseEmpty(handle.db))) {
      process.stderr.write('The database already has customers or work orders; not seeding. Use --force to add demo data anyway.\n');
      process.exitCode = 1;
      return;
    }
    const started = performance.now();
    const result = await seedDemoData(handle.db, { customers, workOrders, timeZone: config.businessTimeZone });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `Seeded ${result.customers} customers, ${result.workOrders} work orders, ${result.technicians} technicians, ` +
        `${result.estimateRequests} estimate requests, ${result.aiConversations} chat messages, ${result.aiLeads} chat leads, ${result.agreements} maintenance agreements ` +
        `in ${seconds} s (${handle.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}).\n`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Seeding failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
