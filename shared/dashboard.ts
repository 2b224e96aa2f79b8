import { z } from 'zod';
import { isValidIsoDate } from './dates.ts';
import { workOrderPriorities, workOrderServiceTypes, workOrderStatuses, workOrderTimePreferences } from './enums.ts';

// The staff dashboard (spec 000 sections 2, 7 and 9): its limits, its two conversion formulas, the
// answer of GET /api/admin/dashboard and the screen's exact words. One place for the server, the
// screen and the tests. How the spec's open points were read: docs/decisions/013-dashboard-figures.md.

/** Spec 000 section 9: dashboard lists show at most 5 items. */
export const dashboardListLimit = 5;

/** Spec 000 section 9: the weekly leads window, in company calendar days (today and the 6 before). */
export const weeklyLeadsWindowDays = 7;

/**
 * A share as a whole percentage, 0 when there is nothing to divide by (spec 000 section 2: both
 * conversion figures). Not capped at 100: pending estimates may be older than the window.
 */
export function conversionPercent(numerator: number, denominator: number): number {
  return denominator > 0 ? Math.round((numerator / denominator) * 100) : 0;
}

/** Conversion Rate: pending estimates divided by this week's leads, as a percentage. */
export const conversionRate = (pendingEstimates: number, leadsThisWeek: number) => conversionPercent(pendingEstimates, leadsThisWeek);

/** Chat Conversion: pending estimates divided by today's chats, as a percentage. */
export const chatConversion = (pendingEstimates: number, aiChatsToday: number) => conversionPercent(pendingEstimates, aiChatsToday);

const count = z.number().int().min(0);

export const dashboardStatsSchema = z.object({
  pendingOrders: count,
  inProgressOrders: count,
  todaysSchedule: count,
  urgentEstimates: count,
  pendingEstimates: count,
  aiChatsToday: count,
  leadsThisWeek: count,
  completedThisMonth: count,
  totalCustomers: count,
  totalWorkOrders: count,
  /** Whole percent. */
  conversionRate: count,
  /** Whole percent. */
  chatConversion: count,
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/** A work order as the dashboard's lists show it, with the embedded customer of spec 000 section 7. */
export const dashboardWorkOrderSchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  title: z.string(),
  status: z.enum(workOrderStatuses),
  priority: z.enum(workOrderPriorities),
  serviceType: z.enum(workOrderServiceTypes),
  serviceDate: z.string(),
  timePreference: z.enum(workOrderTimePreferences),
  /** 'HH:MM:SS' as PostgreSQL prints a time, when the work order has been scheduled. */
  scheduledStartTime: z.string().nullable(),
  /** The work order's own service address (all null when the job is at the customer's address). */
  serviceAddress: z.string().nullable(),
  serviceCity: z.string().nullable(),
  serviceState: z.string().nullable(),
  serviceZip: z.string().nullable(),
  customer: z.object({ id: z.string(), name: z.string(), phone: z.string(), address: z.string() }),
});
export type DashboardWorkOrder = z.infer<typeof dashboardWorkOrderSchema>;

const dashboardList = z.array(dashboardWorkOrderSchema).max(dashboardListLimit);

export const dashboardResponseSchema = z.object({
  /** The company's today (YYYY-MM-DD) the figures were computed for. */
  today: z.string().refine(isValidIsoDate),
  stats: dashboardStatsSchema,
  /** The first 5 in-progress work orders by service date. */
  inProgressWorkOrders: dashboardList,
  /** The first 5 of today's work orders by time preference (morning, afternoon, anytime); the card counts them all. */
  todaysSchedule: dashboardList,
  /** The first 5 pending work orders by service date. */
  pendingWorkOrders: dashboardList,
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

/** Spec 000 section 8: a failed load shows zeros and empty lists (and, here, says so). */
export const emptyDashboard: Omit<DashboardResponse, 'today'> = {
  stats: {
    pendingOrders: 0,
    inProgressOrders: 0,
    todaysSchedule: 0,
    urgentEstimates: 0,
    pendingEstimates: 0,
    aiChatsToday: 0,
    leadsThisWeek: 0,
    completedThisMonth: 0,
    totalCustomers: 0,
    totalWorkOrders: 0,
    conversionRate: 0,
    chatConversion: 0,
  },
  inProgressWorkOrders: [],
  todaysSchedule: [],
  pendingWorkOrders: [],
};

/** Spec 000 section 2: the cards' labels, in the spec's order. */
export const dashboardStatLabels: Record<keyof DashboardStats, string> = {
  pendingOrders: 'Pending Orders',
  inProgressOrders: 'In Progress',
  todaysSchedule: "Today's Schedule",
  urgentEstimates: 'Urgent Estimates',
  pendingEstimates: 'Pending Estimates',
  aiChatsToday: 'AI Chats Today',
  leadsThisWeek: 'Leads This Week',
  completedThisMonth: 'Completed This Month',
  totalCustomers: 'Total Customers',
  totalWorkOrders: 'Total Work Orders',
  conversionRate: 'Conversion Rate',
  chatConversion: 'Chat Conversion',
};

export const dashboardMessages = {
  title: 'Dashboard',
  loading: 'Loading...',
  loadFailed: 'The dashboard figures could not be loaded. Zeros are shown until they load.',
  retry: 'Try again',
  retrying: 'Retrying...',
  inProgressSection: 'In Progress Work Orders',
  todaysScheduleSection: "Today's Schedule",
  pendingSection: 'Pending Work Orders',
  viewAll: 'View All',
  viewCalendar: 'View Calendar',
  completeJob: 'Complete Job',
  startJob: 'Start Job',
  noneInProgress: 'No work orders in progress',
  nothingToday: 'Nothing scheduled for today',
  nonePending: 'No pending work orders',
} as const;

/** Spec 000 section 2: where the dashboard's cards, actions and sections lead. */
export const dashboardPaths = {
  urgentEstimates: '/admin/estimates?filter=urgent',
  estimates: '/admin/estimates',
  calendar: '/admin/calendar',
  newWorkOrder: '/admin/workorders/new',
  newCustomer: '/admin/customers/new',
  inProgressWorkOrders: '/admin/workorders?status=in-progress',
  pendingWorkOrders: '/admin/workorders?status=pending',
} as const;
