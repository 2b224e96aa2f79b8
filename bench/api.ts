/**
 * API benchmark on the embedded database, or on PostgreSQL (DESIGN.md section 7), run by `npm run bench`:
 *
 *   npx tsx bench/api.ts [--customers N] [--work-orders N] [--duration S] [--connections C] [--reseed] [--database-url URL]
 *
 * 1. Seeds (once, then reused) a PGlite data dir under bench/.data, or the PostgreSQL database of
 *    --database-url (bench/database.ts), with the demo data and a bench staff user.
 * 2. For each endpoint below, runs the endpoint's own SQL straight on the driver (PGlite, or a
 *    node-postgres pool of as many connections) with as many queries in flight as autocannon has
 *    connections: the database's ceiling.
 * 3. Starts the built server (build/node/main.mjs) on that database: start-up time to first answer.
 * 4. Signs in, then autocannon: GET /healthz (constant JSON, the framework's ceiling), then each
 *    endpoint with the session cookie.
 * 5. Peak and current RSS of the server; a table and bench/.data/results-api.json.
 *
 * Figures only: a missed bar is printed as MISSED and the exit code stays 0. Real errors (the
 * server does not start, a non-2xx answer, a connection error) exit non-zero.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { SQL, SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import type { Database } from '#server/db/client.ts';
import * as schema from '#server/db/schema/index.ts';
import { dashboardListLimit } from '#shared/dashboard.ts';
import { addDays, monthStart, todayIn } from '#shared/dates.ts';
import { createAuthRepository } from '#server/modules/auth/auth.repository.ts';
import { hashToken } from '#server/modules/auth/auth.service.ts';
import { loadConfig } from '#server/config.ts';
import { createCalendarRepository } from '#server/modules/calendar/index.ts';
import { createCustomerRepository } from '#server/modules/customers/customer.repository.ts';
import { createDashboardRepository } from '#server/modules/dashboard/dashboard.repository.ts';
import { dashboardDays } from '#server/modules/dashboard/dashboard.service.ts';
import { customersQuery, propertiesQuery } from '#server/modules/map/map.repository.ts';
import { mapCustomerFiltersSchema, mapDefaults, mapWorkOrderFiltersSchema, type MapMatching } from '#shared/map.ts';
import { fittedView, mapRequestView, mapViewQuery } from '#shared/map-view.ts';
import { customerFiltersQuery, workOrderFiltersQuery } from '#client/features/map/map-filters.ts';
import { countCap } from '#server/db/count-cap.ts';
import { jsonRowsStatement } from '#server/db/json-rows.ts';
import { createWorkOrderRepository, searchCommonCount, searchCommonSpread, searchCountCap, searchRecentWindow } from '#server/modules/work-orders/work-order.repository.ts';
import { sessionCookieName } from '#server/plugins/session.ts';
import { databaseLabel, describeDatabase, ensureSeeded, openBenchDatabase, type BenchDatabase, type SeedInfo } from './database.ts';
import { measureExports, printExportReport } from './export.ts';
import { measureLiveLatency, type LiveLatency } from './live-latency.ts';
import {
  benchAdmin,
  fixed,
  formatTable,
  readMemory,
  runDriverLoad,
  runHttpLoad,
  startBuiltServer,
  type HttpMeasurement,
  type Measurement,
  type MemoryFigures,
  type ServerProcess,
} from './lib.ts';

// Endpoints --------------------------------------------------------------------------------------

/** What the SQL parameters may depend on. Grow it (a customer id, a search term...) as endpoints need. */
type BenchContext = {
  /** sha256 of the session token the driver-side requests use (a session row made for the purpose). */
  tokenHash: string;
  /** The demo customer with the most work orders in the data dir: the heaviest ordinary profile. */
  customerId: string;
  /** The demo work order with the most tasks in the data dir: the heaviest ordinary detail page. */
  workOrderId: string;
  /**
   * The map views' query strings as the screen asks after its first load (filters, then the box and
   * zoom of the fitted view of all markers): found from the server once it runs (resolveMapViews).
   */
  mapQueries?: { properties: string; customers: string };
};

/** One statement an endpoint runs, written out as the driver receives it from Drizzle. */
type SqlStatement = {
  text: string;
  /** Called for every execution, so time-dependent parameters (now) are fresh, as in the endpoint. */
  params: (context: BenchContext) => unknown[];
  /** Checked once before measuring, so the ceiling is not that of a query that finds nothing. */
  minRows?: number;
  /** The rows come as one JSON text (server/db/json-rows.ts): `minRows` counts the rows in it. */
  jsonRows?: true;
};

/**
 * A statement as a repository builds it: its text from the builder (the same for every context),
 * its parameters built afresh for the run's context.
 */
function fromBuilder(build: (context: BenchContext) => { sql: string; params: unknown[] }, minRows?: number): SqlStatement {
  const sample: BenchContext = { tokenHash: '', customerId: '00000000-0000-4000-8000-000000000000', workOrderId: '00000000-0000-4000-8000-000000000000' };
  return { text: build(sample).sql, params: (context) => build(context).params, minRows };
}

type Endpoint = {
  name: string;
  /** GET path on the server; /api/admin paths are sent with the session cookie. */
  path: string | ((context: BenchContext) => string);
  /** The statements one request runs, in order (an admin endpoint starts with the session lookup). */
  sql: SqlStatement[];
  /**
   * The same statements (after the session lookup) as the code builds them today, from the
   * repository's query builders (`.toSQL()`): checked against `sql` before measuring, so the
   * ceiling never silently measures SQL the endpoint no longer sends.
   */
  builtSql?: (context: BenchContext) => { sql: string; params: unknown[] }[];
  /** Shown under the table: what the driver ceiling leaves out, if anything. */
  note?: string;
  /** Request headers besides the session cookie (e.g. Accept-Encoding, as a browser sends it). */
  headers?: Record<string, string>;
};

/**
 * The session guard's lookup on every /api/admin request: AuthRepository.findLiveSession as Drizzle
 * sends it (timestamps go to the driver as ISO strings, the limit as a parameter).
 */
const sessionLookup: SqlStatement = {
  text:
    'select "sessions"."id", "sessions"."last_seen_at", "sessions"."expires_at", "staff_users"."id", "staff_users"."email", ' +
    '"staff_users"."name", "staff_users"."role" from "sessions" inner join "staff_users" on "staff_users"."id" = "sessions"."staff_user_id" ' +
    'where ("sessions"."token_hash" = $1 and "sessions"."expires_at" > $2 and "staff_users"."active" = $3) limit $4',
  params: ({ tokenHash }) => [tokenHash, new Date().toISOString(), true, 1],
  minRows: 1,
};

/** DashboardRepository's list reads: a work order with its customer, the first 5 by service date. */
const dashboardListColumns =
  'select "work_orders"."id", "work_orders"."work_order_number", "work_orders"."title", "work_orders"."status", "work_orders"."priority", ' +
  '"work_orders"."service_type", "work_orders"."service_date", "work_orders"."time_preference", "work_orders"."scheduled_start_time", ' +
  '"work_orders"."service_address", "work_orders"."service_city", "work_orders"."service_state", "work_orders"."service_zip", ' +
  '"customers"."id", "customers"."name", "customers"."phone", "customers"."address" from "work_orders" ' +
  'inner join "customers" on "customers"."id" = "work_orders"."customer_id"';
