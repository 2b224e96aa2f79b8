export { missingGlyphReplacement } from './fonts.ts';
export { renderBillingPdf } from './render.ts';
