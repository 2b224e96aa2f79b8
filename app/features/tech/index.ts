/**
 * Public entry of the technician app (issue 19, decision 022-b) for other features. The routes under
 * /tech import each screen from its own file (decision 022-d): a route module importing this entry
 * would reach every screen through it, so My day's chunk would carry the visit screen (its forms,
 * the signature pad) and the account screen; imported one by one, each route's chunk holds its own.
 */
export { TechAccountScreen } from './account-screen.tsx';
export { MyDay, techVisitPath } from './my-day.tsx';
export { TechShell } from './tech-shell.tsx';
export { VisitScreen } from './visit-screen.tsx';