const dashboardByServiceDate = 'order by "work_orders"."service_date" asc, "work_orders"."created_at" asc, "work_orders"."id" asc limit $2';

/** The customer repository over a driver-less Drizzle: only to build queries and read their SQL. */
const customerQueries = createCustomerRepository(drizzle.mock({ schema }) as unknown as Database).queries;
/** The same for work orders. */
const workOrderQueries = createWorkOrderRepository(drizzle.mock({ schema }) as unknown as Database).queries;
const calendarQueries = createCalendarRepository(drizzle.mock({ schema }) as unknown as Database).queries;

/** The same for the dashboard. */
const dashboardQueries = createDashboardRepository(drizzle.mock({ schema }) as unknown as Database).queries;
/** The server's company time zone (TZ_BUSINESS, passed through to it, or the default). */
const businessTimeZone = loadConfig({ TZ_BUSINESS: process.env.TZ_BUSINESS }).businessTimeZone;
/** server/db/snapshot-cache.ts: the snapshot read before a kept answer is used (or computed). */
const snapshotCheck: SqlStatement = { text: 'select pg_current_snapshot()::text from (values (1)) as "now"', params: () => [], minRows: 1 };
/** What a browser sends: the answers kept per snapshot go out gzipped to it (server/lib/compressed-json.ts). */
const browserEncodings = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const keptAnswerNote =
  'the driver runs every statement of a computation; the endpoint runs only the session lookup and the snapshot check while no ' +
  'transaction commits (its answer is kept per snapshot, server/db/snapshot-cache.ts), so it may exceed its driver ceiling';

/** The calendar's week (Sunday to Sunday, FullCalendar's default) and month grid (six weeks) around today. */
function calendarRanges() {
  const today = todayIn(businessTimeZone);
  const weekStart = addDays(today, -new Date(`${today}T12:00:00Z`).getUTCDay());
  const first = monthStart(today);
  const gridStart = addDays(first, -new Date(`${first}T12:00:00Z`).getUTCDay());
  return { week: { start: weekStart, end: addDays(weekStart, 7) }, month: { start: gridStart, end: addDays(gridStart, 42) } };
}

/** The dashboard's calendar days at this moment, as the endpoint computes them per request. */
const dashboardDaysNow = () => dashboardDays(businessTimeZone, new Date());

/** The work-order list's totals without a search are kept per snapshot (WorkOrderService.list, decision 026-a). */
const workOrderTotalNote =
  'the driver reads the page and the total; while no transaction commits the endpoint reads only the session and the page (the total ' +
  'is kept for the page\'s snapshot)';
/** A search's answers are kept per snapshot (CustomerService.list and WorkOrderService.list, decision 026-b addendum 3). */
const searchAnswerNote =
  'the driver runs the search statement (its cost whenever data changed since the same search); while no transaction commits the ' +
  'endpoint reads only the session and the snapshot (the answer is kept per snapshot, server/db/snapshot-cache.ts)';
/** The work-order list's default page size (workOrderListQuerySchema). */
const workOrderPageSize = 25;
/**
 * A three-letter fragment of titles: 'tun' (tune-up) matches about 7% of the demo work orders
 * (7,506 of 100,900), and no customer name or phone: more than the count cap, so the first page
 * comes from the newest work orders in index order.
 */
const workOrderSearchText = 'tun';
const workOrderSearchPattern = `%${workOrderSearchText}%`;
/** A work-order number fragment: a handful of matches (WO-10520 ... WO-10529, WO-105200 ...), under the count cap. */
const workOrderRareSearchText = 'WO-1052';
const workOrderRareSearchPattern = `%${workOrderRareSearchText}%`;

/** A page read as one JSON text (server/db/json-rows.ts, decision 026-a), as jsonRows sends it. */
const asJsonRows = (page: string) =>
  `select coalesce(json_agg("page"), '[]')::text as "rows", pg_current_snapshot()::text as "snapshot" from ((${page})) as "page"`;
/** The same built from a repository's page (for `builtSql`). */
function builtJsonRows(page: SQLWrapper): { sql: string; params: unknown[] } {
  const { sql, params } = new PgDialect().sqlToQuery(jsonRowsStatement(page));
  return { sql, params };
}

const workOrderListColumns =
  'select "work_orders"."id" as "id", "work_orders"."work_order_number" as "workOrderNumber", "work_orders"."title" as "title", ' +
  '"work_orders"."description" as "description", "work_orders"."status" as "status", "work_orders"."priority" as "priority", ' +
  '"work_orders"."service_type" as "serviceType", "work_orders"."service_date" as "serviceDate", "work_orders"."updated_at" as "updatedAt", ' +
  '"work_orders"."service_address" as "serviceAddress", "work_orders"."service_city" as "serviceCity", "work_orders"."service_state" as "serviceState", ' +
  '"work_orders"."service_zip" as "serviceZip", json_build_object(\'id\', "customers"."id", \'name\', "customers"."name", ' +
  '\'phone\', "customers"."phone", \'address\', "customers"."address") as "customer"';
const workOrderNewestFirst = 'order by "work_orders"."service_date" desc, "work_orders"."created_at" desc, "work_orders"."id" desc';
/**
 * WorkOrderRepository's search page (decisions 023-a, 024-b): one statement over work_order_search,
 * the matches read as far as needed: a common word (its first 101 matches early in the table) is
 * counted to 101 and its page read from the newest work orders in index order; any other word is
 * counted up to the cap and its page is the few matches sorted (or, past the cap, from the newest
 * work orders). A common word and a rare one send the same text.
 */
const workOrderSearchStatement = asJsonRows(
  `${workOrderListColumns}, "page"."matches" as "matches", "page"."common" as "common" from (with "matching" as (select "work_order_search"."work_order_id", ` +
    '"work_order_search"."service_date", "work_order_search"."created_at", "work_order_search".ctid from "work_order_search" ' +
    'where "work_order_search"."search_text" like lower($1) limit $2), "sampled" as materialized (select coalesce((select (("beyond".ctid::text::point)[0] + 1) * $3 ' +
    '<= "pages".relpages from (select "matching".ctid from "matching" offset $4 limit 1) as "beyond", pg_class as "pages" ' +
    'where "pages".oid = \'work_order_search\'::regclass), false) as "common"), "counted" as materialized (select case when "sampled"."common" then $5 ' +
    'else (select count(*)::int from "matching") end as "matches", "sampled"."common" from "sampled") select "ids"."work_order_id", ' +
    '"counted"."matches", "counted"."common" from "counted" cross join lateral ( (select "matching"."work_order_id" from "matching" ' +
    'where not "counted"."common" and "counted"."matches" <= $6 order by "matching"."service_date" desc, "matching"."created_at" desc, ' +
    '"matching"."work_order_id" desc limit $7 offset $8) union all (select "recent"."work_order_id" from (select "work_order_search"."work_order_id", ' +
    '"work_order_search"."search_text" from "work_order_search" order by "work_order_search"."service_date" desc, "work_order_search"."created_at" desc, ' +
    '"work_order_search"."work_order_id" desc limit $9) as "recent" where ("counted"."common" or "counted"."matches" > $10) and ' +
    '"recent"."search_text" like lower($11) limit $12 offset $13) ) as "ids") as "page" ' +
    'inner join "work_orders" on "work_orders"."id" = "page"."work_order_id" inner join "customers" on "customers"."id" = "work_orders"."customer_id" ' +
    workOrderNewestFirst,
);
/** Its parameters for the first page of a search. */
const workOrderSearchParams = (pattern: string) => [
  pattern,
  searchCountCap + 1,
  searchCommonSpread,
  searchCommonCount,
  searchCommonCount + 1,
  searchCountCap,
  workOrderPageSize,
  0,
  searchRecentWindow,
  searchCountCap,
  pattern,
  workOrderPageSize,
  0,
];

