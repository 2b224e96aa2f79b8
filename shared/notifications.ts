import { z } from 'zod';
import { techFollowUpNotificationType } from './tech.ts';

/**
 * Kinds of staff notification: chat bookings (spec 000 section 3), website estimate requests, and
 * texts customers send to the company's number (issue 18: a confirmation, a reschedule request, any
 * other reply), a technician's "needs follow-up" at a visit's completion (issue 19) and a
 * customer's answer to a quote (issue 20).
 */
export const notificationTypes = {
  newAiLead: 'new_ai_lead',
  newEstimateRequest: 'new_estimate_request',
  customerText: 'customer_text',
  techFollowUp: techFollowUpNotificationType,
  /** A customer approved or declined a quote from its link (issue 20); `data.link` opens the quote. */
  quoteAnswered: 'quote_answered',
  /** A visit booked on the booking page into an open window (issue 21); `data.link` opens its work order. */
  newOnlineBooking: 'new_online_booking',
  /** A customer moved or cancelled a visit from its link (issue 21); `data.link` opens its work order. */
  visitChanged: 'visit_changed',
  /** A visitor signed up for a maintenance plan on the site (issue 22); `data.link` opens the office's Plan sign-ups. */
  newPlanSignup: 'new_plan_signup',
} as const;

/**
 * A line under a notification's title saying where it came from, when the title does not:
 * a technician's follow-up names the technician (the title names the work order).
 */
export function notificationSourceLine(notification: Pick<AdminNotification, 'type' | 'data'>): string | undefined {
  if (notification.type !== notificationTypes.techFollowUp) return undefined;
  const name = notification.data.technician_name;
  return typeof name === 'string' && name ? `From the field: ${name}` : 'From the field';
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminNotification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

export const notificationListResponseSchema = z.object({
  notifications: z.array(notificationSchema),
  /** Unread notifications in all (not only among those listed). */
  unreadCount: z.number().int(),
});
export type NotificationListResponse = z.infer<typeof notificationListResponseSchema>;

export const notificationIdParamsSchema = z.object({ id: z.string() });

export const notificationMessages = { notFound: 'Notification not found' } as const;

/**
 * The screen a notification is about, for the bell to open: a stored `link` wins, else by type
 * (both kinds are leads on the estimates screen). Only same-site /admin paths are followed.
 */
export function notificationLink(notification: Pick<AdminNotification, 'type' | 'data'>): string | undefined {
  const link = notification.data.link;
  if (typeof link === 'string' && link.startsWith('/admin') && !link.startsWith('//')) return link;
  if (notification.type === notificationTypes.newEstimateRequest || notification.type === notificationTypes.newAiLead) return '/admin/estimates';
  // A technician's follow-up opens the work order it was asked on.
  const workOrderId = notification.data.work_order_id;
  if (notification.type === notificationTypes.techFollowUp && typeof workOrderId === 'string' && uuidPattern.test(workOrderId)) {
    return `/admin/workorders/${workOrderId}`;
  }
  return undefined;
}
