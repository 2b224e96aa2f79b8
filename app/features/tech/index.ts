/** Public entry of the technician app (issue 19, decision 022-b): the routes under /tech import only this. */
export { TechAccountScreen } from './account-screen.tsx';
export { MyDay, techVisitPath } from './my-day.tsx';
export { TechShell } from './tech-shell.tsx';
export { VisitScreen } from './visit-screen.tsx';
