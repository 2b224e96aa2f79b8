import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divideRounded,
  documentTotals,
  formatCents,
  formatQuantity,
  formatTaxRate,
  lineAmounts,
  maxQuantityMilli,
  maxUnitPriceCents,
  MoneyRuleError,
  parseMoneyInput,
  parseQuantityInput,
} from '#shared/money.ts';

describe('money: rounding', () => {
  it('rounds half away from zero', () => {
    expect(divideRounded(5n, 10n)).toBe(1n);
    expect(divideRounded(4n, 10n)).toBe(0n);
    expect(divideRounded(-5n, 10n)).toBe(-1n);
    expect(divideRounded(-4n, 10n)).toBe(0n);
    expect(divideRounded(15n, 10n)).toBe(2n);
    expect(divideRounded(25n, 10n)).toBe(3n);
  });

  it('stays exact at the largest quantity and price', () => {
    expect(lineAmounts({ quantityMilli: maxQuantityMilli, unitPriceCents: maxUnitPriceCents, taxable: false }).grossCents).toBe(100_000 * maxUnitPriceCents);
  });
});

describe('money: lines', () => {
  it('prices a fractional quantity and rounds once', () => {
    // 1.5 h of labour at $97.33 = $145.995 -> $146.00
    expect(lineAmounts({ quantityMilli: 1500, unitPriceCents: 9733, taxable: false })).toEqual({ grossCents: 14600, discountCents: 0, amountCents: 14600 });
  });

  it('applies the percent discount to the gross, then the amount discount', () => {
    // $250.00 less 15 % ($37.50) less $10.00
    expect(lineAmounts({ quantityMilli: 1000, unitPriceCents: 25000, discountBps: 1500, discountCents: 1000, taxable: true })).toEqual({
      grossCents: 25000,
      discountCents: 4750,
      amountCents: 20250,
    });
  });

  it('refuses a discount larger than the line', () => {
    expect(() => lineAmounts({ quantityMilli: 1000, unitPriceCents: 500, discountCents: 501, taxable: false })).toThrow(MoneyRuleError);
    expect(() => lineAmounts({ quantityMilli: 1000, unitPriceCents: -500, discountCents: 1, taxable: false })).toThrow(MoneyRuleError);
  });

  it('allows a negative line (a coupon) without discount', () => {
    expect(lineAmounts({ quantityMilli: 1000, unitPriceCents: -2500, taxable: false }).amountCents).toBe(-2500);
  });
});

describe('money: document totals', () => {
  it('taxes the sum of taxable lines per rate, rounded once per rate', () => {
    // Three taxable lines of $0.05 at 10 %: per-line tax would round 0.5 c up three times (3 c);
    // the rule taxes $0.15 once: 1.5 c -> 2 c.
    const line = { quantityMilli: 1000, unitPriceCents: 5, taxable: true, taxRatePpm: 100_000 };
    const totals = documentTotals([line, line, line]);
    expect(totals.subtotalCents).toBe(15);
    expect(totals.taxes).toEqual([{ ratePpm: 100_000, taxableCents: 15, taxCents: 2 }]);
    expect(totals.totalCents).toBe(17);
  });

  it('keeps rates apart and leaves untaxed lines out', () => {
    const totals = documentTotals([
      { quantityMilli: 1000, unitPriceCents: 8900, taxable: false },
      { quantityMilli: 2000, unitPriceCents: 4599, taxable: true, taxRatePpm: 60_000 },
      { quantityMilli: 1000, unitPriceCents: 10000, taxable: true, taxRatePpm: 88_750 },
    ]);
    expect(totals.subtotalCents).toBe(8900 + 9198 + 10000);
    expect(totals.taxes).toEqual([
      { ratePpm: 60_000, taxableCents: 9198, taxCents: 552 },
      { ratePpm: 88_750, taxableCents: 10000, taxCents: 888 },
    ]);
    expect(totals.totalCents).toBe(8900 + 9198 + 10000 + 552 + 888);
  });

  it('always adds up: total = sum of line amounts + sum of taxes, discounts inside the subtotal', () => {
    const lineArbitrary = fc
      .record({
        quantityMilli: fc.integer({ min: 1, max: 100_000 }),
        unitPriceCents: fc.integer({ min: 0, max: 5_000_000 }),
        discountBps: fc.integer({ min: 0, max: 10_000 }),
        taxable: fc.boolean(),
        taxRatePpm: fc.constantFrom(0, 60_000, 70_000, 88_750, 90_000),
      })
      .map((line) => ({ ...line }));
    fc.assert(
      fc.property(fc.array(lineArbitrary, { minLength: 1, maxLength: 40 }), (lines) => {
        const totals = documentTotals(lines);
        const sumOfLines = totals.lines.reduce((sum, line) => sum + line.amountCents, 0);
        const sumOfTaxes = totals.taxes.reduce((sum, tax) => sum + tax.taxCents, 0);
        expect(totals.subtotalCents).toBe(sumOfLines);
        expect(totals.totalCents).toBe(sumOfLines + sumOfTaxes);
        expect(totals.taxCents).toBe(sumOfTaxes);
        for (const line of totals.lines) expect(line.grossCents - line.discountCents).toBe(line.amountCents);
        for (const tax of totals.taxes) expect(Math.abs(tax.taxCents * 1_000_000 - tax.taxableCents * tax.ratePpm)).toBeLessThanOrEqual(500_000);
      }),
    );
  });
});

describe('money: display and input', () => {
  it('formats', () => {
    expect(formatCents(123450)).toBe('$1,234.50');
    expect(formatCents(-1200)).toBe('-$12.00');
    expect(formatQuantity(1500)).toBe('1.5');
    expect(formatQuantity(2000)).toBe('2');
    expect(formatQuantity(125)).toBe('0.125');
    expect(formatTaxRate(60_000)).toBe('6%');
    expect(formatTaxRate(88_750)).toBe('8.875%');
    expect(formatTaxRate(1_000_000)).toBe('100%');
  });

  it('parses what people type', () => {
    expect(parseMoneyInput('$1,234.5')).toBe(123450);
    expect(parseMoneyInput('89')).toBe(8900);
    expect(parseMoneyInput('-12.00')).toBe(-1200);
    expect(parseMoneyInput('.99')).toBe(99);
    expect(parseMoneyInput('12.345')).toBeUndefined();
    expect(parseMoneyInput('abc')).toBeUndefined();
    expect(parseMoneyInput('')).toBeUndefined();
    expect(parseQuantityInput('1.5')).toBe(1500);
    expect(parseQuantityInput('0')).toBeUndefined();
    expect(parseQuantityInput('1.2345')).toBeUndefined();
  });

  it('round-trips any amount through its display', () => {
    fc.assert(fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), (cents) => {
      expect(parseMoneyInput(formatCents(cents))).toBe(cents);
    }));
  });
});
