import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import { billingSettings, taxRates } from '#server/db/schema/index.ts';

export type BillingSettingsRow = typeof billingSettings.$inferSelect;
export type TaxRateRow = typeof taxRates.$inferSelect;
export type TaxRateValues = Pick<TaxRateRow, 'name' | 'ratePpm' | 'isDefault' | 'active'>;
export type BillingSettingsValues = Pick<BillingSettingsRow, 'paymentTermsDays' | 'quoteValidityDays' | 'invoiceFooter' | 'remindersEnabled' | 'reminderDays'>;

export function createBillingSettingsRepository(db: DbExecutor) {
  return {
    /** The one row, or undefined while the defaults are in force (no row is made by the migration). */
    async read(): Promise<BillingSettingsRow | undefined> {
      return (await db.select().from(billingSettings).where(eq(billingSettings.id, 1)))[0];
    },

    /** The default tax rate's ppm, or 0 when there is no active default. */
    async defaultTaxRatePpm(): Promise<number> {
      const [rate] = await db
        .select({ ratePpm: taxRates.ratePpm })
        .from(taxRates)
        .where(and(eq(taxRates.isDefault, true), eq(taxRates.active, true)));
      return rate?.ratePpm ?? 0;
    },

    async lock(): Promise<BillingSettingsRow | undefined> {
      return (await db.select().from(billingSettings).where(eq(billingSettings.id, 1)).for('update'))[0];
    },

    async save(values: BillingSettingsValues): Promise<BillingSettingsRow> {
      const rows = await db
        .insert(billingSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: billingSettings.id, set: { ...values, updatedAt: sql`now()` } })
        .returning();
      return rows[0]!;
    },

    async listTaxRates(activeOnly: boolean): Promise<TaxRateRow[]> {
      return db
        .select()
        .from(taxRates)
        .where(activeOnly ? eq(taxRates.active, true) : undefined)
        .orderBy(desc(taxRates.isDefault), desc(taxRates.active), sql`lower(${taxRates.name})`, asc(taxRates.id));
    },

    async lockTaxRate(id: string): Promise<TaxRateRow | undefined> {
      return (await db.select().from(taxRates).where(eq(taxRates.id, id)).for('update'))[0];
    },

    async findTaxRateByName(name: string): Promise<TaxRateRow | undefined> {
      return (await db.select().from(taxRates).where(sql`lower(${taxRates.name}) = ${name.toLowerCase()}`))[0];
    },

    /** Clears the default flag of every other rate (before one becomes the default: one default at most, by index). */
    async clearDefault(exceptId: string | null): Promise<void> {
      await db
        .update(taxRates)
        .set({ isDefault: false, updatedAt: sql`now()` })
        .where(exceptId ? sql`${taxRates.isDefault} and ${taxRates.id} <> ${exceptId}` : eq(taxRates.isDefault, true));
    },

    async insertTaxRate(values: TaxRateValues): Promise<TaxRateRow> {
      return (await db.insert(taxRates).values(values).returning())[0]!;
    },

    async updateTaxRate(id: string, values: Partial<TaxRateValues>): Promise<TaxRateRow> {
      return (await db.update(taxRates).set({ ...values, updatedAt: sql`now()` }).where(eq(taxRates.id, id)).returning())[0]!;
    },
  };
}
