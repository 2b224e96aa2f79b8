import { describe, expect, it } from 'vitest';
import { countLabel } from '#shared/api.ts';
import { customerCountLabel } from '#shared/customer.ts';
import { cappedTotal, countCap } from '#server/db/count-cap.ts';

describe('a total counted up to the cap', () => {
  it('is exact up to the cap, and a lower bound past it', () => {
    expect(cappedTotal(0)).toEqual({ total: 0, totalCapped: false });
    expect(cappedTotal(countCap)).toEqual({ total: countCap, totalCapped: false });
    expect(cappedTotal(countCap + 1)).toEqual({ total: countCap, totalCapped: true });
    // A full page past the cap has shown more rows than the cap: they are the lower bound.
    expect(cappedTotal(countCap + 1, 1_250)).toEqual({ total: 1_250, totalCapped: true });
    expect(cappedTotal(countCap + 1, 50)).toEqual({ total: countCap, totalCapped: true });
  });

  it('reads "1,000+ customers" past the cap', () => {
    expect(customerCountLabel(1)).toBe('1 customer');
    expect(customerCountLabel(1_000)).toBe('1,000 customers');
    expect(customerCountLabel(1_000, true)).toBe('1,000+ customers');
  });

  it('reads the same way for leads and work orders: never "1+ lead"', () => {
    const lead = { one: 'lead', many: 'leads' };
    expect(countLabel(0, false, lead)).toBe('0 leads');
    expect(countLabel(1, false, lead)).toBe('1 lead');
    expect(countLabel(1, true, lead)).toBe('1+ leads');
    expect(countLabel(1_250, true, { one: 'work order', many: 'work orders' })).toBe('1,250+ work orders');
  });
});
