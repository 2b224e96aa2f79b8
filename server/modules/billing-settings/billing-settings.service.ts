import {
  billingSettingsMessages,
  defaultBillingSettings,
  type BillingSettings,
  type BillingSettingsResponse,
  type TaxRate,
  type taxRateBodySchema,
} from '#shared/billing-settings.ts';
import type { z } from 'zod';
import { withTransaction, type Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { diffFields, hasChanges, recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { createBillingSettingsRepository, type BillingSettingsRow, type TaxRateRow } from './billing-settings.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

const settingsFields = ['paymentTermsDays', 'quoteValidityDays', 'invoiceFooter', 'remindersEnabled', 'reminderDays'] as const;
const taxRateFields = ['name', 'ratePpm', 'isDefault', 'active'] as const;

function toSettings(row: BillingSettingsRow | undefined): BillingSettingsResponse {
  if (!row) return { settings: { ...defaultBillingSettings, reminderDays: [...defaultBillingSettings.reminderDays] }, updatedAt: null };
  return {
    settings: {
      paymentTermsDays: row.paymentTermsDays,
      quoteValidityDays: row.quoteValidityDays,
      invoiceFooter: row.invoiceFooter,
      remindersEnabled: row.remindersEnabled,
      reminderDays: row.reminderDays,
    },
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toTaxRate(row: TaxRateRow): TaxRate {
  return { id: row.id, name: row.name, ratePpm: row.ratePpm, isDefault: row.isDefault, active: row.active, updatedAt: row.updatedAt.toISOString() };
}

/** Reads the settings as the invoices and reminders need them: the defaults while none were saved. */
export async function readBillingSettings(db: Database): Promise<BillingSettings> {
  return toSettings(await createBillingSettingsRepository(db).read()).settings;
}

/** The default tax rate (ppm) new taxable lines get, or 0 when none is set (quotes and invoices). */
export function readDefaultTaxRatePpm(db: Database): Promise<number> {
  return createBillingSettingsRepository(db).defaultTaxRatePpm();
}

/**
 * Settings -> Billing (decision 024-f): terms, validity, footer, reminders, and the tax rates. At
 * most one default rate (a partial unique index); the default is active. Every change audited.
 */
export function createBillingSettingsService(options: { db: Database }) {
  const { db } = options;
  const repository = createBillingSettingsRepository(db);

  async function checkName(tx: Database, name: string, exceptId: string | null) {
    const twin = await createBillingSettingsRepository(tx).findTaxRateByName(name);
    if (twin && twin.id !== exceptId) {
      throw new AppError('CONFLICT', billingSettingsMessages.taxNameTaken(name), [{ path: 'name', message: billingSettingsMessages.taxNameTaken(name) }]);
    }
  }

  return {
    async read(): Promise<BillingSettingsResponse> {
      return toSettings(await repository.read());
    },

    async save(values: BillingSettings, actor: AuditActor): Promise<BillingSettingsResponse> {
      return withTransaction(db, async (tx) => {
        const settings = createBillingSettingsRepository(tx);
        const before = toSettings(await settings.lock()).settings;
        const changes = diffFields(before, values, { only: [...settingsFields] });
        if (!hasChanges(changes)) return toSettings(await settings.read());
        const row = await settings.save(values);
        await recordAudit(tx, { actor, entityType: 'settings', entityId: 'billing', entityLabel: 'Billing', action: 'updated', changes });
        return toSettings(row);
      });
    },

    async listTaxRates(activeOnly: boolean): Promise<{ taxRates: TaxRate[] }> {
      return { taxRates: (await repository.listTaxRates(activeOnly)).map(toTaxRate) };
    },

    async createTaxRate(values: z.output<typeof taxRateBodySchema>, actor: AuditActor): Promise<TaxRate> {
      if (values.isDefault && !values.active) throw new AppError('VALIDATION_FAILED', billingSettingsMessages.taxDefaultInactive);
      return withTransaction(db, async (tx) => {
        const rates = createBillingSettingsRepository(tx);
        await checkName(tx, values.name, null);
        if (values.isDefault) await rates.clearDefault(null);
        const row = await rates.insertTaxRate(values);
        await recordAudit(tx, {
          actor,
          entityType: 'tax_rate',
          entityId: row.id,
          entityLabel: row.name,
          action: 'created',
          changes: diffFields(undefined, row, { only: [...taxRateFields] }),
        });
        return toTaxRate(row);
      });
    },

    async updateTaxRate(id: string, values: z.output<typeof taxRateBodySchema>, actor: AuditActor): Promise<TaxRate> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND', billingSettingsMessages.taxRateNotFound);
      if (values.isDefault && !values.active) throw new AppError('VALIDATION_FAILED', billingSettingsMessages.taxDefaultInactive);
      return withTransaction(db, async (tx) => {
        const rates = createBillingSettingsRepository(tx);
        const before = await rates.lockTaxRate(id.toLowerCase());
        if (!before) throw new AppError('NOT_FOUND', billingSettingsMessages.taxRateNotFound);
        const changes = diffFields(before, { ...before, ...values }, { only: [...taxRateFields] });
        if (!hasChanges(changes)) return toTaxRate(before);
        await checkName(tx, values.name, before.id);
        if (values.isDefault && !before.isDefault) await rates.clearDefault(before.id);
        const row = await rates.updateTaxRate(before.id, values);
        await recordAudit(tx, { actor, entityType: 'tax_rate', entityId: row.id, entityLabel: row.name, action: 'updated', changes });
        return toTaxRate(row);
      });
    },
  };
}

export type BillingSettingsService = ReturnType<typeof createBillingSettingsService>;
