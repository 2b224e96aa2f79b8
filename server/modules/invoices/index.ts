/** Public entry of invoices: other modules import only what this file exports (decision 019-l). */
export { invoiceRoutes } from './invoice.routes.ts';
export { createInvoiceService, type InvoiceService, type PaymentScope } from './invoice.service.ts';
export { invoiceDocumentRoutes } from './invoice.documents.routes.ts';
export { createInvoiceSending, type InvoiceSending } from './invoice.sending.ts';
export { createOnlineInvoices, howToPayText, type OnlineInvoices } from './invoice.online.ts';
export { invoicePublicRoutes, markPrivate, stripeWebhookPath } from './invoice.public.routes.ts';