/**
 * A three-letter fragment as staff type it. In the demo data 'mar' matches about 15% of the
 * customers (Mary, Mark, Marshall; Marsh, Marshland Rd...): a broad search, so the sort and the count do real work.
 */
const customerSearchText = 'mar';
const customerSearchPattern = `%${customerSearchText}%`;
const customerPageSize = 50;

/** Add an entry per endpoint to measure; each gets its own driver ceiling. */
const endpoints: Endpoint[] = [
  {
    name: 'signed-in session read',
    path: '/api/admin/session',
    sql: [sessionLookup],
    note: 'the endpoint also updates sessions.last_seen_at, at most once a minute per session (left out of the ceiling)',
  },
  {
    name: 'customer search',
    path: `/api/admin/customers?search=${customerSearchText}`,
    // CustomerRepository.directory: one statement over customer_search, the page and the matches counted up to the cap (decision 023-a).
    sql: [
      sessionLookup,
      {
        text:
          'select "customers"."id", "customers"."name", "customers"."type", "customers"."phone", "customers"."email", "customers"."address", ' +
          '"customers"."city", "customers"."state", "customers"."zip", (select count(*)::int from (select "customer_id" from "customer_search" ' +
          'where "customer_search"."search_text" like $1 limit $2) "matching") from (select "customer_id", "sort_name" from "customer_search" ' +
          'where "customer_search"."search_text" like $3 order by "customer_search"."sort_name" asc, "customer_search"."customer_id" asc limit $4) "page" ' +
          'inner join "customers" on "customers"."id" = "page"."customer_id" order by "page"."sort_name" asc, "page"."customer_id" asc',
        params: () => [customerSearchPattern, countCap + 1, customerSearchPattern, customerPageSize],
        minRows: 1,
      },
    ],
    builtSql: () => [customerQueries.directorySearchPage(customerSearchText, 1, customerPageSize).toSQL()],
    note: searchAnswerNote,
  },
  {
    name: 'customer profile',
    path: ({ customerId }) => `/api/admin/customers/${customerId}`,
    // CustomerService.profile: the customer, its equipment, photos and latest 100 work orders, from
    // the repository's own builders.
    sql: [
      sessionLookup,
      fromBuilder((context) => customerQueries.customer(context.customerId).toSQL(), 1),
      fromBuilder((context) => customerQueries.equipment(context.customerId).toSQL()),
      fromBuilder((context) => customerQueries.photos(context.customerId).toSQL()),
      fromBuilder((context) => customerQueries.workOrders(context.customerId, 100).toSQL(), 1),
    ],
  },
  {
    name: 'work-order list',
    path: '/api/admin/work-orders',
    // WorkOrderRepository.list: the first page in index order (one JSON text), then the total from
    // the kept counts, kept per snapshot by the service (the driver runs it every time).
    sql: [
      sessionLookup,
      {
        text: asJsonRows(`${workOrderListColumns} from "work_orders" inner join "customers" on "customers"."id" = "work_orders"."customer_id" ${workOrderNewestFirst} limit $1`),
        params: () => [workOrderPageSize],
        minRows: workOrderPageSize,
        jsonRows: true,
      },
      { text: 'select coalesce(sum("count"), 0)::int from "work_order_status_counts"', params: () => [], minRows: 1 },
    ],
    builtSql: () => [builtJsonRows(workOrderQueries.listPage('all', 1, workOrderPageSize)), workOrderQueries.listTotal('all').toSQL()],
    note: workOrderTotalNote,
  },
  {
    name: 'work-order list by status',
    path: '/api/admin/work-orders?status=scheduled',
    sql: [
      sessionLookup,
      {
        text: asJsonRows(
          `${workOrderListColumns} from "work_orders" inner join "customers" on "customers"."id" = "work_orders"."customer_id" ` +
            `where "work_orders"."status" = $1 ${workOrderNewestFirst} limit $2`,
        ),
        params: () => ['scheduled', workOrderPageSize],
        minRows: workOrderPageSize,
        jsonRows: true,
      },
      {
        text: 'select coalesce(sum("count"), 0)::int from "work_order_status_counts" where "work_order_status_counts"."status" = $1',
        params: () => ['scheduled'],
        minRows: 1,
      },
    ],
    builtSql: () => [builtJsonRows(workOrderQueries.listPage('scheduled', 1, workOrderPageSize)), workOrderQueries.listTotal('scheduled').toSQL()],
    note: workOrderTotalNote,
  },
  {
    name: 'work-order search',
    path: `/api/admin/work-orders?search=${workOrderSearchText}`,
    // A common word: the matches counted up to the cap (1,000+), and the page read from the newest
    // work orders in index order, stopping at the page's end; one statement (decision 023-a).
    sql: [sessionLookup, { text: workOrderSearchStatement, params: () => workOrderSearchParams(workOrderSearchPattern), minRows: workOrderPageSize, jsonRows: true }],
    builtSql: () => [builtJsonRows(workOrderQueries.searchPage('first', 'all', workOrderSearchText, 1, workOrderPageSize))],
    note: searchAnswerNote,
  },
  {
    name: 'work-order search, rare word',
    path: `/api/admin/work-orders?search=${workOrderRareSearchText}`,
    // Under the cap: the few matches counted and sorted on their own, in the same statement.
    sql: [sessionLookup, { text: workOrderSearchStatement, params: () => workOrderSearchParams(workOrderRareSearchPattern), minRows: 1, jsonRows: true }],
    builtSql: () => [builtJsonRows(workOrderQueries.searchPage('first', 'all', workOrderRareSearchText, 1, workOrderPageSize))],
    note: searchAnswerNote,
  },
  {
    name: 'work-order detail',
    path: ({ workOrderId }) => `/api/admin/work-orders/${workOrderId}`,
    // WorkOrderRepository.detail: the work order with customer, technician, equipment and possible
    // match; the latest report; the tasks; the technician app's completion and notes; the steps'
    // history. Six statements, taken from the repository's own builders (they run in parallel).
    sql: [
      sessionLookup,
      fromBuilder((context) => workOrderQueries.detail(context.workOrderId).toSQL(), 1),
      fromBuilder((context) => workOrderQueries.latestInspection(context.workOrderId).toSQL()),
      fromBuilder((context) => workOrderQueries.tasks(context.workOrderId).toSQL(), 1),
      fromBuilder((context) => workOrderQueries.completion(context.workOrderId).toSQL()),
      fromBuilder((context) => workOrderQueries.techNotes(context.workOrderId).toSQL()),
      fromBuilder((context) => workOrderQueries.history(context.workOrderId).toSQL()),
    ],
  },
  {
    name: 'calendar week',
    headers: browserEncodings,
    path: () => `/api/admin/calendar/events?start=${calendarRanges().week.start}&end=${calendarRanges().week.end}`,
    // CalendarService.range: the visible week's appointments with customer and technician.
    sql: [
      sessionLookup,
      snapshotCheck,
      fromBuilder(() => calendarQueries.range(calendarRanges().week.start, calendarRanges().week.end).toSQL(), 1),
    ],
    builtSql: () => [dashboardQueries.snapshot().toSQL(), calendarQueries.range(calendarRanges().week.start, calendarRanges().week.end).toSQL()],
    note: keptAnswerNote,
  },
  {
    name: 'calendar month',
    headers: browserEncodings,
    path: () => `/api/admin/calendar/events?start=${calendarRanges().month.start}&end=${calendarRanges().month.end}`,
    // The month view's six weeks.
    sql: [
      sessionLookup,
      snapshotCheck,
      fromBuilder(() => calendarQueries.range(calendarRanges().month.start, calendarRanges().month.end).toSQL(), 1),
    ],
    builtSql: () => [dashboardQueries.snapshot().toSQL(), calendarQueries.range(calendarRanges().month.start, calendarRanges().month.end).toSQL()],
    note: keptAnswerNote,
  },
  {
    name: 'dashboard',
    path: '/api/admin/dashboard',
    // DashboardService.summary: the snapshot check, then (when a transaction committed since the
    // last answer) every count in one statement and the three lists of 5.
    sql: [
      sessionLookup,
      snapshotCheck,
      {
        text:
          'select (select coalesce(sum("count"), 0) from "work_order_status_counts" where "work_order_status_counts"."status" = $1), ' +
          '(select coalesce(sum("count"), 0) from "work_order_status_counts" where "work_order_status_counts"."status" = $2), ' +
          '(select count(*) from "work_orders" where "work_orders"."service_date" = $3), ' +
          '(select count(*) from "work_orders" where ("work_orders"."status" = $4 and ("work_orders"."completed_at" >= (($5::date)::timestamp at time zone $6) ' +
          'and "work_orders"."completed_at" < (($7::date)::timestamp at time zone $8)))), ' +
          '(select coalesce(sum("count"), 0) from "work_order_status_counts"), (select count(*) from "customers"), ' +
          '(select count(*) from "estimate_requests" where "estimate_requests"."status" = $9), ' +
          '(select count(*) from "estimate_requests" where ("estimate_requests"."priority" = $10 and "estimate_requests"."status" in ($11, $12))), ' +
          '(select count(*) from "estimate_requests" where ("estimate_requests"."created_at" >= (($13::date)::timestamp at time zone $14) ' +
          'and "estimate_requests"."created_at" < (($15::date)::timestamp at time zone $16))), ' +
          '(select count(distinct "ai_conversations"."conversation_id") from "ai_conversations" where ("ai_conversations"."created_at" >= (($17::date)::timestamp at time zone $18) ' +
          'and "ai_conversations"."created_at" < (($19::date)::timestamp at time zone $20))) from (values (1)) as "dashboard"',
        params: () => {
          const days = dashboardDaysNow();
          const { timeZone: zone } = days;
          return [
            'pending', 'in-progress', days.today, 'completed', days.monthStart, zone, days.nextMonthStart, zone,
            'pending', 'urgent', 'pending', 'contacted', days.weekStart, zone, days.tomorrow, zone, days.today, zone, days.tomorrow, zone,
          ];
        },
        minRows: 1,
      },
      {
        text: `${dashboardListColumns} where "work_orders"."status" = $1 ${dashboardByServiceDate}`,
        params: () => ['in-progress', dashboardListLimit],
        minRows: 1,
      },
      {
        text:
          `${dashboardListColumns} where "work_orders"."service_date" = $1 order by (case "work_orders"."time_preference" when 'morning' then 0 ` +
          `when 'afternoon' then 1 when 'anytime' then 2 end), "work_orders"."scheduled_start_time" asc nulls last, "work_orders"."created_at" asc, ` +
          '"work_orders"."id" asc limit $2',
        params: () => [dashboardDaysNow().today, dashboardListLimit],
        minRows: 1,
      },
      {
        text: `${dashboardListColumns} where "work_orders"."status" = $1 ${dashboardByServiceDate}`,
        params: () => ['pending', dashboardListLimit],
        minRows: 1,
      },
    ],
    builtSql: () => {
      const days = dashboardDaysNow();
      return [
        dashboardQueries.snapshot().toSQL(),
        dashboardQueries.figures(days).toSQL(),
        dashboardQueries.byStatus('in-progress', dashboardListLimit).toSQL(),
        dashboardQueries.today(days.today, dashboardListLimit).toSQL(),
        dashboardQueries.byStatus('pending', dashboardListLimit).toSQL(),
      ];
    },
    note: keptAnswerNote,
  },
];

