/**
 * Maintenance agreements benchmark (issue 22, decision 027-b), run alone by `npm run bench -- --only agreements`, or:
 *
 *   npx tsx bench/agreements.ts [--agreements 5000] [--database-url URL]
 *
 * 1. Data: a fresh PGlite data dir `bench/.data/pglite-agreements` (or with --database-url a scratch
 *    PostgreSQL database next to the given one, dropped at the end): 20,000 customers and 100,000
 *    work orders of history (the tables the generated visits join), then N customers with an
 *    agreement each (a third per plan, terms started since June), each covering one
 *    equipment record. Bulk inserts, then VACUUM ANALYZE.
 * 2. Baseline, in the same run on the same database: one INSERT ... SELECT of N plain work orders
 *    (the triggers that keep the search, counts and messaging tables fire as for any work order)
 *    and their six tasks each: the floor for writing that many visits.
 * 3. The measurement: the service's `generateDue()` on the day a spring season's visits fall due
 *    (generation runs in transactions of 250 agreements), then the same run again (every period
 *    taken: it must create nothing). Prints both, visits/s, the ratio to the baseline and the bar
 *    (a season's visits for 5,000 agreements in under 10 s): MISSED when missed, exit code 0.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { createFileSender } from '#server/adapters/email/email-sender.ts';
import { createAgreementRepository, createAgreementService } from '#server/modules/agreements/index.ts';
import { createEmailOutbox } from '#server/modules/email/email-outbox.ts';
import { createScratchPostgresDatabase } from './database.ts';
import { fixed, formatTable, projectRoot } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    agreements: { type: 'string', default: '5000' },
    'database-url': { type: 'string' },
  },
});
const agreementCount = Number(args.agreements);
if (!Number.isSafeInteger(agreementCount) || agreementCount < 1) throw new Error('--agreements must be a whole number >= 1');
const barSeconds = 10;
const company = companyProfileFrom(companyEnvSchema.parse(process.env));
/** The day of the run: 30 days before the spring of next year, when every agreement's spring visit falls due. */
const nextYear = new Date().getUTCFullYear() + 1;
const runDay = `${nextYear}-01-30`;

async function seed(handle: DatabaseHandle): Promise<void> {
  const started = performance.now();
  await handle.db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    await run(`insert into customers (name, phone, address, city, state, zip)
      select 'History customer ' || i, '(843) 555-' || lpad((i % 10000)::text, 4, '0'), i || ' Marsh Rd', 'Bluffton', 'SC', '29910' from generate_series(1, 20000) as i`);
    await run(`insert into work_orders (customer_id, title, service_date, status, service_type)
      select c.id, 'Past job ' || i, '${runDay}'::date - (1 + i % 700), 'completed', 'repair'
      from generate_series(1, 100000) as i join (select id, row_number() over (order by id) - 1 as n from customers) c on c.n = i % 20000`);
    await run(`insert into customers (name, phone, address, city, state, zip)
      select 'Member ' || i, '(843) 556-' || lpad((i % 10000)::text, 4, '0'), i || ' Palmetto Bay Rd', 'Bluffton', 'SC', '29910' from generate_series(1, ${agreementCount}) as i`);
    await run(`insert into equipment (customer_id, equipment_type, brand)
      select id, 'Heat pump', 'Trane' from customers where name like 'Member %'`);
    // Terms started since June (every one covers the run day, and its spring is next year's), a third per plan.
    await run(`insert into maintenance_agreements (customer_id, plan_id, status, start_date, current_term_starts_on, current_term_ends_on, price_cents, billing)
      select c.id, (array['essential','advanced','premium'])[1 + n % 3], 'active', s.starts, s.starts, (s.starts + interval '12 months' - interval '1 day')::date,
             (array[15000, 25000, 35000])[1 + n % 3], case when n % 2 = 0 then 'yearly' else 'monthly' end
      from (select id, row_number() over (order by id) as n from customers where name like 'Member %') c
      cross join lateral (select ('${runDay}'::date - (10 + c.n % 230)::int) as starts) s`);
    await run(`insert into maintenance_agreement_terms (agreement_id, term_number, plan_id, starts_on, ends_on, price_cents)
      select id, 1, plan_id, current_term_starts_on, current_term_ends_on, price_cents from maintenance_agreements`);
    await run(`insert into maintenance_agreement_equipment (agreement_id, equipment_id)
      select a.id, e.id from maintenance_agreements a join equipment e on e.customer_id = a.customer_id`);
  });
  await handle.query('vacuum (analyze)');
  console.log(`Seeded 20,000 customers, 100,000 work orders and ${agreementCount.toLocaleString('en-US')} agreements in ${fixed((performance.now() - started) / 1000, 1)} s.`);
}

