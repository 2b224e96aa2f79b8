/** Public entry of quotes (issue 20): other features import only what this file exports (decision 019-l). */
export { quoteKeys } from './api.ts';
export { QuoteList } from './quote-list.tsx';
export { QuoteDetail } from './quote-detail.tsx';
export { NewQuoteButton, type NewQuoteSource } from './new-quote-button.tsx';
export { QuotesPanel } from './quotes-panel.tsx';
