import type { BillingDocument, BillingDocumentLine } from '#shared/billing-document.ts';
import { documentTotals, type LineInput } from '#shared/money.ts';

// Realistic billing documents for the PDF tests and bench/billing-pdf.ts: lines priced as an HVAC
// company prices them, totals computed by the money rule (shared/money.ts), so every figure adds up.

export const company: BillingDocument['company'] = {
  name: 'Lowcountry Comfort Heating & Air',
  addressLines: ['35 Persimmon Street, Suite 201', 'Bluffton, SC 29910'],
  phone: '(843) 555-0142',
  email: 'billing@lowcountrycomfort.example',
  website: 'lowcountrycomfort.example',
};

export type FixtureLine = LineInput & { code?: string; name: string; description?: string };

const catalogue: FixtureLine[] = [
  { code: 'DIAG', name: 'Diagnostic visit', description: 'Full system diagnostic: refrigerant pressures, electrical, airflow and controls.', quantityMilli: 1000, unitPriceCents: 8900, taxable: false },
  { code: 'LAB-HR', name: 'Labor, certified technician', description: 'Per hour, billed in quarter hours.', quantityMilli: 2750, unitPriceCents: 12500, taxable: false },
  { code: 'CAP-4555', name: 'Dual run capacitor 45/5 µF 440 V', quantityMilli: 1000, unitPriceCents: 6450, taxable: true, taxRatePpm: 60_000 },
  { code: 'CONT-2P30', name: 'Contactor, 2-pole 30 A 24 V coil', quantityMilli: 1000, unitPriceCents: 4875, discountBps: 1000, taxable: true, taxRatePpm: 60_000 },
  { code: 'R410A', name: 'Refrigerant R-410A', description: 'Charged by weight; leak check included.', quantityMilli: 2500, unitPriceCents: 8500, taxable: true, taxRatePpm: 60_000 },
  { code: 'FILT-16', name: 'Pleated filter 16×25×1 MERV 11', quantityMilli: 4000, unitPriceCents: 1899, taxable: true, taxRatePpm: 70_000 },
  { code: 'PLAN-GOLD', name: 'Comfort Club Gold, annual plan', description: 'Two tune-ups a year, 15% off repairs, priority scheduling.', quantityMilli: 1000, unitPriceCents: 21900, discountCents: 2500, taxable: false },
  { code: 'DRAIN', name: 'Condensate drain line flush', quantityMilli: 1000, unitPriceCents: 9500, taxable: false },
  { code: 'TSTAT-WIFI', name: 'Wi-Fi thermostat, installed', description: 'Programmable, app control, C-wire adapter if needed.', quantityMilli: 1000, unitPriceCents: 28900, discountBps: 1500, taxable: true, taxRatePpm: 60_000 },
  { code: 'DUCT-SEAL', name: 'Duct sealing, mastic', quantityMilli: 12_500, unitPriceCents: 375, taxable: true, taxRatePpm: 70_000 },
];

export function fixtureLines(count: number): FixtureLine[] {
  return Array.from({ length: count }, (_, index) => {
    const line = catalogue[index % catalogue.length]!;
    return index < catalogue.length ? line : { ...line, name: `${line.name} (${Math.floor(index / catalogue.length) + 1})` };
  });
}

const taxLabels: Record<number, string> = { 60_000: 'SC sales tax', 70_000: 'Beaufort County sales tax' };

/** A document of the given kind from its lines, with the totals of the money rule. */
export function billingDocument(kind: BillingDocument['kind'], lines: FixtureLine[], extra: Partial<BillingDocument> = {}): BillingDocument {
  const totals = documentTotals(lines);
  const documentLines: BillingDocumentLine[] = lines.map((line, index) => ({
    ...(line.code ? { code: line.code } : {}),
    name: line.name,
    ...(line.description ? { description: line.description } : {}),
    quantityMilli: line.quantityMilli,
    unitPriceCents: line.unitPriceCents,
    discountCents: totals.lines[index]!.discountCents,
    amountCents: totals.lines[index]!.amountCents,
    taxable: line.taxable,
  }));
  const payments = extra.payments ?? [];
  return {
    kind,
    number: kind === 'invoice' ? 'INV-000123' : kind === 'credit_note' ? 'CN-000004' : 'Q-000057',
    statusLabel: kind === 'quote' ? 'Sent' : 'Partially paid',
    company,
    customer: { name: 'Marisol Okafor-Trần', addressLines: ['18 Calhoun Street', 'Bluffton, SC 29910'], phone: '(843) 555-0187', email: 'marisol@example.com' },
    references: [],
    lines: documentLines,
    subtotalCents: totals.subtotalCents,
    discountCents: totals.discountCents,
    taxes: totals.taxes.map((tax) => ({ label: taxLabels[tax.ratePpm] ?? 'Sales tax', ...tax })),
    totalCents: totals.totalCents,
    payments,
    ...(kind === 'quote' ? {} : { balanceCents: totals.totalCents - payments.reduce((sum, payment) => sum + payment.amountCents, 0) }),
    ...extra,
  };
}

export function sampleInvoice(lineCount = catalogue.length): BillingDocument {
  const document = billingDocument('invoice', fixtureLines(lineCount), {
    issuedOn: '2026-11-20',
    dueOn: '2026-12-20',
    serviceAddressLines: ['Rental unit B', '42 May River Road', 'Bluffton, SC 29910'],
    references: ['Work order WO-1052', 'Technician: Dwayne Simmons'],
    payments: [{ receivedOn: '2026-11-21', label: 'Check #1043', amountCents: 25_000 }],
    notes: 'Thank you for choosing Lowcountry Comfort. The compressor showed wear; we recommend a replacement quote before next summer.',
    footer: 'Payment due within 30 days. Pay by check to Lowcountry Comfort Heating & Air, or by card from the link in your e-mail. Questions: (843) 555-0142.',
  });
  return document;
}

export function sampleCreditNote(): BillingDocument {
  return billingDocument('credit_note', [catalogue[2]!, { ...catalogue[1]!, quantityMilli: 500 }], {
    statusLabel: 'Issued',
    issuedOn: '2026-11-24',
    references: ['Credit for INV-000118'],
    notes: 'Capacitor returned unused; half an hour of labor credited.',
  });
}

export function sampleQuote(): BillingDocument {
  return billingDocument('quote', [catalogue[0]!, catalogue[8]!, catalogue[9]!], {
    issuedOn: '2026-11-26',
    validUntil: '2026-12-26',
    references: ['Option 2 of 3: Better', 'Lead L-0311'],
    footer: 'Prices valid for 30 days. Approve online from the link in your e-mail.',
  });
}
