/**
 * Online booking's open windows benchmark (issue 21, decision 026-c), run alone by
 * `npm run bench -- --only booking`, or:
 *
 *   npx tsx bench/booking.ts [--technicians 10] [--per-week 300] [--duration 10] [--connections 10] [--database-url URL]
 *
 * 1. Data: a fresh PGlite data dir `bench/.data/pglite-booking` each run (or with --database-url a
 *    scratch PostgreSQL database next to the given one, dropped at the end): `--technicians`
 *    technicians working Monday to Saturday 8:00-17:00, every service type; the booking settings'
 *    defaults (repair: 2 hours, 12 hours' lead time, 14 days ahead; windows 8-10, 10-12, 13-15,
 *    15-17; a 30-minute travel buffer); `--per-week` scheduled visits a week for the next 15 days,
 *    each an hour or two on a working day, spread over the technicians; and a year of history.
 * 2. Baseline: the service's own work computed afresh (`computeOpenWindows`: settings,
 *    technicians, time off and visits read, then the rule) in-process on the driver, `--connections`
 *    callers in flight. The endpoint keeps its answer per snapshot and minute (decision 013), so it
 *    can exceed that ceiling while nothing commits.
 * 3. The built server on that database; autocannon at `--connections` connections on
 *    `GET /api/public/booking/windows?serviceType=repair&zip=29910` (1 s warm-up, then `--duration`
 *    seconds), and `GET /healthz` for the machine's constant-answer rate. Prints p50/p99, req/s,
 *    the HTTP/driver ratio and the bar: p99 <= 50 ms (`MISSED` when missed, exit 0).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { addDays, todayIn } from '#shared/dates.ts';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { createAvailabilityService } from '#server/modules/availability/index.ts';
import { createAuthRepository } from '#server/modules/auth/auth.repository.ts';
import { createStaffService } from '#server/modules/auth/auth.service.ts';
import { createScratchPostgresDatabase } from './database.ts';
import { benchAdmin, fixed, formatTable, loadOnDriver, projectRoot, runHttpLoad, startBuiltServer, type HttpMeasurement, type Measurement } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    technicians: { type: 'string', default: '10' },
    'per-week': { type: 'string', default: '300' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    'database-url': { type: 'string' },
    only: { type: 'string' },
  },
});
const technicianCount = Number(args.technicians);
const perWeek = Number(args['per-week']);
const seconds = Number(args.duration);
const connections = Number(args.connections);
for (const [name, value] of [['--technicians', technicianCount], ['--per-week', perWeek], ['--duration', seconds], ['--connections', connections]] as const) {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1`);
}
const barP99Ms = 50;
const benchDataDir = path.join(projectRoot, 'bench/.data');
const timeZone = companyProfileFrom(companyEnvSchema.parse(process.env)).timeZone;
const today = todayIn(timeZone);
const windowsPath = '/api/public/booking/windows?serviceType=repair&zip=29910';

/** Set-based inserts in one transaction. Visits: `perWeek` a week for 15 days from today, each 60 or 120 minutes from 8:00 to 15:00 on Monday-Saturday. */
async function seed(handle: DatabaseHandle): Promise<void> {
  const started = performance.now();
  // A staff user, so the server does not make (and print) a first admin for an empty database.
  await createStaffService(createAuthRepository(handle.db)).createStaffUser({ ...benchAdmin, role: 'admin' });
  await handle.db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    await run(`
      insert into technicians (name, color, working_hours)
      select 'Bench Technician ' || i, '#0d9488',
             (select jsonb_object_agg(day::text, jsonb_build_array(jsonb_build_object('start', '08:00', 'end', '17:00'))) from generate_series(1, 6) as day)
      from generate_series(1, ${technicianCount}) as i`);
    await run(`insert into customers (name, phone, address, city, state, zip) values ('Bench Booking Customer', '(843) 555-0199', '1 Bench Way', 'Bluffton', 'SC', '29910')`);
    const visits = Math.round((perWeek * 15) / 7);
    // Visit i: day i % 15 from today (Sundays skipped to Monday), technician i % N, start hour 8 + (i / N) % 8.
    await run(`
      with techs as (select id, row_number() over (order by id) - 1 as n from technicians),
      planned as (
        select i, ('${today}'::date + (i % 15)) as day, i % ${technicianCount} as tech, 8 + ((i / ${technicianCount}) % 8) as hour, case when i % 3 = 0 then 2 else 1 end as hours
        from generate_series(0, ${visits - 1}) as i
      )
      insert into work_orders (customer_id, title, service_date, scheduled_start_time, scheduled_end_time, technician_id, status, service_type)
      select (select id from customers limit 1), 'Bench visit ' || p.i,
             case when extract(dow from p.day) = 0 then p.day + 1 else p.day end,
             make_time(p.hour, 0, 0), make_time(least(p.hour + p.hours, 17), 0, 0), t.id, 'scheduled', 'repair'
      from planned p join techs t on t.n = p.tech`);
    // A year of history the windows must not read.
    await run(`
      insert into work_orders (customer_id, title, service_date, scheduled_start_time, scheduled_end_time, technician_id, status, service_type)
      select (select id from customers limit 1), 'Past visit ' || i, '${today}'::date - (1 + i % 365), make_time(8 + i % 8, 0, 0), make_time(9 + i % 8, 0, 0),
             (select id from technicians order by id offset (i % ${technicianCount}) limit 1), 'completed', 'repair'
      from generate_series(1, ${perWeek * 52}) as i`);
  });
  await handle.query('vacuum (analyze)');
  console.log(`Seeded ${technicianCount} technicians and ${perWeek} visits a week in ${fixed((performance.now() - started) / 1000, 1)} s.`);
}

