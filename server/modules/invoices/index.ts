/** Public entry of invoices: other modules import only what this file exports (decision 019-l). */
export { invoiceRoutes } from './invoice.routes.ts';
export { createInvoiceService, type InvoiceService } from './invoice.service.ts';
