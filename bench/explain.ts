/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements bench/api.ts measures for the searches, the
 * customer directory, the calendar month and the service map, built by the repositories
 * themselves, on the bench data (a PGlite data dir, or --database-url).
 *
 *   npx tsx bench/explain.ts [--customers 20000] [--work-orders 100000] [--only TEXT] [--database-url postgres://...]
 *
 * `--only` keeps the statements whose name contains TEXT (e.g. `--only map`).
 *
 * Run it while no server holds the data dir (PGlite admits one process per data dir). Each plan
 * is run twice and the second is printed, so the figures are for warm caches as under load; then
 * the statement alone is timed (EXPLAIN ANALYZE's own clock reads inflate its times in PGlite).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { addDays, monthStart, todayIn } from '#shared/dates.ts';
import { mapCustomerFiltersSchema, mapWorkOrderFiltersSchema } from '#shared/map.ts';
import { loadConfig } from '#server/config.ts';
import { jsonRowsStatement } from '#server/db/json-rows.ts';
import { createCalendarRepository } from '#server/modules/calendar/index.ts';
import { createCustomerRepository } from '#server/modules/customers/customer.repository.ts';
import { customersQuery, propertiesQuery } from '#server/modules/map/map.repository.ts';
import { createWorkOrderRepository } from '#server/modules/work-orders/work-order.repository.ts';
import { openBenchDatabase, type BenchDatabase } from './database.ts';

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '20000' },
    'work-orders': { type: 'string', default: '100000' },
    'database-url': { type: 'string' },
    only: { type: 'string', default: '' },
  },
});

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const target: BenchDatabase = values['database-url']
  ? { kind: 'postgres', url: values['database-url'] }
  : { kind: 'pglite', dataDir: path.join(benchDir, '.data', `pglite-c${values.customers}-w${values['work-orders']}`) };

const handle = await openBenchDatabase(target, 1);
try {
  const customerQueries = createCustomerRepository(handle.db).queries;
  const workOrderQueries = createWorkOrderRepository(handle.db).queries;
  const calendarQueries = createCalendarRepository(handle.db).queries;
  const dialect = new PgDialect();
  const built = (query: SQL) => dialect.sqlToQuery(query);
  // The month view's six weeks around today, as bench/api.ts asks for them.
  const today = todayIn(loadConfig({ TZ_BUSINESS: process.env.TZ_BUSINESS }).businessTimeZone);
  const first = monthStart(today);
  const gridStart = addDays(first, -new Date(`${first}T12:00:00Z`).getUTCDay());
  const statements: Array<[string, { sql: string; params: unknown[] }]> = [
    ["customer search 'mar': page and capped total", customerQueries.directorySearchPage('mar', 1, 50).toSQL()],
    // As the list sends them: the page as one JSON text (server/db/json-rows.ts).
    ["work-order search 'tun': page and capped total", built(jsonRowsStatement(workOrderQueries.searchPage('first', 'all', 'tun', 1, 25)))],
    ["work-order search 'WO-1052': page and capped total", built(jsonRowsStatement(workOrderQueries.searchPage('first', 'all', 'WO-1052', 1, 25)))],
    ['calendar month (6 weeks)', calendarQueries.range(gridStart, addDays(gridStart, 42)).toSQL()],
    ['map properties (default filters)', built(propertiesQuery(mapWorkOrderFiltersSchema.parse({}), undefined, today))],
    ['map customers (default filters)', built(customersQuery(mapCustomerFiltersSchema.parse({})))],
  ];
  for (const [name, statement] of statements) {
    if (values.only && !name.includes(values.only)) continue;
    const explain = `explain (analyze, buffers) ${statement.sql}`;
    await handle.query(explain, statement.params);
    const rows = await handle.query<{ 'QUERY PLAN': string }>(explain, statement.params);
    const runs = 40;
    const started = performance.now();
    for (let run = 0; run < runs; run++) await handle.query(statement.sql, statement.params);
    const mean = (performance.now() - started) / runs;
    console.log(`\n=== ${name}: ${mean.toFixed(2)} ms per run without EXPLAIN (mean of ${runs})\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
} finally {
  await handle.close();
}
