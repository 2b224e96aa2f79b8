/**
 * Invoices benchmark (issue 20, decision 024-g), run alone by `npm run bench -- --only invoices`, or:
 *
 *   npx tsx bench/invoices.ts [--invoices 100000] [--duration 10] [--connections 10] [--reseed] [--database-url URL]
 *
 * 1. Data: its own PGlite data dir `bench/.data/pglite-invoices-{N}` (seeded once, in `<dir>.partial`
 *    renamed into place with a `seeded.json` marker, then reused), or with --database-url a scratch
 *    PostgreSQL database next to the given one (seeded each run, dropped at the end). Bulk inserts:
 *    5,000 customers, N invoices with a line each (2 % drafts, 2 % void, 88 % paid, 3 % partially
 *    paid, 5 % sent; open ones issued over the last 150 days, so they fill every aging bucket),
 *    a payment for each paid or partially paid invoice, and the bench staff user.
 * 2. Baseline: each endpoint's own SQL (the invoice repository's statements) straight on the driver
 *    with `--connections` callers in flight: the database's ceiling for that work.
 * 3. The built server on that database; signs in; autocannon at `--connections` connections on
 *    each endpoint. Prints p50/p99 and requests/s of both, the HTTP/driver rate ratio, and the bar
 *    (p99 <= 50 ms over HTTP): MISSED when missed, exit code 0. Real errors exit non-zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { monthStart, todayIn } from '#shared/dates.ts';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { invoiceListQuerySchema } from '#shared/invoice.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { createAuthRepository } from '#server/modules/auth/auth.repository.ts';
import { createStaffService } from '#server/modules/auth/auth.service.ts';
import { createInvoiceRepository } from '#server/modules/invoices/invoice.repository.ts';
import { createScratchPostgresDatabase } from './database.ts';
import { benchAdmin, fixed, formatTable, loadOnDriver, projectRoot, runHttpLoad, startBuiltServer, type HttpMeasurement, type Measurement } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    reseed: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    only: { type: 'string' },
  },
});
const invoiceCount = Number(args.invoices);
const seconds = Number(args.duration);
const connections = Number(args.connections);
for (const [name, value] of [['--invoices', invoiceCount], ['--duration', seconds], ['--connections', connections]] as const) {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1`);
}
const barP99Ms = 50;
const benchDataDir = path.join(projectRoot, 'bench/.data');
const timeZone = companyProfileFrom(companyEnvSchema.parse(process.env)).timeZone;
const today = todayIn(timeZone);

// Data --------------------------------------------------------------------------------------------

const firstNames = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen'];
const lastNames = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson'];
const sqlArray = (values: string[]) => `array[${values.map((value) => `'${value}'`).join(',')}]`;

/** Bulk inserts in one transaction: set-based, so 100,000 invoices take seconds, not minutes. */
async function seed(handle: DatabaseHandle): Promise<void> {
  const started = performance.now();
  await createStaffService(createAuthRepository(handle.db)).createStaffUser({ ...benchAdmin, role: 'admin' });
  await handle.db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    await run(`
      insert into customers (name, phone, address, city, state, zip, email)
      select (${sqlArray(firstNames)})[1 + i % ${firstNames.length}] || ' ' || (${sqlArray(lastNames)})[1 + (i / ${firstNames.length}) % ${lastNames.length}] || ' ' || i,
             '(843) 555-' || lpad((i % 10000)::text, 4, '0'), i || ' Palmetto Bay Rd', 'Bluffton', 'SC', '29910', 'customer' || i || '@example.com'
      from generate_series(1, 5000) as i`);
    // Status by i % 100: 0-1 draft, 2-3 void, 4-91 paid, 92-94 partially paid, 95-99 sent (8 % open).
    await run(`
      with numbered as (select id, name, row_number() over (order by id) as n from customers),
      series as (
        select i,
          case when i % 100 < 2 then 'draft' when i % 100 < 4 then 'void' when i % 100 < 92 then 'paid' when i % 100 < 95 then 'partially_paid' else 'sent' end as status,
          5000 + (i * 7919) % 150000 as total,
          case when i % 100 >= 92 then ('${today}'::date - (i % 150)) else ('${today}'::date - (i % 730)) end as issued
        from generate_series(1, ${invoiceCount}) as i
      )
      insert into invoices (kind, invoice_number, customer_id, status, issued_on, due_on, billing_name, billing_address_lines,
                            subtotal_cents, total_cents, paid_cents, paid_at, voided_at, void_reason, sent_at, created_at, updated_at)
      select 'invoice', case when s.status = 'draft' then null else 'INV-' || lpad(s.i::text, 6, '0') end, c.id, s.status,
             case when s.status = 'draft' then null else s.issued end, case when s.status = 'draft' then null else s.issued + 30 end,
             c.name, array[s.i || ' Palmetto Bay Rd', 'Bluffton, SC 29910'], s.total, s.total,
             case s.status when 'paid' then s.total when 'partially_paid' then s.total / 2 else 0 end,
             case when s.status = 'paid' then s.issued::timestamptz + interval '10 days' end,
             case when s.status = 'void' then s.issued::timestamptz end, case when s.status = 'void' then 'Entered twice' end,
             case when s.status <> 'draft' then s.issued::timestamptz end,
             s.issued::timestamptz + (s.i % 86400) * interval '1 second', s.issued::timestamptz
      from series s join numbered c on c.n = 1 + s.i % 5000`);
    await run(`
      insert into invoice_lines (invoice_id, position, kind, name, quantity_milli, unit_price_cents, amount_cents)
      select id, 1, 'service', 'Service call', 1000, total_cents, total_cents from invoices`);
    await run(`
      insert into payments (invoice_id, kind, method, amount_cents, received_on, recorded_by_name)
      select id, 'payment', (array['cash','check','card','bank_transfer'])[1 + (extract(day from issued_on)::int % 4)], paid_cents,
             least(issued_on + 10, '${today}'::date), 'Benchmark'
      from invoices where paid_cents > 0`);
    await run(`insert into document_counters (kind, next_number) values ('invoice', ${invoiceCount + 1})`);
    // A company at steady state has already sent the overdue reminders its open invoices reached
    // (the default schedule, 7, 14 and 30 days past due): the server starts with none to catch up
    // on, as it would after its first day. Without this, the first quarter-hour of the server's
    // life queues and sends thousands of reminders while the bench measures the list.
    await run(`
      update invoices set reminders_sent = (select count(*) from unnest(array[7, 14, 30]) as day where due_on + day <= '${today}'::date),
                          last_reminder_at = now()
       where status in ('sent', 'partially_paid') and due_on is not null`);
  });
  // The server's nightly maintenance (server/db/maintenance.ts) runs `vacuum (analyze)` on the
  // embedded database, which has no autovacuum: a company's data has had one. It sets the
  // visibility map, so a capped count reads the index alone (decision 026-a).
  await handle.query('vacuum (analyze)');
  console.log(`Seeded ${invoiceCount.toLocaleString('en-US')} invoices in ${fixed((performance.now() - started) / 1000, 1)} s.`);
}

