/** Public entry of visits (the customer's visit link): other modules import only what this file exports (decision 019-l). */
export { visitRoutes } from './visits.routes.ts';
export { createVisitService, type VisitService } from './visits.service.ts';
