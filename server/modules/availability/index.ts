/** Public entry of availability: other modules import only what this file exports (decision 019-l). */
export { earliestArrival, localMoment, openWindows, type OpenWindow, type SlotRules, type TechnicianAvailability, type TimeRange, type WindowCandidate } from './slots.ts';
export { availabilityPublicRoutes, availabilityRoutes } from './availability.routes.ts';
export { createAvailabilityService, readBookingSettings, type AvailabilityService } from './availability.service.ts';
