/** Public entry of quote-link: other features import only what this file exports (decision 019-l). */
export { QuotePage } from './quote-page.tsx';