type Target = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; drop: () => Promise<void> };

async function prepare(): Promise<Target> {
  const databaseUrl = args['database-url'];
  if (databaseUrl) {
    const scratch = await createScratchPostgresDatabase(databaseUrl, 'invoices');
    const handle = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: connections });
    try {
      await seed(handle);
    } finally {
      await handle.close();
    }
    return { kind: 'postgres', url: scratch.url, drop: scratch.drop };
  }
  const dataDir = path.join(benchDataDir, `pglite-invoices-${invoiceCount}`);
  if (args.reseed) fs.rmSync(dataDir, { recursive: true, force: true });
  if (fs.existsSync(path.join(dataDir, 'seeded.json'))) {
    console.log(`Reusing ${path.relative(projectRoot, dataDir)}.`);
    return { kind: 'pglite', dataDir };
  }
  const partial = `${dataDir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(benchDataDir, { recursive: true });
  const handle = await openDatabase({ kind: 'pglite', dataDir: partial });
  try {
    await seed(handle);
  } finally {
    await handle.close();
  }
  fs.writeFileSync(path.join(partial, 'seeded.json'), JSON.stringify({ invoices: invoiceCount, seededAt: new Date().toISOString() }));
  fs.renameSync(partial, dataDir);
  return { kind: 'pglite', dataDir };
}

// Endpoints ---------------------------------------------------------------------------------------

type Endpoint = { name: string; url: string; driver: (repository: ReturnType<typeof createInvoiceRepository>) => Promise<unknown> };

/** A list's page and its count, both computed (the server keeps counts per snapshot, decision 026-a). */
const listOnDriver = (repository: ReturnType<typeof createInvoiceRepository>, raw: Record<string, string>) => {
  const query = invoiceListQuerySchema.parse(raw);
  return repository.list(query, today, () => repository.listCount(query, today));
};

const endpoints: Endpoint[] = [
  { name: 'invoice list, first page', url: '/api/admin/invoices', driver: (repository) => listOnDriver(repository, {}) },
  { name: 'invoice list, status sent', url: '/api/admin/invoices?status=sent', driver: (repository) => listOnDriver(repository, { status: 'sent' }) },
  { name: 'invoice list, overdue', url: '/api/admin/invoices?status=overdue', driver: (repository) => listOnDriver(repository, { status: 'overdue' }) },
  { name: 'invoice list, search "harris"', url: '/api/admin/invoices?search=harris', driver: (repository) => listOnDriver(repository, { search: 'harris' }) },
  { name: 'invoice list, search a number', url: '/api/admin/invoices?search=INV-004242', driver: (repository) => listOnDriver(repository, { search: 'INV-004242' }) },
  { name: 'A/R figures', url: '/api/admin/invoices/summary', driver: (repository) => repository.receivables(today, monthStart(today), monthStart(today, 1)) },
];

async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email: benchAdmin.email, password: benchAdmin.password }),
  });
  if (response.status !== 200) throw new Error(`Sign-in answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
}

