// Loaded when the visitor asks for open times, so the booking page does not carry the validation
// library (or the shared formatting it sits beside) before anyone interacts with it.
import '#client/lib/zod-client.ts';

export { onlineBookingSchema, openWindowsResponseSchema, windowTakenDetailsSchema } from '#shared/booking.ts';
export { formatAppointmentDate, formatAppointmentWindow } from '#shared/messaging.ts';
