/** Public entry of quotes: other modules import only what this file exports (decision 019-l). */
export { quoteRoutes } from './quote.routes.ts';
export { quotePublicRoutes } from './quote.public.routes.ts';
export { createQuoteService, type QuoteService } from './quote.service.ts';