/** The floor: N plain work orders and six tasks each, in one transaction, then removed. */
async function baseline(handle: DatabaseHandle): Promise<number> {
  const started = performance.now();
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`insert into work_orders (customer_id, title, service_date, service_type, idempotency_key)
      select customer_id, 'Baseline visit', '${nextYear}-03-01', 'maintenance', 'baseline:' || id from maintenance_agreements`));
    await tx.execute(sql.raw(`insert into work_order_tasks (work_order_id, task_name)
      select w.id, 'Task ' || t from work_orders w cross join generate_series(1, 6) as t where w.idempotency_key like 'baseline:%'`));
  });
  const seconds = (performance.now() - started) / 1000;
  await handle.db.execute(sql`delete from work_orders where idempotency_key like 'baseline:%'`);
  await handle.query('vacuum (analyze) work_orders');
  return seconds;
}

const scratch = args['database-url'] ? await createScratchPostgresDatabase(args['database-url'], 'agreements') : undefined;
const dataDir = path.join(projectRoot, 'bench/.data/pglite-agreements');
if (!scratch) fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(path.dirname(dataDir), { recursive: true });
const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-agreements-outbox-'));
const handle = scratch ? await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 4 }) : await openDatabase({ kind: 'pglite', dataDir });
try {
  await seed(handle);
  const baselineSeconds = await baseline(handle);
  const clockAt = new Date(`${runDay}T17:00:00Z`);
  const agreements = createAgreementService({
    db: handle.db,
    repository: createAgreementRepository,
    timeZone: company.timeZone,
    company,
    outbox: createEmailOutbox({ db: handle.db, sender: createFileSender(outboxDir), from: company.email, log: pino({ level: 'silent' }) }),
    now: () => clockAt,
  });
  const first = performance.now();
  const generated = await agreements.generateDue();
  const firstSeconds = (performance.now() - first) / 1000;
  const again = performance.now();
  const rerun = await agreements.generateDue();
  const againSeconds = (performance.now() - again) / 1000;
  const [check] = await handle.query<{ visits: number; tasks: number }>(
    `select count(*)::int as visits, (select count(*)::int from work_order_tasks t join maintenance_visits v on v.work_order_id = t.work_order_id) as tasks from maintenance_visits`,
  );

  console.log(`\nMaintenance agreements (${handle.kind === 'pglite' ? 'embedded database' : 'PostgreSQL'}), run day ${runDay}: a spring season's visits`);
  console.log(
    formatTable(
      ['measurement', 'agreements', 'visits', 'seconds', 'visits/s', 'vs baseline', 'bar'],
      [
        ['baseline: insert the work orders and tasks', String(agreementCount), String(agreementCount), fixed(baselineSeconds, 2), fixed(agreementCount / baselineSeconds, 0), '1.00', ''],
        [
          'generateDue(): a season for every agreement',
          String(generated.agreements),
          String(generated.visits),
          fixed(firstSeconds, 2),
          fixed(generated.visits / firstSeconds, 0),
          fixed(firstSeconds / baselineSeconds, 2),
          firstSeconds < barSeconds && generated.visits === agreementCount ? `ok (< ${barSeconds} s)` : `MISSED (< ${barSeconds} s)`,
        ],
        ['generateDue() again: every period taken', String(rerun.agreements), String(rerun.visits), fixed(againSeconds, 2), '', fixed(againSeconds / baselineSeconds, 2), rerun.visits === 0 ? 'ok (nothing twice)' : 'MISSED'],
      ],
    ),
  );
  console.log(`Stored: ${check!.visits} visits with ${check!.tasks} checklist tasks.`);
  if (check!.visits !== agreementCount) throw new Error(`expected ${agreementCount} visits, found ${check!.visits}`);
} finally {
  await handle.close();
  await scratch?.drop();
  fs.rmSync(outboxDir, { recursive: true, force: true });
}
