/** Public entry of billing-settings: other modules import only what this file exports (decision 019-l). */
export { billingSettingsRoutes } from './billing-settings.routes.ts';
export { createBillingSettingsService, readBillingSettings, readDefaultTaxRatePpm, toTaxRate, type BillingSettingsService } from './billing-settings.service.ts';
