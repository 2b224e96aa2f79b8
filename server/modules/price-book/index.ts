/** Public entry of price-book: other modules import only what this file exports (decision 019-l). */
export { priceBookRoutes } from './price-book.routes.ts';
export { createPriceBookService, defaultTaxable, toPriceBookItem, type PriceBookService } from './price-book.service.ts';
