import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates.ts';
import { statusForPaid } from '#shared/invoice.ts';
import { systemActors } from '#server/modules/audit/index.ts';
import { createInvoiceService, type InvoiceService } from '#server/modules/invoices/index.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';
import type { DatabaseHandle } from '#server/db/client.ts';

// A property over random sequences of payments and refunds, through the real service on a real
// database (PGlite, or PostgreSQL with TEST_DATABASE_URL): after every step the stored balance is
// total - payments + refunds, the status matches the balance, and a refused step stores nothing.

const timeZone = 'America/New_York';
let database: DatabaseHandle;
let service: InvoiceService;
let customerId: string;
const actor = systemActors.system;
const today = todayIn(timeZone);

beforeAll(async () => {
  database = await createTestDatabase();
  service = createInvoiceService({
    db: database.db,
    timeZone,
    company: {
      name: 'Lowcountry Comfort Heating & Air',
      phone: '(843) 555-0100',
      emergencyPhone: '',
      email: 'office@example.com',
      address: { street: '1 Main St', city: 'Bluffton', state: 'SC', zip: '29910' },
      openingHours: [],
      geo: { latitude: 0, longitude: 0 },
      social: { facebook: '', instagram: '', google: '' },
      siteUrl: 'https://example.com',
      timeZone,
      notificationRecipients: [],
    },
  });
  const [row] = await database.query<{ id: string }>(`insert into customers (name, phone, address) values ('Property Test', '(843) 555-0400', '4 Ledger Way') returning id`);
  customerId = row!.id;
});
afterAll(() => database?.close());

type Step = { kind: 'pay'; amount: number; method: 'cash' | 'card' | 'other' } | { kind: 'refund'; pick: number; amount: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 30_000 }), method: fc.constantFrom('cash' as const, 'card' as const, 'other' as const) }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 30_000 }) }),
);

async function storedState(invoiceId: string) {
  const [invoice] = await database.query<{ total_cents: string; paid_cents: string; balance_cents: string; status: string }>(
    'select total_cents, paid_cents, balance_cents, status from invoices where id = $1',
    [invoiceId],
  );
  const rows = await database.query<{ id: string; kind: string; amount_cents: string; refund_of_payment_id: string | null }>(
    'select id, kind, amount_cents, refund_of_payment_id from payments where invoice_id = $1',
    [invoiceId],
  );
  return {
    total: Number(invoice!.total_cents),
    paid: Number(invoice!.paid_cents),
    balance: Number(invoice!.balance_cents),
    status: invoice!.status,
    payments: rows.map((row) => ({ id: row.id, kind: row.kind, amount: Number(row.amount_cents), refundOf: row.refund_of_payment_id })),
  };
}

describe('payments and refunds: a property over random sequences', () => {
  it('keeps balance = total - payments + refunds and the status by the balance; refusals store nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 60_000 }), fc.array(step, { minLength: 1, maxLength: 12 }), async (unitPrice, steps) => {
        const draft = await service.create({ customerId, workOrderId: null, notes: '', lines: [{ priceBookItemId: null, kind: 'service', code: '', name: 'Visit', description: '', quantityMilli: 1000, unitPriceCents: unitPrice, discountBps: 0, discountCents: 0, taxable: true, taxRatePpm: 60_000 }] }, actor);
        const { invoice } = await service.issue(draft.invoice.id, actor);
        for (const next of steps) {
          const before = await storedState(invoice.id);
          let refused = false;
          try {
            if (next.kind === 'pay') {
              await service.recordPayment(invoice.id, { method: next.method, amountCents: next.amount, receivedOn: today, reference: '', note: '' }, actor);
            } else {
              const candidates = before.payments.filter((payment) => payment.kind === 'payment');
              if (candidates.length === 0) continue;
              const target = candidates[next.pick % candidates.length]!;
              await service.refund(invoice.id, target.id, { amountCents: next.amount, receivedOn: today, note: '' }, actor);
            }
          } catch (error) {
            refused = true;
            expect((error as { code?: string }).code).toMatch(/^(VALIDATION_FAILED|CONFLICT)$/);
          }
          const after = await storedState(invoice.id);
          // What the rule says should have happened, from the state before.
          if (next.kind === 'pay') {
            expect(refused).toBe(next.amount > before.balance || before.balance === 0);
          } else {
            const candidates = before.payments.filter((payment) => payment.kind === 'payment');
            const target = candidates[next.pick % candidates.length]!;
            const left = target.amount - before.payments.filter((payment) => payment.refundOf === target.id).reduce((sum, payment) => sum + payment.amount, 0);
            expect(refused).toBe(next.amount > left);
          }
          if (refused) {
            expect(after).toEqual(before);
          } else {
            expect(after.payments).toHaveLength(before.payments.length + 1);
          }
          const payments = after.payments.filter((payment) => payment.kind === 'payment').reduce((sum, payment) => sum + payment.amount, 0);
          const refunds = after.payments.filter((payment) => payment.kind === 'refund').reduce((sum, payment) => sum + payment.amount, 0);
          expect(after.balance).toBe(after.total - payments + refunds);
          expect(after.paid).toBe(payments - refunds);
          expect(after.balance).toBeGreaterThanOrEqual(0);
          expect(after.status).toBe(statusForPaid(after.total, after.paid));
          // Each payment's refunds never exceed it.
          for (const payment of after.payments.filter((entry) => entry.kind === 'payment')) {
            const refunded = after.payments.filter((entry) => entry.refundOf === payment.id).reduce((sum, entry) => sum + entry.amount, 0);
            expect(refunded).toBeLessThanOrEqual(payment.amount);
          }
        }
      }),
      { numRuns: 30 },
    );
  }, 240_000);
});
