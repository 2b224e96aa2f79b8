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
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
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
   * Kept per database snapshot and company day (server/db/snapshot-cache.ts): the counts read every
   * pending, completed and existing row (about 50 ms at 100,000 work orders on the embedded
   * database), and can only change when a transaction commits. See docs/decisions/013.
   */
  const answers = createSnapshotCache<DashboardResponse>(options.db, { maxEntries: 2 });

  return {
    /** Every figure and list of the dashboard: counted in the database, the two rates derived here. */
    async summary(): Promise<DashboardResponse> {
      const days = dashboardDays(timeZone, now());
      return answers.get(days.today, () => compute(days));
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
