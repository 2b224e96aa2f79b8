/**
 * The calendar module's public entry: other modules and app.ts import from here, never from its
 * files. It owns the visible range, moves, appointments, assignment and the technician
 * double-booking rule (createTechnicianBookings, decision 015).
 */
export { createCalendarRepository, type CalendarRepository } from './calendar.repository.ts';
export { calendarRoutes } from './calendar.routes.ts';
export {
  createCalendarService,
  createTechnicianBookings,
  type Booking,
  type CalendarService,
  type TechnicianBookings,
} from './calendar.service.ts';
