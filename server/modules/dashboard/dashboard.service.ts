import {
  chatConversion,
  conversionRate,
  dashboardListLimit,
  weeklyLeadsWindowDays,
  type DashboardResponse,
  type DashboardWorkOrder,
} from '#shared/dashboard.ts';
import { addDays, monthStart, todayIn } from '#shared/dates.ts';
import type { Database } from '#server/db/client.ts';
import { createDashboardRepository, type DashboardDays } from './dashboard.repository.ts';

/**
 * The calendar days the dashboard counts over, in the company's time zone (spec README: 'today',
 * 'this week', 'this month'): today; this month; the weekly window of 7 days ending today.
 */
export function dashboardDays(timeZone: string, now: Date): DashboardDays {
  const today = todayIn(timeZone, now);
  return {
    timeZone,
    today,
    tomorrow: addDays(today, 1),
    monthStart: monthStart(today),
    nextMonthStart: monthStart(today, 1),
    weekStart: addDays(today, 1 - weeklyLeadsWindowDays),
  };
}

type ListRow = Awaited<ReturnType<ReturnType<typeof createDashboardRepository>['queries']['today']>>[number];

/** The columns are text with check constraints from the same enums: the casts only restore their types. */
const toListItem = (row: ListRow): DashboardWorkOrder => ({
  ...row,
  status: row.status as DashboardWorkOrder['status'],
  priority: row.priority as DashboardWorkOrder['priority'],
  serviceType: row.serviceType as DashboardWorkOrder['serviceType'],
  timePreference: row.timePreference as DashboardWorkOrder['timePreference'],
});

export function createDashboardService(options: { db: Database; timeZone: string; now?: () => Date }) {
  const { timeZone, now = () => new Date() } = options;
  const repository = createDashboardRepository(options.db);

  async function compute(days: DashboardDays): Promise<DashboardResponse> {
    const { figures, inProgress, today, pending } = await repository.summary(days, dashboardListLimit);
    return {
      today: days.today,
      stats: {
        ...figures,
        conversionRate: conversionRate(figures.pendingEstimates, figures.leadsThisWeek),
        chatConversion: chatConversion(figures.pendingEstimates, figures.aiChatsToday),
      },
      inProgressWorkOrders: inProgress.map(toListItem),
      todaysSchedule: today.map(toListItem),
      pendingWorkOrders: pending.map(toListItem),
    };
  }

  /**
   * The last answer, keyed by the company's today and the database snapshot it was computed at or
   * after. The counts read every pending, completed and existing row (about 50 ms at 100,000 work
   * orders on the embedded database); they can only change when a transaction commits, which
   * changes the snapshot. So an equal key is exactly the same answer, and a change is seen by the
   * very next read. Concurrent reads of one key share one computation.
   * See docs/decisions/013-dashboard-figures.md.
   */
  let latest: { key: string; summary: Promise<DashboardResponse> } | undefined;

  return {
    /** Every figure and list of the dashboard: counted in the database, the two rates derived here. */
    async summary(): Promise<DashboardResponse> {
      const days = dashboardDays(timeZone, now());
      const key = `${days.today} ${await repository.snapshot()}`;
      if (latest?.key === key) return latest.summary;
      const entry = { key, summary: compute(days) };
      latest = entry;
      // A failed computation is not kept: the next read tries again.
      entry.summary.catch(() => {
        if (latest === entry) latest = undefined;
      });
      return entry.summary;
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
