import { z } from 'zod';
import { workOrderServiceTypes, type WorkOrderServiceType } from './enums.ts';
import { serviceAreas } from './service-areas.ts';
import { descriptionSchema, personNameSchema, phoneSchema, requiredEmailSchema, smsConsentSchema, streetAddressSchema } from './contact.ts';

/**
 * Settings -> Online booking (issue 21, decision 026-c): the arrival windows offered, the travel
 * buffer, the service area, the cancellation cut-off, per service type the visit's length and
 * whether (and how far ahead) it can be booked online; per technician the working hours, the
 * service types they do, and time off. Admins only (under /api/admin/settings).
 *
 * Times of day are the company's wall-clock "HH:MM" (24-hour), as work orders store them.
 */

export const bookingMessages = {
  timeInvalid: 'Enter a time as HH:MM (24-hour), for example 08:00 or 15:30.',
  rangeOrder: 'The end must be after the start.',
  rangesOverlap: 'Times overlap. Make each range end before the next one starts.',
  windowsRequired: 'Offer at least one arrival window.',
  windowsTooMany: 'Offer at most 8 arrival windows.',
  rangesTooMany: 'Enter at most 3 working ranges a day.',
  bufferInvalid: 'Enter a travel buffer from 0 to 240 minutes.',
  zipInvalid: 'Enter ZIP codes of 5 digits.',
  zipsRequired: 'Enter at least one ZIP code the company serves.',
  zipsTooMany: 'Enter at most 300 ZIP codes.',
  cutoffInvalid: 'Enter a cut-off from 0 to 168 hours.',
  durationInvalid: 'Enter a visit length from 15 to 600 minutes, in steps of 15.',
  leadTimeInvalid: 'Enter a lead time from 0 to 336 hours.',
  horizonInvalid: 'Enter how far ahead from 1 to 60 days.',
  serviceTypesInvalid: 'Choose service types from the list.',
  timeOffDates: 'Enter a first and a last day, the last on or after the first.',
  timeOffTooLong: 'Enter time off of at most 366 days.',
  timeOffPartDay: 'Part of a day needs both times, on a single day.',
  reasonTooLong: 'Keep the reason under 200 characters.',
  technicianNotFound: 'That technician no longer exists.',
  timeOffNotFound: 'That time off no longer exists.',
} as const;

const timeOfDayPattern = /^([01]\d|2[0-3]):[0-5]\d$/;
export const timeOfDaySchema = z.string(bookingMessages.timeInvalid).regex(timeOfDayPattern, bookingMessages.timeInvalid);