// The service map (issue 9) ----------------------------------------------------------------------

/**
 * The service map's two views at 20,000 geocoded customers (MapService.properties and .customers,
 * docs/decisions/016-c-map-data.md and 023-c-map-clusters.md), default filters, asked for as the
 * screen asks after its first load: the box and zoom of the view fitted to all markers in a map of
 * `mapBenchViewport` pixels (resolveMapViews). A request runs the session lookup and the snapshot
 * check; while nothing commits, the answer kept for the snapshot and view (JSON bytes and their gzip
 * copy) is sent. The driver ceiling runs the whole computation: one statement that builds every
 * marker of the view as JSON (then clustered once per snapshot in the server). Its text comes from
 * the repository's own builder (it is long and generated from the filter set), so it is always the
 * SQL the endpoint sends. Requests accept gzip, as browsers do.
 */
function mapEndpoints(): Endpoint[] {
  const dialect = new PgDialect();
  const statement = (query: SQL): SqlStatement => {
    const built = dialect.sqlToQuery(query);
    return { text: built.sql, params: () => built.params, minRows: 1 };
  };
  const note =
    'the driver builds every marker of the filter set (one statement), which the server clusters once per snapshot; the endpoint runs ' +
    'only the session lookup and the snapshot check while no transaction commits and sends the kept gzip answer for the view, so it ' +
    'exceeds its driver ceiling';
  const headers = browserEncodings;
  const query = (context: BenchContext) => {
    if (!context.mapQueries) throw new Error('The map views were not resolved (resolveMapViews) before measuring.');
    return context.mapQueries;
  };
  return [
    {
      name: 'map properties',
      path: (context) => `/api/admin/map/properties?${query(context).properties}`,
      headers,
      sql: [sessionLookup, snapshotCheck, statement(propertiesQuery(mapWorkOrderFiltersSchema.parse({}), undefined, todayIn(businessTimeZone)))],
      note,
    },
    {
      name: 'map customers',
      path: (context) => `/api/admin/map/customers?${query(context).customers}`,
      headers,
      sql: [sessionLookup, snapshotCheck, statement(customersQuery(mapCustomerFiltersSchema.parse({})))],
      note,
    },
  ];
}

/**
 * The map's box in the browser bench's window (bench/map.ts: 1440 x 900), measured there: 65vh
 * high less its border, as wide as the page's content column.
 */
const mapBenchViewport = { width: 1246, height: 583 };

/**
 * What the screen asks on first load, per view: the default view (centre and zoom of mapDefaults),
 * whose answer carries the bounds of all markers; then the view fitted to them (at most zoom 16),
 * which is what it shows and asks for from then on. The second is measured.
 */