const scratch = args['database-url'] ? await createScratchPostgresDatabase(args['database-url'], 'booking') : undefined;
const dataDir = path.join(benchDataDir, 'pglite-booking');
if (!scratch) fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(benchDataDir, { recursive: true });
let driver: Measurement;
let offered = 0;
let http: HttpMeasurement;
let healthz: HttpMeasurement;
try {
  const handle = scratch ? await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: connections }) : await openDatabase({ kind: 'pglite', dataDir });
  try {
    await seed(handle);
    const availability = createAvailabilityService({ db: handle.db, timeZone });
    const first = await availability.openWindows({ serviceType: 'repair', zip: '29910' });
    if (first.status !== 'open') throw new Error(`The windows answered ${first.status}`);
    offered = first.windows.length;
    console.log(`${offered} open windows of ${14 * 4} from ${today} to ${addDays(today, 14)}; driver: ${connections} in flight for ${seconds} s...`);
    driver = await loadOnDriver(connections, seconds, () => availability.computeOpenWindows({ serviceType: 'repair', zip: '29910' }));
  } finally {
    await handle.close();
  }

  const uploadsDir = scratch ? fs.mkdtempSync(path.join(benchDataDir, 'booking-uploads-')) : undefined;
  const server = await startBuiltServer(uploadsDir ?? dataDir, { BOOKING_WINDOWS_LIMIT: '100000', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  try {
    healthz = await runHttpLoad({ url: `${server.baseUrl}/healthz`, connections, seconds: Math.min(seconds, 5) });
    await runHttpLoad({ url: `${server.baseUrl}${windowsPath}`, connections, seconds: 1 }); // warm-up
    http = await runHttpLoad({ url: `${server.baseUrl}${windowsPath}`, connections, seconds });
    if (http.non2xx > 0 || http.errors > 0) throw new Error(`${windowsPath}: ${http.non2xx} non-2xx answers (${JSON.stringify(http.statusCodes)}), ${http.errors} errors`);
  } finally {
    await server.stop();
    if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
  }
} finally {
  await scratch?.drop();
}

const database = scratch ? 'PostgreSQL' : 'PGlite';
console.log(`\nOpen booking windows, 14 days, ${technicianCount} technicians, ${perWeek} visits a week (${database}), ${connections} connections`);
console.log(
  formatTable(
    ['measurement', 'req/s', 'p50 ms', 'p99 ms', 'HTTP/driver', 'bar'],
    [
      ['GET /healthz (constant JSON)', fixed(healthz!.requestsPerSecond, 0), fixed(healthz!.p50Ms, 2), fixed(healthz!.p99Ms, 2), '', ''],
      ['computeOpenWindows on the driver', fixed(driver!.requestsPerSecond, 0), fixed(driver!.p50Ms, 2), fixed(driver!.p99Ms, 2), '', ''],
      [`GET ${windowsPath}`, fixed(http!.requestsPerSecond, 0), fixed(http!.p50Ms, 2), fixed(http!.p99Ms, 2), fixed(http!.requestsPerSecond / driver!.requestsPerSecond, 2), http!.p99Ms <= barP99Ms ? `ok (p99 <= ${barP99Ms} ms)` : `MISSED (p99 <= ${barP99Ms} ms)`],
    ],
  ),
);
fs.writeFileSync(
  path.join(benchDataDir, `results-booking${scratch ? '-postgresql' : ''}.json`),
  JSON.stringify({ technicians: technicianCount, perWeek, connections, seconds, today, offered, healthz: healthz!, driver: driver!, http: http!, barP99Ms }, null, 2),
);
