import { describe, expect, it } from 'vitest';
import { businessDateOf, navigateUrl, offlineDays, shortDate, techToday, telUrl, visitWindow } from '#client/features/tech/format.ts';

describe('the technician app\'s words and links', () => {
  it('writes the visit window from the appointment times, else the customer\'s preference', () => {
    expect(visitWindow({ scheduledStartTime: '08:00:00', scheduledEndTime: '10:00:00', timePreference: 'morning' })).toBe('8:00–10:00 AM');
    expect(visitWindow({ scheduledStartTime: '11:30:00', scheduledEndTime: '13:00:00', timePreference: 'anytime' })).toBe('11:30 AM–1:00 PM');
    expect(visitWindow({ scheduledStartTime: '12:15:00', scheduledEndTime: null, timePreference: 'afternoon' })).toBe('12:15 PM');
    expect(visitWindow({ scheduledStartTime: null, scheduledEndTime: null, timePreference: 'morning' })).toBe('Morning');
    expect(visitWindow({ scheduledStartTime: null, scheduledEndTime: null, timePreference: 'anytime' })).toBe('Any time');
  });

  it('navigates to the pin when the site has one, else to the address, in a universal maps link', () => {
    const site = { address: '1 Marsh Hen Lane', city: 'Bluffton', state: 'SC', zip: '29910', latitude: null, longitude: null };
    expect(navigateUrl(site)).toBe('https://www.google.com/maps/dir/?api=1&destination=1%20Marsh%20Hen%20Lane%2C%20Bluffton%2C%20SC%2029910');
    expect(navigateUrl({ ...site, latitude: 32.237, longitude: -80.86 })).toBe('https://www.google.com/maps/dir/?api=1&destination=32.237%2C-80.86');
    expect(telUrl('(843) 555-0142')).toBe('tel:8435550142');
  });

  it('names the kept days: today, tomorrow, then the date', () => {
    expect(offlineDays('2026-11-30', 3)).toEqual([
      { date: '2026-11-30', label: 'Today' },
      { date: '2026-12-01', label: 'Tomorrow' },
      { date: '2026-12-02', label: 'Wed, Dec 2' },
    ]);
    expect(shortDate('2026-03-08')).toBe('Sun, Mar 8');
  });

  it("takes today in the business's time zone, not the phone's", () => {
    // 11:30 PM on Nov 30 in Charleston is already Dec 1 in UTC (and on a phone set to Europe).
    const lateEvening = new Date('2026-12-01T04:30:00Z');
    expect(techToday(lateEvening, 'America/New_York')).toBe('2026-11-30');
    expect(techToday(lateEvening, 'Europe/Paris')).toBe('2026-12-01');
    expect(offlineDays(techToday(lateEvening, 'America/New_York'), 2).map((day) => day.date)).toEqual(['2026-11-30', '2026-12-01']);
    // The built company profile's zone is the default (America/New_York unless TZ_BUSINESS says otherwise).
    expect(techToday(lateEvening)).toBe(techToday(lateEvening, 'America/New_York'));
    // A photo taken at 9 PM on Nov 30 in Charleston is from Nov 30.
    expect(businessDateOf('2026-12-01T02:00:00.000Z', 'America/New_York')).toBe('2026-11-30');
  });
});
