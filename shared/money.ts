import { z } from 'zod';

// Money and line arithmetic for the price book, quotes and invoices (issue 20, decision 024-c).
// One place for the rule, used by the server (which is the authority and stores the results) and
// by the screens (which show the same figures while a document is edited).
//
// - Amounts are integer cents (`number`, always a safe integer). Quantities are integer thousandths
//   of a unit (1.5 hours of labour = 1500). Tax rates are integer parts per million (6 % = 60000,
//   8.875 % = 88750). Percent discounts are basis points (15 % = 1500).
// - Rounding is half away from zero, done in BigInt so no intermediate product loses precision.
// - A line's amount is rounded once: round(quantity x unit price) - round(gross x discount %)
//   - discount amount. Its tax is NOT rounded per line.
// - Tax is computed per rate on the sum of the taxable line amounts of that rate and rounded once
//   per rate. So the subtotal is exactly the sum of the line amounts shown, and the total is
//   exactly subtotal + each tax shown: the printed figures always add up. (Rounding tax per line
//   and summing could differ from this by up to half a cent per line; we never do that.)

export const maxAmountCents = 100_000_000_00; // $100,000,000.00
export const maxUnitPriceCents = 10_000_000_00; // $10,000,000.00 per unit
export const maxQuantityMilli = 100_000_000; // 100,000 units
export const maxTaxRatePpm = 1_000_000; // 100 %
export const maxDiscountBps = 10_000; // 100 %

export const centsSchema = z.number().int().min(-maxAmountCents).max(maxAmountCents);
export const nonNegativeCentsSchema = z.number().int().min(0).max(maxAmountCents);
export const unitPriceCentsSchema = z.number().int().min(-maxUnitPriceCents).max(maxUnitPriceCents);
export const quantityMilliSchema = z.number().int().min(1).max(maxQuantityMilli);
export const taxRatePpmSchema = z.number().int().min(0).max(maxTaxRatePpm);
export const discountBpsSchema = z.number().int().min(0).max(maxDiscountBps);