async function resolveMapViews(baseUrl: string, cookie: string, context: BenchContext): Promise<void> {
  const size = mapBenchViewport;
  const [latitude, longitude] = mapDefaults.center;
  // A map of that size at the default centre and zoom (a fit to one point, stopped at the default zoom).
  const start = fittedView([[latitude, longitude], [latitude, longitude]], size, { padding: 0, maxZoom: mapDefaults.zoom });
  const fitted = async (path: string, filters: string): Promise<string> => {
    const first = `${filters}&${mapViewQuery(mapRequestView(start.edges, start.zoom))}`;
    const response = await fetch(`${baseUrl}${path}?${first}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`GET ${path}?${first} answered ${response.status}: ${await response.text()}`);
    const { matching } = (await response.json()) as { matching: MapMatching };
    if (!matching.bounds) throw new Error(`GET ${path} has no markers to fit to.`);
    const view = fittedView(matching.bounds, size, { padding: mapDefaults.fitPaddingPx, maxZoom: mapDefaults.maxFitZoom });
    return `${filters}&${mapViewQuery(mapRequestView(view.edges, view.zoom))}`;
  };
  context.mapQueries = {
    properties: await fitted('/api/admin/map/properties', workOrderFiltersQuery(mapWorkOrderFiltersSchema.parse({}))),
    customers: await fitted('/api/admin/map/customers', customerFiltersQuery(mapCustomerFiltersSchema.parse({}))),
  };
}

endpoints.push(...mapEndpoints());

/** The endpoints this run measures: all, or those --only names. */
function selectedEndpoints(options: Options): Endpoint[] {
  if (!options.only) return endpoints;
  if (options.only === 'probe') return [];
  const selected = endpoints.filter((endpoint) => endpoint.name.includes(options.only!));
  if (selected.length === 0 && selectedPublicPosts(options).length === 0) {
    const names = [...endpoints, ...publicPosts].map((measured) => measured.name).join(', ');
    throw new UsageError(`--only ${options.only} matches no endpoint (${names}).`);
  }
  return selected;
}

/** The public POSTs this run measures: all, or those --only names ('chat booking', 'chat reply'). */
function selectedPublicPosts(options: Options): PublicPost[] {
  if (!options.only) return publicPosts;
  return publicPosts.filter((post) => post.name.includes(options.only!));
}

function endpointPath(endpoint: Endpoint, context: BenchContext): string {
  return typeof endpoint.path === 'string' ? endpoint.path : endpoint.path(context);
}

/** Stops the run when the written-out SQL differs from what the repository builds now. */
function assertSqlIsCurrent(endpoint: Endpoint, context: BenchContext): void {
  if (!endpoint.builtSql) return;
  const written = endpoint.sql.filter((statement) => statement !== sessionLookup).map((statement) => ({ sql: statement.text, params: statement.params(context) }));
  const built = endpoint.builtSql(context);
  if (JSON.stringify(written) !== JSON.stringify(built)) {
    throw new Error(`${endpoint.name}: the SQL written out in bench/api.ts is not what the code sends now:\n${JSON.stringify(built, null, 2)}`);
  }
}

/** Public endpoints visitors POST to: measured over HTTP only (each writes rows; no driver ceiling). */
type PublicPost = {
  name: string;
  path: string;
  body: Record<string, unknown>;
  /** For endpoints that create records: a fixed number of requests, so each run adds a bounded amount. */
  amount?: number;
};

const benchBookingSession = 'bench-booking-session';

const publicPosts: PublicPost[] = [
  {
    name: 'chat reply (rule-based)',
    path: '/api/public/chat/messages',
    // A new session each run: real conversations are a handful of messages, not every run's thousands.
    body: { message: "My AC isn't cooling, can someone come this week?", sessionId: `bench-chat-${Date.now().toString(36)}` },
    // Bounded: on a quiet machine the replies outran the server's per-address limit (at most
    // 10,000 a minute) within the measured seconds, and the 429s stopped the run.
    amount: 4000,
  },
  {
    name: 'chat booking',
    path: '/api/public/chat/bookings',
    body: {
      sessionId: benchBookingSession,
      name: 'Bench Booker',
      phone: '843-555-0100',
      email: 'bench.booker@example.com',
      address: '1 Benchmark Way, Bluffton, SC 29910',
      serviceType: 'repair',
      description: 'Benchmark booking',
    },
    amount: 300,
  },
];

// Settings ---------------------------------------------------------------------------------------

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDataDir = path.join(projectRoot, 'bench/.data');

const benchUser = benchAdmin;
const host = '127.0.0.1';
/** Each measurement is preceded by this much unmeasured load (JIT, caches, connection set-up). */
const warmupSeconds = 1;
/** Estimate submits timed from POST to their change event on a staff stream. */
const liveLatencySamples = 200;

/** DESIGN.md section 7 (embedded database); issue 17: reads p99 <= 20 ms on PostgreSQL. Public writes keep 50 ms on both. */
/** `healthzUnderLoadP99Ms`: issue 17's bar for the embedded database (its work off the event loop); on PostgreSQL the probe is printed without a bar. */
type Bars = { p99Ms: number; publicPostP99Ms: number; endpointOverDriver: number; startupMs: number; peakRssMb: number; healthzUnderLoadP99Ms: number | undefined };
const pgliteBars: Bars = { p99Ms: 50, publicPostP99Ms: 100, endpointOverDriver: 0.5, startupMs: 2000, peakRssMb: 600, healthzUnderLoadP99Ms: 10 };
const postgresBars: Bars = { ...pgliteBars, p99Ms: 20, healthzUnderLoadP99Ms: undefined };

const usage =
  'Usage: npx tsx bench/api.ts [--customers N] [--work-orders N] [--duration S] [--connections C] [--reseed] [--only NAME] [--database-url postgres://...]';

type Options = {
  customers: number;
  workOrders: number;
  durationSeconds: number;
  connections: number;
  reseed: boolean;
  only: string | undefined;
  /** PostgreSQL instead of the embedded database. */
  databaseUrl: string | undefined;
};

function parseOptions(): Options {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        customers: { type: 'string', default: '20000' },
        'work-orders': { type: 'string', default: '100000' },
        duration: { type: 'string', default: '10' },
        connections: { type: 'string', default: '10' },
        reseed: { type: 'boolean', default: false },
        /** Measure only the endpoints and public POSTs whose name contains this ('chat booking'): a quick check of one. `export`: the CSV exports. */
        only: { type: 'string' },
        /** A PostgreSQL database (empty, or seeded by an earlier run) instead of a PGlite data dir. */
        'database-url': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return {
    customers: wholeNumber(values.customers, 'customers', 1),
    workOrders: wholeNumber(values['work-orders'], 'work-orders', 0),
    durationSeconds: wholeNumber(values.duration, 'duration', 1),
    connections: wholeNumber(values.connections, 'connections', 1),
    reseed: values.reseed,
    only: values.only,
    databaseUrl: postgresUrl(values['database-url']),
  };
}

function postgresUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(value)) throw new UsageError(`--database-url must be a postgres:// URL (got "${value}").\n${usage}`);
  return value;
}

function wholeNumber(value: string, name: string, minimum: number): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < minimum) {
    throw new UsageError(`--${name} must be a whole number >= ${minimum} (got "${value}").\n${usage}`);
  }
  return parsed;
}

class UsageError extends Error {}

// Step 1: the data (bench/database.ts) -----------------------------------------------------------

function benchDatabase(options: Options): BenchDatabase {
  if (options.databaseUrl) return { kind: 'postgres', url: options.databaseUrl };
  return { kind: 'pglite', dataDir: path.join(benchDataDir, `pglite-c${options.customers}-w${options.workOrders}`) };
}

// Step 2: driver ceilings -----------------------------------------------------------------------

