/** Public entry of invoices: other features import only what this file exports (decision 019-l). */
export { invoiceKeys } from './api.ts';
export { CreateInvoiceButton } from './create-invoice-button.tsx';
export { InvoiceDetail } from './invoice-detail.tsx';
export { InvoiceList } from './invoice-list.tsx';
export { ReceivablesFigures } from './receivables.tsx';
export { BillingDocumentView } from './billing-document-view.tsx';
// The line fields with live totals, shared with the quote options' editor (app/features/quotes).
export { blankDraftLine, DocumentLinesFields, draftLinesFrom, readDraftLines, type DraftLine } from './document-lines.tsx';
export { formatDay } from './labels.ts';
