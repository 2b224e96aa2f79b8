import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { WorkOrderStatus } from '#shared/enums.ts';
import type { Database } from '#server/db/client.ts';
import { snapshotQuery } from '#server/db/snapshot-cache.ts';
import { aiConversations, customers, estimateRequests, timePreferenceRank, workOrderStatusCounts, workOrders } from '#server/db/schema/index.ts';

/**
 * The company calendar days the figures are counted over (YYYY-MM-DD, in the company's time
 * zone): each range starts at the first day's midnight and ends before the last day's midnight.
 */
export type DashboardDays = {
  timeZone: string;
  today: string;
  tomorrow: string;
  monthStart: string;
  nextMonthStart: string;
  weekStart: string;
};

/** Midnight of a company calendar day, as an instant: the bound is one constant, so an index on the column serves it. */
const midnight = (day: string, timeZone: string) => sql`((${day}::date)::timestamp at time zone ${timeZone})`;

const within = (column: PgColumn, from: string, until: string, timeZone: string) =>
  and(gte(column, midnight(from, timeZone)), lt(column, midnight(until, timeZone)));

/** `(select count(*) from table where ...)` as a number. */
const countOf = (table: PgTable, where: SQL | undefined, what: SQL = sql`*`) =>
  sql<number>`(select count(${what}) from ${table}${where ? sql` where ${where}` : sql``})`.mapWith(Number);

/** Work orders in a status (or all), from the counts the triggers keep (decision 014): five rows, not 100,000. */
const keptCount = (status: WorkOrderStatus | undefined) =>
  sql<number>`(select coalesce(sum(${workOrderStatusCounts.count}), 0) from ${workOrderStatusCounts}${
    status ? sql` where ${workOrderStatusCounts.status} = ${status}` : sql``
  })`.mapWith(Number);

const listColumns = {
  id: workOrders.id,
  workOrderNumber: workOrders.workOrderNumber,
  title: workOrders.title,
  status: workOrders.status,
  priority: workOrders.priority,
  serviceType: workOrders.serviceType,
  serviceDate: workOrders.serviceDate,
  timePreference: workOrders.timePreference,
  scheduledStartTime: workOrders.scheduledStartTime,
  serviceAddress: workOrders.serviceAddress,
  serviceCity: workOrders.serviceCity,
  serviceState: workOrders.serviceState,
  serviceZip: workOrders.serviceZip,
  customer: { id: customers.id, name: customers.name, phone: customers.phone, address: customers.address },
};

export function createDashboardRepository(db: Database) {
  const queries = {
    snapshot: () => snapshotQuery(db),

    /**
     * Every count of the dashboard in one statement (one round trip, one snapshot): each is a
     * scalar subquery the planner answers from an index where one serves.
     */
    figures: (days: DashboardDays) =>
      db
        .select({
          pendingOrders: keptCount('pending'),
          inProgressOrders: keptCount('in-progress'),
          todaysSchedule: countOf(workOrders, eq(workOrders.serviceDate, days.today)),
          completedThisMonth: countOf(
            workOrders,
            and(eq(workOrders.status, 'completed'), within(workOrders.completedAt, days.monthStart, days.nextMonthStart, days.timeZone)),
          ),
          totalWorkOrders: keptCount(undefined),
          totalCustomers: countOf(customers, undefined),
          pendingEstimates: countOf(estimateRequests, eq(estimateRequests.status, 'pending')),
          urgentEstimates: countOf(
            estimateRequests,
            and(eq(estimateRequests.priority, 'urgent'), inArray(estimateRequests.status, ['pending', 'contacted'])),
          ),
          leadsThisWeek: countOf(estimateRequests, within(estimateRequests.createdAt, days.weekStart, days.tomorrow, days.timeZone)),
          aiChatsToday: countOf(
            aiConversations,
            within(aiConversations.createdAt, days.today, days.tomorrow, days.timeZone),
            sql`distinct ${aiConversations.conversationId}`,
          ),
        })
        .from(sql`(values (1)) as "dashboard"`),

    /** The first work orders of a status by service date (spec 000 section 7: "by status ... ordered by service_date"). */
    byStatus: (status: WorkOrderStatus, limit: number) =>
      db
        .select(listColumns)
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .where(eq(workOrders.status, status))
        .orderBy(asc(workOrders.serviceDate), asc(workOrders.createdAt), asc(workOrders.id))
        .limit(limit),

    /** The first of today's work orders by time preference, then start time (spec 000 section 7). */
    today: (today: string, limit: number) =>
      db
        .select(listColumns)
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .where(eq(workOrders.serviceDate, today))
        // Morning, afternoon, anytime (not alphabetical), then start time: work_orders_day_schedule_idx's order.
        .orderBy(timePreferenceRank(workOrders.timePreference), sql`${workOrders.scheduledStartTime} asc nulls last`, asc(workOrders.createdAt), asc(workOrders.id))
        .limit(limit),
  };

  return {
    queries,

    async summary(days: DashboardDays, limit: number) {
      const [figures, inProgress, today, pending] = await Promise.all([
        queries.figures(days),
        queries.byStatus('in-progress', limit),
        queries.today(days.today, limit),
        queries.byStatus('pending', limit),
      ]);
      return { figures: figures[0]!, inProgress, today, pending };
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
