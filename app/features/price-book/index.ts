/** Public entry of the price-book feature: the admin screen and the line editors' picker. */
export { PriceBookScreen } from './price-book-screen.tsx';
export { PriceBookPicker } from './price-book-picker.tsx';
export { priceBookKey, usePriceBookList } from './price-book-api.ts';