/**
 * Runs before the server starts: PGlite admits one process per data dir. On PostgreSQL the driver
 * is a node-postgres pool with one connection per query in flight. The driver side uses a session
 * row of its own (same user, same shape as a login's), deleted afterwards.
 */
async function measureDriverCeilings(target: BenchDatabase, options: Options): Promise<{ ceilings: Map<string, Measurement>; context: BenchContext }> {
  const handle = await openBenchDatabase(target, options.connections);
  const where = describeDatabase(target);
  const repository = createAuthRepository(handle.db);
  const tokenHash = hashToken(`bench-driver-${process.pid}-${Date.now()}-${Math.random()}`);
  const ceilings = new Map<string, Measurement>();
  let context: BenchContext;
  try {
    const user = await repository.findStaffByEmail(benchUser.email);
    if (!user) throw new Error(`The bench user ${benchUser.email} is missing from ${where}; run with --reseed.`);
    const now = new Date();
    await repository.insertSession({ tokenHash, staffUserId: user.id, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + 12 * 3_600_000) });
    // Leaving out the customer the chat-booking measurement books for (300 more work orders every
    // run), so the profile measured is the same from run to run.
    const [busiest] = await handle.query<{ customer_id: string }>(
      'select customer_id from work_orders where customer_id not in ' +
        '(select customer_id from ai_leads where conversation_id = $1 and customer_id is not null) ' +
        'group by customer_id order by count(*) desc, customer_id limit 1',
      [benchBookingSession],
    );
    if (!busiest) throw new Error(`No work orders in ${where}; run with --work-orders > 0.`);
    const [mostTasks] = await handle.query<{ work_order_id: string }>(
      'select work_order_id from work_order_tasks group by work_order_id order by count(*) desc, work_order_id limit 1',
    );
    if (!mostTasks) throw new Error(`No work order tasks in ${where}; run with --reseed.`);
    context = { tokenHash, customerId: busiest.customer_id, workOrderId: mostTasks.work_order_id };

    for (const endpoint of selectedEndpoints(options)) {
      assertSqlIsCurrent(endpoint, context);
      for (const [index, statement] of endpoint.sql.entries()) {
        const rows = await handle.query<{ rows?: string }>(statement.text, statement.params(context));
        const found = statement.jsonRows ? (JSON.parse(rows[0]?.rows ?? '[]') as unknown[]).length : rows.length;
        if (found < (statement.minRows ?? 0)) {
          throw new Error(`${endpoint.name}: statement ${index + 1} returned ${found} rows, expected at least ${statement.minRows}.`);
        }
      }
      const steps = endpoint.sql.map((statement) => ({ text: statement.text, params: () => statement.params(context) }));
      console.log(`Driver SQL   ${endpoint.name}: ${options.connections} in flight for ${options.durationSeconds} s...`);
      await runDriverLoad(handle.query, steps, { concurrency: options.connections, seconds: warmupSeconds });
      ceilings.set(endpoint.name, await runDriverLoad(handle.query, steps, { concurrency: options.connections, seconds: options.durationSeconds }));
    }
  } finally {
    await repository.deleteSessionByTokenHash(tokenHash).catch(() => undefined);
    await handle.close();
  }
  return { ceilings, context };
}

// Steps 3 to 6: the server ----------------------------------------------------------------------

let runningServer: ServerProcess | undefined;

/**
 * On PGlite the server opens the seeded data dir; on PostgreSQL it connects with DATABASE_URL and
 * keeps its uploads and outbox in a data dir of its own (a temporary one, removed afterwards).
 */
async function startBenchServer(target: BenchDatabase): Promise<ServerProcess> {
  console.log(`Starting the server on ${host} (${databaseLabel(target)})...`);
  const dataDir = target.kind === 'pglite' ? target.dataDir : fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-api-bench-'));
  const removeDataDir = () => {
    if (target.kind === 'postgres') fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let server: ServerProcess;
  try {
    server = await startServerFor(target, dataDir);
  } catch (error) {
    removeDataDir();
    throw error;
  }
  const stop = server.stop;
  runningServer = { ...server, stop: () => stop().finally(removeDataDir) };
  return runningServer;
}

function startServerFor(target: BenchDatabase, dataDir: string): Promise<ServerProcess> {
  return startBuiltServer(dataDir, {
    ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}),
    // The per-address limits of public endpoints would stop a load test from one address.
    CHAT_MESSAGE_LIMIT: '10000',
    PUBLIC_FORM_LIMIT: '10000',
    // Whatever the calling shell has set, this run uses its own staff account (made by the seed step).
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
  });
}

async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchUser.email, password: benchUser.password }),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`Sign-in answered ${response.status}: ${body}`);
  for (const header of response.headers.getSetCookie()) {
    const match = new RegExp(`^${sessionCookieName}=([^;]+)`).exec(header);
    if (match) return `${sessionCookieName}=${match[1]}`;
  }
  throw new Error(`Sign-in answered 200 without a ${sessionCookieName} cookie.`);
}

async function signOut(baseUrl: string, cookie: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/auth/logout`, { method: 'POST', headers: { cookie } });
  await response.arrayBuffer();
  // Housekeeping only (keeps the data dir from collecting sessions): a failure is reported, not fatal.
  if (response.status !== 204) console.warn(`Warning: sign-out answered ${response.status}.`);
}

/** One request outside the load, so a wrong path or a lost session fails with its body shown. */
async function checkAnswers(url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status < 200 || response.status > 299) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 500)}`);
}

async function measureHttp(label: string, url: string, headers: Record<string, string>, options: Options): Promise<HttpMeasurement> {
  await checkAnswers(url, headers);
  console.log(`HTTP         ${label}: ${options.connections} connections for ${options.durationSeconds} s...`);
  const load = { url, headers, connections: options.connections };
  const warmup = await runHttpLoad({ ...load, seconds: warmupSeconds });
  assertAllAnswered(`${label} (warm-up)`, warmup);
  const measured = await runHttpLoad({ ...load, seconds: options.durationSeconds });
  assertAllAnswered(label, measured);
  return measured;
}

function assertAllAnswered(label: string, measurement: HttpMeasurement): void {
  if (measurement.non2xx > 0 || measurement.errors > 0) {
    throw new Error(
      `${label}: ${measurement.non2xx} non-2xx answers and ${measurement.errors} connection errors out of ${measurement.requests} ` +
        `(status codes ${JSON.stringify(measurement.statusCodes)}).`,
    );
  }
}

// Step 6: the /healthz probe under load -----------------------------------------------------------

/** The heaviest reads (decision 020-g): while they run at full load, a probe asks GET /healthz. */
const heavyEndpointNames = ['customer search', 'work-order search', 'calendar month', 'map customers'];
const probeIdleSeconds = 3;

type ProbeFigures = Measurement & { maxMs: number };
type HealthzProbe = {
  idle: ProbeFigures;
  underLoad: ProbeFigures;
  /** What the heavy endpoints answered meanwhile. */
  load: { name: string; connections: number; requestsPerSecond: number; p99Ms: number }[];
};

/** bench/healthz-probe.ts in its own process: one request at a time, timed outside the load generator. */
function runProbe(url: string, seconds: number): Promise<ProbeFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'bench/healthz-probe.ts'), url, String(seconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as ProbeFigures) : reject(new Error(`the /healthz probe exited with ${code}`))));
  });
}

