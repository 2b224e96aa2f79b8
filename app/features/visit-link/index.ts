/** Public entry of visit-link: other features import only what this file exports (decision 019-l). */
export { VisitLinkPage } from './visit-page.tsx';
