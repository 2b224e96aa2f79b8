import { z } from 'zod';
import { maxTaxRatePpm } from './money.ts';

/**
 * Settings -> Billing (issue 20, decision 024-f): sales tax rates, payment terms, quote validity,
 * the invoice footer and overdue reminders. Admins only (under /api/admin/settings); the quote and
 * invoice editors read the active tax rates through GET /api/admin/tax-rates.
 */

export const billingSettingsMessages = {
  termsInvalid: 'Enter payment terms from 0 (due on receipt) to 365 days.',
  validityInvalid: 'Enter a quote validity from 1 to 365 days.',
  footerTooLong: 'Keep the invoice footer under 2,000 characters.',
  reminderDaysInvalid: 'Enter reminder days from 1 to 365, each once, for example 7, 14, 30.',
  reminderDaysTooMany: 'Enter at most 6 reminder days.',
  taxNameRequired: 'Enter the tax rate’s name.',
  taxNameTooLong: 'Keep the name under 80 characters.',
  taxRateInvalid: 'Enter a rate in percent from 0 to 100 with at most 4 decimals, for example 7 or 8.875.',
  taxRateNotFound: 'That tax rate no longer exists.',
  taxDefaultInactive: 'The default tax rate must be active. Make another rate the default first.',
  taxNameTaken: (name: string) => `A tax rate is already called ${name}.`,
  stale: 'Someone else changed these settings since you opened them. Reload, then save again.',
} as const;

/** The defaults when the one `billing_settings` row does not exist yet (as the table's defaults). */
export const defaultBillingSettings = {
  paymentTermsDays: 30,
  quoteValidityDays: 30,
  invoiceFooter: '',
  remindersEnabled: true,
  reminderDays: [7, 14, 30],
} as const;

const reminderDaysSchema = z
  .array(z.number().int().min(1, billingSettingsMessages.reminderDaysInvalid).max(365, billingSettingsMessages.reminderDaysInvalid))
  .max(6, billingSettingsMessages.reminderDaysTooMany)
  .refine((days) => new Set(days).size === days.length, billingSettingsMessages.reminderDaysInvalid)
  .transform((days) => [...days].sort((a, b) => a - b));

export const billingSettingsSchema = z.object({
  paymentTermsDays: z.number(billingSettingsMessages.termsInvalid).int(billingSettingsMessages.termsInvalid).min(0, billingSettingsMessages.termsInvalid).max(365, billingSettingsMessages.termsInvalid),
  quoteValidityDays: z.number(billingSettingsMessages.validityInvalid).int(billingSettingsMessages.validityInvalid).min(1, billingSettingsMessages.validityInvalid).max(365, billingSettingsMessages.validityInvalid),
  invoiceFooter: z.string().trim().max(2000, billingSettingsMessages.footerTooLong),
  remindersEnabled: z.boolean(),
  reminderDays: reminderDaysSchema,
});
export type BillingSettings = z.output<typeof billingSettingsSchema>;
export type BillingSettingsInput = z.input<typeof billingSettingsSchema>;

export const billingSettingsResponseSchema = z.object({
  settings: z.object({
    paymentTermsDays: z.number().int(),
    quoteValidityDays: z.number().int(),
    invoiceFooter: z.string(),
    remindersEnabled: z.boolean(),
    reminderDays: z.array(z.number().int()),
  }),
  /** When the settings were last saved; null while the defaults are in force. */
  updatedAt: z.string().nullable(),
});
export type BillingSettingsResponse = z.infer<typeof billingSettingsResponseSchema>;

export const taxRateSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Parts per million: 7 % = 70000. */
  ratePpm: z.number().int(),
  isDefault: z.boolean(),
  active: z.boolean(),
  updatedAt: z.string(),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

export const taxRateBodySchema = z.object({
  name: z.string(billingSettingsMessages.taxNameRequired).trim().min(1, billingSettingsMessages.taxNameRequired).max(80, billingSettingsMessages.taxNameTooLong),
  ratePpm: z.number(billingSettingsMessages.taxRateInvalid).int(billingSettingsMessages.taxRateInvalid).min(0, billingSettingsMessages.taxRateInvalid).max(maxTaxRatePpm, billingSettingsMessages.taxRateInvalid),
  isDefault: z.boolean().default(false),
  active: z.boolean().default(true),
});
export type TaxRateInput = z.input<typeof taxRateBodySchema>;

export const taxRateResponseSchema = z.object({ taxRate: taxRateSchema });
export const taxRateListResponseSchema = z.object({ taxRates: z.array(taxRateSchema) });
export type TaxRateListResponse = z.infer<typeof taxRateListResponseSchema>;

/** "7", "8.875", "6 %" -> parts per million; undefined unless 0..100 with at most 4 decimals. */
export function parseTaxRatePercent(text: string): number | undefined {
  const match = /^\s*(\d{1,3})(?:\.(\d{1,4}))?\s*%?\s*$/.exec(text);
  if (!match) return undefined;
  const ppm = Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0') || '0');
  return ppm <= maxTaxRatePpm ? ppm : undefined;
}

/** "7, 14, 30" -> [7, 14, 30]; undefined when a part is not a whole number. */
export function parseReminderDays(text: string): number[] | undefined {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.some((part) => !/^\d{1,3}$/.test(part))) return undefined;
  return parts.map(Number);
}

/** GET /api/admin/settings/billing: the settings and every tax rate (the Billing tab's one read). */
export const billingSettingsPageSchema = billingSettingsResponseSchema.extend({ taxRates: z.array(taxRateSchema) });
export type BillingSettingsPage = z.infer<typeof billingSettingsPageSchema>;