/** "08:30" → 510 minutes after midnight. */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** 510 → "08:30". */
export function timeOfDay(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export const timeRangeSchema = z
  .object({ start: timeOfDaySchema, end: timeOfDaySchema })
  .refine((range) => minutesOfDay(range.end) > minutesOfDay(range.start), { message: bookingMessages.rangeOrder, path: ['end'] });
export type TimeRangeText = z.infer<typeof timeRangeSchema>;

/** Ranges in order of start, none overlapping another (touching is fine: 08:00-10:00, 10:00-12:00). */
function orderedRanges(max: number, tooMany: string) {
  return z
    .array(timeRangeSchema)
    .max(max, tooMany)
    .transform((ranges) => [...ranges].sort((a, b) => minutesOfDay(a.start) - minutesOfDay(b.start)))
    .refine((ranges) => ranges.every((range, index) => index === 0 || minutesOfDay(range.start) >= minutesOfDay(ranges[index - 1]!.end)), bookingMessages.rangesOverlap);
}

export const weekdays = [0, 1, 2, 3, 4, 5, 6] as const;
export const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Working hours by weekday ("0" = Sunday); a weekday left out or empty is a day off. */
export const workingHoursSchema = z.object(Object.fromEntries(weekdays.map((day) => [String(day), orderedRanges(3, bookingMessages.rangesTooMany).optional()])) as Record<`${(typeof weekdays)[number]}`, z.ZodOptional<ReturnType<typeof orderedRanges>>>).strict();
export type WorkingHours = z.output<typeof workingHoursSchema>;

const serviceTypeListSchema = z
  .array(z.enum(workOrderServiceTypes, bookingMessages.serviceTypesInvalid))
  .max(workOrderServiceTypes.length)
  .transform((types) => workOrderServiceTypes.filter((type) => types.includes(type)));

export const serviceTypeBookingSchema = z.object({
  durationMinutes: z.number(bookingMessages.durationInvalid).int(bookingMessages.durationInvalid).min(15, bookingMessages.durationInvalid).max(600, bookingMessages.durationInvalid).multipleOf(15, bookingMessages.durationInvalid),
  bookableOnline: z.boolean(),
  leadTimeHours: z.number(bookingMessages.leadTimeInvalid).int(bookingMessages.leadTimeInvalid).min(0, bookingMessages.leadTimeInvalid).max(336, bookingMessages.leadTimeInvalid),
  horizonDays: z.number(bookingMessages.horizonInvalid).int(bookingMessages.horizonInvalid).min(1, bookingMessages.horizonInvalid).max(60, bookingMessages.horizonInvalid),
});
export type ServiceTypeBooking = z.infer<typeof serviceTypeBookingSchema>;

const serviceTypesBookingSchema = z.object(Object.fromEntries(workOrderServiceTypes.map((type) => [type, serviceTypeBookingSchema])) as Record<WorkOrderServiceType, typeof serviceTypeBookingSchema>);

const zipSchema = z.string().regex(/^\d{5}$/, bookingMessages.zipInvalid);

export const bookingSettingsSchema = z.object({
  onlineBookingEnabled: z.boolean(),
  arrivalWindows: orderedRanges(8, bookingMessages.windowsTooMany).refine((windows) => windows.length > 0, bookingMessages.windowsRequired),
  travelBufferMinutes: z.number(bookingMessages.bufferInvalid).int(bookingMessages.bufferInvalid).min(0, bookingMessages.bufferInvalid).max(240, bookingMessages.bufferInvalid),
  serviceAreaZips: z
    .array(zipSchema)
    .min(1, bookingMessages.zipsRequired)
    .max(300, bookingMessages.zipsTooMany)
    .transform((zips) => [...new Set(zips)].sort()),
  cancelCutoffHours: z.number(bookingMessages.cutoffInvalid).int(bookingMessages.cutoffInvalid).min(0, bookingMessages.cutoffInvalid).max(168, bookingMessages.cutoffInvalid),
  serviceTypes: serviceTypesBookingSchema,
});
export type BookingSettings = z.output<typeof bookingSettingsSchema>;
export type BookingSettingsInput = z.input<typeof bookingSettingsSchema>;

/** The defaults while no settings were saved (the migration makes no row). */
export const defaultBookingSettings: BookingSettings = {
  onlineBookingEnabled: true,
  arrivalWindows: [
    { start: '08:00', end: '10:00' },
    { start: '10:00', end: '12:00' },
    { start: '13:00', end: '15:00' },
    { start: '15:00', end: '17:00' },
  ],
  travelBufferMinutes: 30,
  serviceAreaZips: [...new Set(serviceAreas.flatMap((area) => area.zipCodes))].sort(),
  cancelCutoffHours: 24,
  serviceTypes: {
    repair: { durationMinutes: 120, bookableOnline: true, leadTimeHours: 12, horizonDays: 14 },
    maintenance: { durationMinutes: 90, bookableOnline: true, leadTimeHours: 24, horizonDays: 30 },
    installation: { durationMinutes: 480, bookableOnline: false, leadTimeHours: 48, horizonDays: 30 },
    inspection: { durationMinutes: 60, bookableOnline: true, leadTimeHours: 24, horizonDays: 30 },
    ductwork: { durationMinutes: 240, bookableOnline: false, leadTimeHours: 48, horizonDays: 30 },
  },
};

/** The hours a technician has until someone sets theirs: Monday to Friday, 8:00 to 17:00. */
export const defaultWorkingHours: WorkingHours = Object.fromEntries([1, 2, 3, 4, 5].map((day) => [String(day), [{ start: '08:00', end: '17:00' }]]));

export const technicianAvailabilitySchema = z.object({
  workingHours: workingHoursSchema,
  serviceTypes: serviceTypeListSchema,
});
export type TechnicianAvailabilityInput = z.input<typeof technicianAvailabilitySchema>;

const isoDay = z.iso.date(bookingMessages.timeOffDates);

export const timeOffBodySchema = z
  .object({
    startsOn: isoDay,
    endsOn: isoDay,
    /** Part of a day: both times, on a single day. Without them the days are off whole. */
    startTime: timeOfDaySchema.nullable().default(null),
    endTime: timeOfDaySchema.nullable().default(null),
    reason: z.string().trim().max(200, bookingMessages.reasonTooLong).default(''),
  })
  .refine((body) => body.endsOn >= body.startsOn, { message: bookingMessages.timeOffDates, path: ['endsOn'] })
  .refine((body) => (Date.parse(body.endsOn) - Date.parse(body.startsOn)) / 86_400_000 < 366, { message: bookingMessages.timeOffTooLong, path: ['endsOn'] })
  .refine((body) => (body.startTime === null) === (body.endTime === null) && (body.startTime === null || body.startsOn === body.endsOn), { message: bookingMessages.timeOffPartDay, path: ['startTime'] })
  .refine((body) => body.startTime === null || body.endTime === null || minutesOfDay(body.endTime) > minutesOfDay(body.startTime), { message: bookingMessages.rangeOrder, path: ['endTime'] });
export type TimeOffBody = z.output<typeof timeOffBodySchema>;
export type TimeOffInput = z.input<typeof timeOffBodySchema>;

export const timeOffSchema = z.object({
  id: z.string(),
  technicianId: z.string(),
  startsOn: z.string(),
  endsOn: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  reason: z.string(),
});
export type TimeOff = z.infer<typeof timeOffSchema>;

export const technicianBookingSchema = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  workingHours: z.record(z.string(), z.array(z.object({ start: z.string(), end: z.string() }))),
  serviceTypes: z.array(z.enum(workOrderServiceTypes)),
  /** Time off that has not ended yet, soonest first. */
  timeOff: z.array(timeOffSchema),
});
export type TechnicianBooking = z.infer<typeof technicianBookingSchema>;

