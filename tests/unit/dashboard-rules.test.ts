import { describe, expect, it } from 'vitest';
import { chatConversion, conversionPercent, conversionRate } from '#shared/dashboard.ts';
import { addDays, monthStart } from '#shared/dates.ts';
import { dashboardDays } from '#server/modules/dashboard/dashboard.service.ts';

describe('calendar-date arithmetic', () => {
  it('adds and subtracts days across months, years and leap days', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-10', -6)).toBe('2026-03-04');
  });

  it('finds the first day of this and the next month', () => {
    expect(monthStart('2026-03-31')).toBe('2026-03-01');
    expect(monthStart('2026-12-15', 1)).toBe('2027-01-01');
    expect(monthStart('2026-01-31', 1)).toBe('2026-02-01');
  });
});

describe('the dashboard days', () => {
  it("are the company's calendar days, not UTC's", () => {
    // 02:00Z on 1 April is 22:00 on 31 March in New York.
    expect(dashboardDays('America/New_York', new Date('2026-04-01T02:00:00Z'))).toEqual({
      timeZone: 'America/New_York',
      today: '2026-03-31',
      tomorrow: '2026-04-01',
      monthStart: '2026-03-01',
      nextMonthStart: '2026-04-01',
      weekStart: '2026-03-25',
    });
  });
});

describe('conversion figures', () => {
  it('are whole percentages, 0 when there is nothing to divide by, and not capped', () => {
    expect(conversionPercent(0, 0)).toBe(0);
    expect(conversionPercent(5, 0)).toBe(0);
    expect(conversionPercent(1, 3)).toBe(33);
    expect(conversionPercent(2, 3)).toBe(67);
    expect(conversionPercent(1, 8)).toBe(13);
    expect(conversionPercent(3, 2)).toBe(150);
    expect(conversionRate(4, 10)).toBe(40);
    expect(chatConversion(4, 0)).toBe(0);
  });
});
