import { z } from 'zod';
import type { CompanyProfile } from './company-profile.ts';

// What a customer sees of a quote option, an invoice or a credit note: one view model that the
// web page (staff and the customer's signed link) and the PDF both render, so their content is
// the same (issue 20). Built by the server from stored rows; amounts in integer cents, quantities
// in thousandths, tax rates in ppm (shared/money.ts).

export type BillingDocumentKind = 'invoice' | 'credit_note' | 'quote';

export type BillingParty = {
  name: string;
  /** Street, "City, ST 12345", ... one entry per printed line; empty lines left out. */
  addressLines: string[];
  phone?: string;
  email?: string;
};

export type BillingDocumentLine = {
  code?: string;
  name: string;
  description?: string;
  quantityMilli: number;
  unitPriceCents: number;
  /** Total discount of the line in cents (percent and amount together). */
  discountCents: number;
  amountCents: number;
  taxable: boolean;
};

export type BillingDocumentPayment = {
  /** ISO date (company time zone) the payment was received. */
  receivedOn: string;
  /** "Card", "Check #1043", "Refund (card)", ... */
  label: string;
  /** Positive for a payment, negative for a refund. */
  amountCents: number;
};

export type BillingDocument = {
  kind: BillingDocumentKind;
  /** "INV-000123", "CN-000004", "Q-000057". */
  number: string;
  /** "Draft", "Sent", "Partially paid", "Paid", "Void", ... */
  statusLabel: string;
  /** ISO dates (YYYY-MM-DD) in the company's time zone. */
  issuedOn?: string;
  dueOn?: string;
  /** Quotes: valid until. */
  validUntil?: string;
  company: BillingParty & { website?: string };
  customer: BillingParty;
  /** The service address when it differs from the billing address. */
  serviceAddressLines?: string[];
  /** "Work order WO-1052", "Replaces INV-000120", "Credit for INV-000118", quote option name ... */
  references: string[];
  lines: BillingDocumentLine[];
  subtotalCents: number;
  discountCents: number;
  taxes: { label: string; ratePpm: number; taxableCents: number; taxCents: number }[];
  totalCents: number;
  payments: BillingDocumentPayment[];
  /** Invoices: total - payments + refunds; absent for quotes. */
  balanceCents?: number;
  notes?: string;
  /** Payment terms / how to pay text shown at the bottom. */
  footer?: string;
};

/** Where a customer opens a quote or an invoice from its link (the token is the link's secret). */
export function customerDocumentPath(documentType: 'quote' | 'invoice' | 'visit', token: string): string {
  return `/${documentType}/${encodeURIComponent(token)}`;
}

/** The company's block on a document (its profile). */
export function companyParty(company: CompanyProfile): BillingParty & { website?: string } {
  return {
    name: company.name,
    addressLines: [company.address.street, `${company.address.city}, ${company.address.state} ${company.address.zip}`.trim()].filter((line) => line.trim() !== ''),
    phone: company.phone || undefined,
    email: company.email || undefined,
    website: company.siteUrl || undefined,
  };
}

/** A customer's address as printed lines: street, then "City, ST 12345". */
export function customerAddressLines(customer: { address: string; city: string; state: string; zip: string | null }): string[] {
  return [customer.address, `${customer.city}, ${customer.state}${customer.zip ? ` ${customer.zip}` : ''}`].filter((line) => line.trim() !== '');
}

/** A party's block (company or customer) on a document. */
export const billingPartySchema = z.object({
  name: z.string(),
  addressLines: z.array(z.string()),
  phone: z.string().optional(),
  email: z.string().optional(),
});

/** shared/billing-document.ts's BillingDocument as a schema (the public answer carries it whole). */
export const billingDocumentSchema = z.object({
  kind: z.enum(['invoice', 'credit_note', 'quote']),
  number: z.string(),
  statusLabel: z.string(),
  issuedOn: z.string().optional(),
  dueOn: z.string().optional(),
  validUntil: z.string().optional(),
  company: billingPartySchema.extend({ website: z.string().optional() }),
  customer: billingPartySchema,
  serviceAddressLines: z.array(z.string()).optional(),
  references: z.array(z.string()),
  lines: z.array(
    z.object({
      code: z.string().optional(),
      name: z.string(),
      description: z.string().optional(),
      quantityMilli: z.number().int(),
      unitPriceCents: z.number().int(),
      discountCents: z.number().int(),
      amountCents: z.number().int(),
      taxable: z.boolean(),
    }),
  ),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  taxes: z.array(
    z.object({
      label: z.string(),
      ratePpm: z.number().int(),
      taxableCents: z.number().int(),
      taxCents: z.number().int(),
    }),
  ),
  totalCents: z.number().int(),
  payments: z.array(
    z.object({
      receivedOn: z.string(),
      label: z.string(),
      amountCents: z.number().int(),
    }),
  ),
  balanceCents: z.number().int().optional(),
  notes: z.string().optional(),
  footer: z.string().optional(),
}) satisfies z.ZodType<BillingDocument>;