/** Divides and rounds half away from zero. `divisor` must be positive. */
export function divideRounded(numerator: bigint, divisor: bigint): bigint {
  if (divisor <= 0n) throw new RangeError('divisor must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + divisor) / (divisor * 2n);
  return negative ? -quotient : quotient;
}

function toSafeNumber(value: bigint): number {
  const result = Number(value);
  if (!Number.isSafeInteger(result)) throw new RangeError('amount out of range');
  return result;
}

export type LineInput = {
  quantityMilli: number;
  unitPriceCents: number;
  /** Percent discount on the line's gross, in basis points. */
  discountBps?: number;
  /** Amount discount on the line, in cents, after the percent discount. */
  discountCents?: number;
  taxable: boolean;
  /** The tax rate of a taxable line, in ppm; ignored when not taxable. */
  taxRatePpm?: number;
};

export type LineAmounts = {
  grossCents: number;
  discountCents: number;
  /** gross - discounts: what the line adds to the subtotal. */
  amountCents: number;
};

export class MoneyRuleError extends Error {}

/** A line's gross, its total discount and its amount. Throws MoneyRuleError when the discount exceeds a positive gross. */
export function lineAmounts(line: LineInput): LineAmounts {
  const gross = divideRounded(BigInt(line.quantityMilli) * BigInt(line.unitPriceCents), 1000n);
  const percentOff = divideRounded(gross * BigInt(line.discountBps ?? 0), 10_000n);
  const discount = percentOff + BigInt(line.discountCents ?? 0);
  if (discount < 0n) throw new MoneyRuleError('A discount cannot be negative.');
  if (discount > 0n && gross <= 0n) throw new MoneyRuleError('Only a line with a positive price can be discounted.');
  if (discount > gross && gross > 0n) throw new MoneyRuleError('A discount cannot exceed the line amount.');
  return { grossCents: toSafeNumber(gross), discountCents: toSafeNumber(discount), amountCents: toSafeNumber(gross - discount) };
}

export type TaxAmount = { ratePpm: number; taxableCents: number; taxCents: number };

export type DocumentTotals = {
  lines: LineAmounts[];
  /** Sum of the line amounts (after line discounts), before tax. */
  subtotalCents: number;
  /** Sum of the line discounts (already inside subtotal). */
  discountCents: number;
  /** One entry per distinct rate of the taxable lines, in ascending rate order. */
  taxes: TaxAmount[];
  taxCents: number;
  totalCents: number;
};

/** The totals of a quote option, an invoice or a credit note from its lines (the rule above). */
export function documentTotals(lines: readonly LineInput[]): DocumentTotals {
  const amounts = lines.map(lineAmounts);
  const taxableByRate = new Map<number, bigint>();
  lines.forEach((line, index) => {
    if (!line.taxable) return;
    const rate = line.taxRatePpm ?? 0;
    taxableByRate.set(rate, (taxableByRate.get(rate) ?? 0n) + BigInt(amounts[index]!.amountCents));
  });
  const taxes = [...taxableByRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([ratePpm, taxable]) => ({ ratePpm, taxableCents: toSafeNumber(taxable), taxCents: toSafeNumber(divideRounded(taxable * BigInt(ratePpm), 1_000_000n)) }));
  const subtotal = amounts.reduce((sum, line) => sum + BigInt(line.amountCents), 0n);
  const discount = amounts.reduce((sum, line) => sum + BigInt(line.discountCents), 0n);
  const tax = taxes.reduce((sum, entry) => sum + BigInt(entry.taxCents), 0n);
  return {
    lines: amounts,
    subtotalCents: toSafeNumber(subtotal),
    discountCents: toSafeNumber(discount),
    taxes,
    taxCents: toSafeNumber(tax),
    totalCents: toSafeNumber(subtotal + tax),
  };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50", "-$12.00". */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** "1.5", "2", "0.125": a quantity in thousandths for display. */
export function formatQuantity(quantityMilli: number): string {
  const whole = Math.trunc(quantityMilli / 1000);
  const fraction = Math.abs(quantityMilli % 1000);
  if (fraction === 0) return String(whole);
  return `${quantityMilli < 0 && whole === 0 ? '-' : ''}${whole}.${String(fraction).padStart(3, '0').replace(/0+$/, '')}`;
}

/** "6%", "8.875%": a rate in ppm for display. */
export function formatTaxRate(ratePpm: number): string {
  return `${(ratePpm / 10_000).toFixed(4).replace(/\.?0+$/, '')}%`;
}

/**
 * Parses what a person types as money ("1,234.5", "$89", "-12.00") into cents, or undefined when
 * it is not an amount with at most two decimals.
 */
export function parseMoneyInput(text: string): number | undefined {
  const match = /^\s*(-)?\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{0,2}))?\s*$/.exec(text);
  if (!match || (match[2] === undefined && !match[3])) return undefined;
  const whole = Number((match[2] ?? '0').replace(/,/g, ''));
  const cents = whole * 100 + Number((match[3] ?? '').padEnd(2, '0') || '0');
  if (!Number.isSafeInteger(cents) || cents > maxAmountCents) return undefined;
  return match[1] ? -cents : cents;
}

/** Parses a quantity with at most three decimals ("1.5") into thousandths, or undefined. */
export function parseQuantityInput(text: string): number | undefined {
  const match = /^\s*(\d+)?(?:\.(\d{0,3}))?\s*$/.exec(text);
  if (!match || (match[1] === undefined && !match[2])) return undefined;
  const milli = Number(match[1] ?? '0') * 1000 + Number((match[2] ?? '').padEnd(3, '0') || '0');
  return Number.isSafeInteger(milli) && milli > 0 && milli <= maxQuantityMilli ? milli : undefined;
}
