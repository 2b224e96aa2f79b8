import { z } from 'zod';
import { timeOfDaySchema } from './booking.ts';

/**
 * The customer's visit link (issue 21): /visit/:token shows the visit and lets the customer move it
 * to another open window or cancel it, up to the company's cut-off. The page names the technician
 * by first name only and nothing about any other record.
 */
export const visitMessages = {
  pastCutoff: (hours: number, phone: string) =>
    `Visits can be changed online up to ${hours} hours before they start. Please call us at ${phone}.`,
  notChangeable: (phone: string) => `This visit can no longer be changed online. Please call us at ${phone}.`,
  rescheduled: 'Your visit has moved. We sent you the new time.',
  cancelled: 'Your visit is cancelled. We sent you a confirmation.',
} as const;

/** What to have ready, by service type (shown on the visit's page). */
export const visitPreparation: Record<string, string[]> = {
  repair: ['Clear a path to the indoor unit and the outdoor unit.', 'Note when the problem happens and any sounds or smells.', 'Have the thermostat reachable.'],
  maintenance: ['Clear a path to the indoor unit and the outdoor unit.', 'Have your air filter size handy, or the old filter.'],
  inspection: ['Clear a path to the indoor unit and the outdoor unit, and to the attic or crawl space.'],
  installation: ['Clear the area around the old equipment.', 'Someone over 18 should be home for the visit.'],
  ductwork: ['Clear a path to the attic or crawl space.', 'Someone over 18 should be home for the visit.'],
};

export const visitPageSchema = z.object({
  workOrderNumber: z.string(),
  status: z.enum(['scheduled', 'in-progress', 'completed', 'cancelled', 'pending']),
  serviceLabel: z.string(),
  date: z.string().nullable(),
  /** The arrival window: the one promised when booked online, else the scheduled times. */
  window: z.object({ start: z.string(), end: z.string() }).nullable(),
  address: z.string(),
  technicianFirstName: z.string().nullable(),
  prepare: z.array(z.string()),
  /** Whether it can still be moved or cancelled here; until when (an instant, ISO 8601). */
  canChange: z.boolean(),
  changeableUntil: z.string().nullable(),
  /** Whether another time can be chosen online (its service type is booked online). */
  canReschedule: z.boolean(),
  phone: z.string(),
});
export type VisitPage = z.infer<typeof visitPageSchema>;

export const visitTokenParamsSchema = z.object({ token: z.string().max(200) });

export const visitRescheduleSchema = z.object({ date: z.iso.date('Choose one of the open arrival times.'), start: timeOfDaySchema, end: timeOfDaySchema });
export type VisitReschedule = z.infer<typeof visitRescheduleSchema>;