/**
 * GET /healthz answered one at a time, first on an idle server (the baseline), then while the
 * heavy endpoints share the run's connections at full load: the event loop's own delay.
 */
async function measureHealthzUnderLoad(baseUrl: string, cookie: string, context: BenchContext, options: Options): Promise<HealthzProbe> {
  const heavy = heavyEndpointNames.map((name) => endpoints.find((endpoint) => endpoint.name === name)!);
  console.log(`Probe        GET /healthz alone for ${probeIdleSeconds} s, then under ${heavy.map((endpoint) => endpoint.name).join(', ')} at ${options.connections} connections for ${options.durationSeconds} s...`);
  const idle = await runProbe(`${baseUrl}/healthz`, probeIdleSeconds);
  const share = (index: number) => Math.floor(options.connections / heavy.length) + (index < options.connections % heavy.length ? 1 : 0);
  const loads = heavy.map((endpoint, index) => ({ endpoint, connections: Math.max(1, share(index)) }));
  const [underLoad, ...measured] = await Promise.all([
    // The load has warmed up (each endpoint was measured before); the probe starts with it.
    runProbe(`${baseUrl}/healthz`, options.durationSeconds),
    ...loads.map(({ endpoint, connections }) =>
      runHttpLoad({ url: `${baseUrl}${endpointPath(endpoint, context)}`, headers: { cookie, ...endpoint.headers }, connections, seconds: options.durationSeconds }),
    ),
  ]);
  measured.forEach((measurement, index) => assertAllAnswered(`GET ${endpointPath(loads[index]!.endpoint, context)} (under the probe)`, measurement as HttpMeasurement));
  return {
    idle,
    underLoad: underLoad as ProbeFigures,
    load: loads.map(({ endpoint, connections }, index) => ({
      name: endpoint.name,
      connections,
      requestsPerSecond: (measured[index] as HttpMeasurement).requestsPerSecond,
      p99Ms: (measured[index] as HttpMeasurement).p99Ms,
    })),
  };
}

// Step 7: report ---------------------------------------------------------------------------------

type EndpointResult = {
  name: string;
  path: string;
  http: HttpMeasurement;
  driver: Measurement;
  /** Endpoint req/s ÷ constant-JSON req/s: how much of the framework's ceiling is left. */
  overConstantJson: number;
  /** Endpoint req/s ÷ driver req/s: the bar is >= 0.5. */
  overDriver: number;
  bars: { p99: boolean; overDriver: boolean };
  note?: string;
};

type Report = {
  ranAt: string;
  machine: { node: string; platform: string; cpus: number; cpuModel: string | undefined };
  options: Omit<Options, 'reseed' | 'databaseUrl'> & { warmupSeconds: number };
  database: { kind: BenchDatabase['kind']; where: string };
  seed: SeedInfo;
  constantJson: HttpMeasurement;
  endpoints: EndpointResult[];
  publicPosts: { name: string; path: string; http: HttpMeasurement; warmup: HttpMeasurement; p99Met: boolean }[];
  /** Issue 7: submit of an estimate request -> its change event reaching a connected staff stream. */
  liveLatency: LiveLatency | undefined;
  healthzProbe: (HealthzProbe & { bar: number | undefined; met: boolean }) | undefined;
  startup: { ms: number; bar: number; met: boolean };
  memory: (MemoryFigures & { bar: number; met: boolean }) | undefined;
  bars: Bars;
};

function verdict(met: boolean): string {
  return met ? 'ok' : 'MISSED';
}

function printReport(report: Report): void {
  const { bars } = report;
  const row = (name: string, measurement: Measurement, ...rest: string[]) => [
    name,
    fixed(measurement.requestsPerSecond, 0),
    fixed(measurement.p50Ms, 2),
    fixed(measurement.p99Ms, 2),
    ...rest,
  ];
  const rows = [row('GET /healthz (constant JSON)', report.constantJson, '', '', '')];
  for (const endpoint of report.endpoints) {
    rows.push(row(`SQL on the driver: ${endpoint.name}`, endpoint.driver, '', '', ''));
    rows.push(
      row(
        `GET ${endpoint.path}`,
        endpoint.http,
        fixed(endpoint.overConstantJson, 2),
        fixed(endpoint.overDriver, 2),
        `p99 ${verdict(endpoint.bars.p99)}, ÷driver ${verdict(endpoint.bars.overDriver)}`,
      ),
    );
  }
  const { options, machine } = report;
  console.log('');
  console.log(
    `API benchmark: ${report.seed.counts.customers} customers, ${report.seed.counts.workOrders} work orders (${report.database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}), ` +
      `${options.connections} connections x ${options.durationSeconds} s after ${options.warmupSeconds} s warm-up; ` +
      `Node ${machine.node}, ${machine.cpus} CPUs.`,
  );
  console.log('');
  console.log(formatTable(['measurement', 'req/s', 'p50 ms', 'p99 ms', '÷ const JSON', '÷ driver SQL', `bars (p99 <= ${bars.p99Ms} ms, ÷ driver >= ${bars.endpointOverDriver})`], rows));
  for (const endpoint of report.endpoints) if (endpoint.note) console.log(`  ${endpoint.path}: ${endpoint.note}.`);
  console.log('');
  console.log(
    formatTable(
      ['public endpoint (writes rows)', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'warm-up: requests, max ms', `bar (p99 <= ${bars.publicPostP99Ms} ms)`],
      report.publicPosts.map((post) => [
        `POST ${post.path} (${post.name})`,
        String(post.http.requests),
        fixed(post.http.requestsPerSecond, 0),
        fixed(post.http.p50Ms, 2),
        fixed(post.http.p99Ms, 2),
        fixed(post.http.maxMs ?? Number.NaN, 1),
        `${post.warmup.requests}, ${fixed(post.warmup.maxMs ?? Number.NaN, 1)}`,
        verdict(post.p99Met),
      ]),
    ),
  );
  console.log('');
  if (report.liveLatency) {
    const live = report.liveLatency;
    console.log(
      `Live update: estimate submit -> change event on a staff stream, ${live.samples} submits: p50 ${fixed(live.p50Ms, 1)} ms, ` +
        `p99 ${fixed(live.p99Ms, 1)} ms, max ${fixed(live.maxMs, 1)} ms (issue 7: within 2 s on an open leads screen) ${verdict(live.p99Ms <= 2000)}`,
    );
  }
  if (report.healthzProbe) {
    const probe = report.healthzProbe;
    console.log(
      `GET /healthz one at a time: idle p50 ${fixed(probe.idle.p50Ms, 2)} ms, p99 ${fixed(probe.idle.p99Ms, 2)} ms; ` +
        `under load p50 ${fixed(probe.underLoad.p50Ms, 2)} ms, p99 ${fixed(probe.underLoad.p99Ms, 2)} ms, max ${fixed(probe.underLoad.maxMs, 1)} ms ` +
        `(${fixed(probe.underLoad.p99Ms / probe.idle.p99Ms, 1)}x idle; ${probe.bar === undefined ? 'the bar is for the embedded database)' : `bar <= ${probe.bar} ms) ${verdict(probe.met)}`}`,
    );
    console.log(`  the load meanwhile: ${probe.load.map((load) => `${load.name} ${fixed(load.requestsPerSecond, 0)} req/s (p99 ${fixed(load.p99Ms, 0)} ms, ${load.connections} conn.)`).join('; ')}`);
  }
  console.log(`Start-up on an existing ${report.database.kind === 'pglite' ? 'data dir' : 'database'}: ${fixed(report.startup.ms, 0)} ms (bar <= ${bars.startupMs} ms) ${verdict(report.startup.met)}`);
  if (report.memory) {
    console.log(
      `Server peak RSS: ${fixed(report.memory.peakRssMb, 0)} MB (bar <= ${bars.peakRssMb} MB) ${verdict(report.memory.met)}; ` +
        `RSS at the end: ${fixed(report.memory.rssMb, 0)} MB`,
    );
  } else {
    console.log('Server memory: not available (reads /proc, Linux only)');
  }
  console.log(`Figures written to ${path.relative(projectRoot, resultsFileFor(report.database.kind))}`);
}