const storedRange = z.object({ start: z.string(), end: z.string() });
export const bookingSettingsPageSchema = z.object({
  settings: z.object({
    onlineBookingEnabled: z.boolean(),
    arrivalWindows: z.array(storedRange),
    travelBufferMinutes: z.number().int(),
    serviceAreaZips: z.array(z.string()),
    cancelCutoffHours: z.number().int(),
    serviceTypes: serviceTypesBookingSchema,
  }),
  /** When the settings were last saved; null while the defaults are in force. */
  updatedAt: z.string().nullable(),
  technicians: z.array(technicianBookingSchema),
});
export type BookingSettingsPage = z.infer<typeof bookingSettingsPageSchema>;

export const technicianBookingResponseSchema = z.object({ technician: technicianBookingSchema });
export type TechnicianBookingResponse = z.infer<typeof technicianBookingResponseSchema>;
export const timeOffResponseSchema = z.object({ timeOff: timeOffSchema });
export type TimeOffResponse = z.infer<typeof timeOffResponseSchema>;

/** GET /api/public/booking/windows: the open arrival windows for a service type at a ZIP code. */
export const openWindowsQuerySchema = z.object({
  serviceType: z.enum(workOrderServiceTypes, bookingMessages.serviceTypesInvalid),
  zip: zipSchema,
});
export type OpenWindowsQuery = z.infer<typeof openWindowsQuerySchema>;

/** An open arrival window: its company-local date and times. */
export const openWindowSchema = z.object({ date: z.string(), start: z.string(), end: z.string() });
export type OpenWindowText = z.infer<typeof openWindowSchema>;

/**
 * `open`: the windows, soonest first (possibly none in the horizon); `outside_area`: the ZIP code is
 * not served; `not_online`: online booking is off, or this service type is booked by phone. Nothing
 * about technicians or other customers' visits.
 */
export const openWindowsResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('open'), windows: z.array(openWindowSchema) }),
  z.object({ status: z.literal('outside_area') }),
  z.object({ status: z.literal('not_online') }),
]);
export type OpenWindowsResponse = z.infer<typeof openWindowsResponseSchema>;

export const onlineBookingMessages = {
  windowRequired: 'Choose one of the open arrival times.',
  windowTaken: 'Sorry, that time was just taken. Here are the open times now: please choose another.',
  booked: (date: string, window: string, phone: string) =>
    `You are booked for ${date}, arriving between ${window}. We sent the details to your e-mail. Questions? Call us at ${phone}.`,
  outsideArea: (phone: string) => `We do not book visits at that ZIP code online. Please call us at ${phone}: we may still be able to help.`,
  notOnline: (phone: string) => `This service is booked by phone. Please call us at ${phone}.`,
  failure: (phone: string) => `Sorry, we could not book your visit just now. Please try again or call us at ${phone}.`,
} as const;

/**
 * POST /api/public/booking (issue 21): the visitor's choice of an open window and their details.
 * The window is one the windows endpoint offered; the server checks it again under a lock. An
 * e-mail is required: the confirmation and the visit's link go there.
 */
export const onlineBookingSchema = z.object({
  serviceType: z.enum(workOrderServiceTypes, bookingMessages.serviceTypesInvalid),
  zip: zipSchema,
  date: z.iso.date(onlineBookingMessages.windowRequired),
  start: timeOfDaySchema,
  end: timeOfDaySchema,
  name: personNameSchema,
  phone: phoneSchema,
  email: requiredEmailSchema,
  address: streetAddressSchema,
  description: descriptionSchema,
  smsConsent: smsConsentSchema,
  /** The chat's session when booked from the chat's Schedule Service form (its conversation keeps the booking). */
  sessionId: z.string().regex(/^[\w-]{8,100}$/, 'Invalid chat session').optional(),
});
export type OnlineBookingInput = z.input<typeof onlineBookingSchema>;
export type OnlineBooking = z.output<typeof onlineBookingSchema>;

/**
 * 201 `booked`: the work order number and the window, nothing about stored customers (the same
 * answer whether or not the contact matched one). A window taken meanwhile is a 409 CONFLICT
 * error whose details are the open windows now (`windowTakenDetailsSchema`), to choose again.
 */
export const onlineBookingBookedSchema = z.object({
  status: z.literal('booked'),
  workOrderNumber: z.string(),
  date: z.string(),
  start: z.string(),
  end: z.string(),
  message: z.string(),
  /** The customer's own page of the visit (/visit/:token), to move or cancel it; only in the first answer (a replay has none: the link is not kept). */
  visitPath: z.string().optional(),
});
export type OnlineBookingBooked = z.infer<typeof onlineBookingBookedSchema>;

export const windowTakenDetailsSchema = z.object({ windows: z.array(openWindowSchema) });
