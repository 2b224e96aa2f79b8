/** Public entry of invoice-link: other features import only what this file exports (decision 019-l). */
export { InvoicePage } from './invoice-page.tsx';