/** PGlite's figures and PostgreSQL's are kept apart, so one run does not overwrite the other's. */
function resultsFileFor(kind: BenchDatabase['kind']): string {
  return path.join(benchDataDir, kind === 'pglite' ? 'results-api.json' : 'results-api-postgresql.json');
}

// Main --------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions();
  const target = benchDatabase(options);
  const bars = target.kind === 'pglite' ? pgliteBars : postgresBars;

  const seed = await ensureSeeded(target, { customers: options.customers, workOrders: options.workOrders, reseed: options.reseed, withBenchUser: true });
  if (options.only === 'export') return exportOnly(target);
  const { ceilings: driverCeilings, context } = await measureDriverCeilings(target, options);

  const server = await startBenchServer(target);
  let constantJson: HttpMeasurement;
  const httpResults = new Map<string, HttpMeasurement>();
  const postResults = new Map<string, HttpMeasurement>();
  const postWarmups = new Map<string, HttpMeasurement>();
  let memory: MemoryFigures | undefined;
  let liveLatency: LiveLatency | undefined;
  let healthzProbe: HealthzProbe | undefined;
  try {
    console.log(`Server answered after ${fixed(server.startupMs, 0)} ms.`);
    const cookie = await signIn(server.baseUrl);
    if (selectedEndpoints(options).some((endpoint) => endpoint.name.startsWith('map ')) || !options.only || options.only === 'probe') {
      await resolveMapViews(server.baseUrl, cookie, context);
    }
    constantJson = await measureHttp('GET /healthz', `${server.baseUrl}/healthz`, {}, options);
    for (const endpoint of selectedEndpoints(options)) {
      const endpointUrl = endpointPath(endpoint, context);
      const headers: Record<string, string> = { ...(endpointUrl.startsWith('/api/admin') ? { cookie } : {}), ...endpoint.headers };
      httpResults.set(endpoint.name, await measureHttp(`GET ${endpointUrl}`, `${server.baseUrl}${endpointUrl}`, headers, options));
    }
    for (const post of selectedPublicPosts(options)) {
      console.log(`HTTP         POST ${post.path}: ${options.connections} connections, ${post.amount ? `${post.amount} requests` : `${options.durationSeconds} s`}...`);
      // Unmeasured, like every GET's warm-up: the first writes after start-up parse each statement,
      // compile the trigger functions and read index pages from disk (decision 026-b); the
      // warm-up's worst answer is printed beside the figures.
      const warmup = await runHttpLoad({
        url: `${server.baseUrl}${post.path}`,
        method: 'POST',
        body: post.body,
        connections: options.connections,
        seconds: warmupSeconds,
        amount: post.amount ? Math.max(options.connections, Math.round(post.amount / 10)) : undefined,
      });
      assertAllAnswered(`POST ${post.path} (warm-up)`, warmup);
      postWarmups.set(post.name, warmup);
      const measured = await runHttpLoad({
        url: `${server.baseUrl}${post.path}`,
        method: 'POST',
        body: post.body,
        connections: options.connections,
        seconds: options.durationSeconds,
        amount: post.amount,
      });
      assertAllAnswered(`POST ${post.path}`, measured);
      postResults.set(post.name, measured);
    }
    if (!options.only || options.only === 'probe') healthzProbe = await measureHealthzUnderLoad(server.baseUrl, cookie, context, options);
    if (!options.only) {
      console.log(`Live update  estimate submit -> event on /api/admin/events: ${liveLatencySamples} submits...`);
      liveLatency = await measureLiveLatency(server.baseUrl, cookie, liveLatencySamples);
    }
    memory = readMemory(server.pid);
    await signOut(server.baseUrl, cookie);
  } finally {
    await server.stop();
    runningServer = undefined;
  }

  const endpointResults = selectedEndpoints(options).map((endpoint): EndpointResult => {
    const http = httpResults.get(endpoint.name)!;
    const driver = driverCeilings.get(endpoint.name)!;
    const overDriver = http.requestsPerSecond / driver.requestsPerSecond;
    return {
      name: endpoint.name,
      path: endpointPath(endpoint, context),
      http,
      driver,
      overConstantJson: http.requestsPerSecond / constantJson.requestsPerSecond,
      overDriver,
      bars: { p99: http.p99Ms <= bars.p99Ms, overDriver: overDriver >= bars.endpointOverDriver },
      note: endpoint.note,
    };
  });
  const report: Report = {
    ranAt: new Date().toISOString(),
    machine: { node: process.versions.node, platform: `${process.platform}-${process.arch}`, cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model },
    options: { customers: seed.customers, workOrders: seed.workOrders, durationSeconds: options.durationSeconds, connections: options.connections, only: options.only, warmupSeconds },
    database: { kind: target.kind, where: describeDatabase(target) },
    seed,
    constantJson,
    endpoints: endpointResults,
    publicPosts: publicPosts.filter((post) => postResults.has(post.name)).map((post) => ({ name: post.name, path: post.path, http: postResults.get(post.name)!, warmup: postWarmups.get(post.name)!, p99Met: postResults.get(post.name)!.p99Ms <= bars.publicPostP99Ms })),
    liveLatency,
    healthzProbe: healthzProbe && { ...healthzProbe, bar: bars.healthzUnderLoadP99Ms, met: bars.healthzUnderLoadP99Ms === undefined || healthzProbe.underLoad.p99Ms <= bars.healthzUnderLoadP99Ms },
    startup: { ms: server.startupMs, bar: bars.startupMs, met: server.startupMs <= bars.startupMs },
    memory: memory && { ...memory, bar: bars.peakRssMb, met: memory.peakRssMb <= bars.peakRssMb },
    bars,
  };
  fs.mkdirSync(benchDataDir, { recursive: true });
  // Three decimals are plenty (ms, req/s, MB, ratios); the raw doubles are noise.
  const rounded = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value);
  fs.writeFileSync(resultsFileFor(target.kind), `${JSON.stringify(report, rounded, 2)}\n`);
  printReport(report);
}

/** `--only export`: the CSV exports of the seeded data (bench/export.ts), nothing else. */
async function exportOnly(target: BenchDatabase): Promise<void> {
  const server = await startBenchServer(target);
  try {
    const cookie = await signIn(server.baseUrl);
    printExportReport(await measureExports(server.baseUrl, cookie, server.pid));
    await signOut(server.baseUrl, cookie);
  } finally {
    await server.stop();
    runningServer = undefined;
  }
}

// The server must not outlive the benchmark, whatever ends it.
for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the server...\n`);
    void (runningServer?.stop() ?? Promise.resolve()).finally(() => process.exit(exitCode));
  });
}
process.once('exit', () => runningServer?.signalStop());

main().catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`\nBenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