// Run ---------------------------------------------------------------------------------------------

const target = await prepare();
const results: { name: string; driver: Measurement; http?: HttpMeasurement }[] = [];
try {
  const handle = target.kind === 'pglite' ? await openDatabase({ kind: 'pglite', dataDir: target.dataDir }) : await openDatabase({ kind: 'postgres', url: target.url, poolSize: connections });
  try {
    const repository = createInvoiceRepository(handle.db);
    const [{ count }] = (await handle.query<{ count: string }>('select count(*)::text as count from invoices')) as [{ count: string }];
    console.log(`${Number(count).toLocaleString('en-US')} invoices on ${target.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}; today ${today} (${timeZone}); ${connections} connections, ${seconds} s each.`);
    for (const endpoint of endpoints) results.push({ name: endpoint.name, driver: await loadOnDriver(connections, seconds, () => endpoint.driver(repository)) });
  } finally {
    await handle.close();
  }

  // On PostgreSQL the server still needs a data dir (uploads, outbox): a temporary one, removed after.
  const uploadsDir = target.kind === 'postgres' ? fs.mkdtempSync(path.join(benchDataDir, 'invoices-uploads-')) : undefined;
  const server = await startBuiltServer(uploadsDir ?? (target as { dataDir: string }).dataDir, target.kind === 'postgres' ? { DATABASE_URL: target.url } : {});
  try {
    const cookie = await signIn(server.baseUrl);
    for (const [index, endpoint] of endpoints.entries()) {
      await runHttpLoad({ url: `${server.baseUrl}${endpoint.url}`, headers: { cookie }, connections, seconds: 1 }); // warm-up
      const http = await runHttpLoad({ url: `${server.baseUrl}${endpoint.url}`, headers: { cookie }, connections, seconds });
      if (http.non2xx > 0 || http.errors > 0) throw new Error(`${endpoint.url}: ${http.non2xx} non-2xx answers (${JSON.stringify(http.statusCodes)}), ${http.errors} errors`);
      results[index]!.http = http;
    }
  } finally {
    await server.stop();
    if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
  }
} finally {
  if (target.kind === 'postgres') await target.drop();
}

const rows = results.map(({ name, driver, http }) => [
  name,
  fixed(driver.requestsPerSecond, 0),
  fixed(driver.p99Ms, 2),
  fixed(http?.requestsPerSecond, 0),
  fixed(http?.p50Ms, 2),
  fixed(http?.p99Ms, 2),
  http ? fixed(http.requestsPerSecond / driver.requestsPerSecond, 2) : '',
  http && http.p99Ms <= barP99Ms ? `ok (p99 <= ${barP99Ms} ms)` : `MISSED (p99 <= ${barP99Ms} ms)`,
]);
console.log(`\nInvoices at ${invoiceCount.toLocaleString('en-US')} (${target.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}), ${connections} connections`);
console.log(formatTable(['endpoint', 'driver req/s', 'driver p99 ms', 'HTTP req/s', 'HTTP p50 ms', 'HTTP p99 ms', 'HTTP/driver', 'bar'], rows));
fs.mkdirSync(benchDataDir, { recursive: true });
fs.writeFileSync(
  path.join(benchDataDir, `results-invoices${target.kind === 'postgres' ? '-postgresql' : ''}.json`),
  JSON.stringify({ invoices: invoiceCount, connections, seconds, today, results, barP99Ms }, null, 2),
);
