import { describe, expect, it } from 'vitest';
import { earliestArrival, localMoment, openWindows, type SlotRules, type TechnicianAvailability } from '#server/modules/availability/index.ts';

const h = (hours: number, minutes = 0) => hours * 60 + minutes;
const monday = '2026-11-30';
const tuesday = '2026-12-01';
const windows = [
  { start: h(8), end: h(10) },
  { start: h(10), end: h(12) },
  { start: h(13), end: h(15) },
  { start: h(15), end: h(17) },
];

const technician = (overrides: Partial<TechnicianAvailability> = {}): TechnicianAvailability => ({
  id: 'tech-a',
  serviceTypes: ['repair', 'maintenance'],
  weeklyHours: { 1: [{ start: h(8), end: h(17) }], 2: [{ start: h(8), end: h(17) }] },
  timeOff: [],
  visits: [],
  ...overrides,
});

const rules = (overrides: Partial<SlotRules> = {}): SlotRules => ({
  serviceType: 'repair',
  durationMinutes: 60,
  bufferMinutes: 0,
  windows,
  earliest: { date: monday, minutes: 0 },
  lastDate: monday,
  ...overrides,
});

const opened = (technicians: TechnicianAvailability[], slotRules: SlotRules) =>
  openWindows(technicians, slotRules).map((open) => `${open.date} ${open.window.start / 60}-${open.window.end / 60}`);

describe('open arrival windows', () => {
  it('offers only the windows inside a technician’s working hours, the whole visit included', () => {
    const mornings = technician({ weeklyHours: { 1: [{ start: h(8), end: h(12) }] } });
    expect(opened([mornings], rules({ lastDate: tuesday }))).toEqual([`${monday} 8-10`, `${monday} 10-12`]);
    // A 3-hour visit arriving in 10-12 would run past noon: only 8-10 (arriving at 8 or 9) fits.
    expect(opened([mornings], rules({ durationMinutes: 180 }))).toEqual([`${monday} 8-10`]);
    expect(earliestArrival(mornings, monday, windows[0]!, rules({ durationMinutes: 180 }))).toMatchObject({ start: h(8), end: h(11) });
  });

  it('leaves out whole days off and the part of a day that is off', () => {
    expect(opened([technician({ timeOff: [{ date: monday }] })], rules())).toEqual([]);
    const dentist = technician({ timeOff: [{ date: monday, range: { start: h(8), end: h(10, 30) } }] });
    expect(opened([dentist], rules())).toEqual([`${monday} 10-12`, `${monday} 13-15`, `${monday} 15-17`]);
    expect(earliestArrival(dentist, monday, windows[1]!, rules())).toMatchObject({ start: h(10, 30) });
  });

  it('offers a service type only through technicians who do it', () => {
    const installer = technician({ id: 'tech-b', serviceTypes: ['installation'] });
    expect(opened([installer], rules())).toEqual([]);
    expect(openWindows([installer, technician()], rules())[0]!.candidates.map((candidate) => candidate.technicianId)).toEqual(['tech-a']);
  });

  it('keeps the travel buffer free on both sides of every booked visit', () => {
    const busy = technician({ visits: [{ date: monday, start: h(8), end: h(9) }, { date: monday, start: h(11), end: h(12) }] });
    expect(earliestArrival(busy, monday, windows[0]!, rules())).toMatchObject({ start: h(9), end: h(10) });
    // 9:30-10:30: half an hour after 9:00's end, and 10:30 + 30 minutes reaches 11:00's start exactly.
    expect(earliestArrival(busy, monday, windows[0]!, rules({ bufferMinutes: 30 }))).toMatchObject({ start: h(9, 30), end: h(10, 30) });
    expect(earliestArrival(busy, monday, windows[0]!, rules({ bufferMinutes: 45 }))).toBeUndefined();
    expect(earliestArrival(busy, monday, windows[1]!, rules({ bufferMinutes: 30 }))).toBeUndefined();
    expect(earliestArrival(busy, monday, windows[2]!, rules({ bufferMinutes: 30 }))).toMatchObject({ start: h(13) });
    expect(earliestArrival(busy, monday, windows[1]!, rules({ bufferMinutes: 15 }))).toBeUndefined(); // 9:15-10:15 is in 8-10, not 10-12
    expect(earliestArrival(busy, monday, windows[0]!, rules({ bufferMinutes: 15 }))).toMatchObject({ start: h(9, 15) });
  });

  it('starts no earlier than the lead time and ends at the horizon', () => {
    const early = rules({ earliest: { date: monday, minutes: h(10, 5) }, lastDate: tuesday });
    const open = openWindows([technician()], early);
    expect(open.map((entry) => `${entry.date} ${entry.window.start / 60}`)).toEqual([
      `${monday} 10`,
      `${monday} 13`,
      `${monday} 15`,
      `${tuesday} 8`,
      `${tuesday} 10`,
      `${tuesday} 13`,
      `${tuesday} 15`,
    ]);
    expect(open[0]!.candidates[0]!.start).toBe(h(10, 15));
    // Wednesday has hours neither in the settings nor inside the horizon.
    expect(opened([technician({ weeklyHours: { 3: [{ start: h(8), end: h(17) }] } })], early)).toEqual([]);
  });

  it('reads "now" on the company’s clock across both daylight-saving changes', () => {
    const zone = 'America/New_York';
    // Spring forward, 2027-03-14: 2:00 EST becomes 3:00 EDT at 07:00 UTC.
    expect(localMoment(new Date('2027-03-14T06:30:00Z'), zone)).toEqual({ date: '2027-03-14', minutes: h(1, 30) });
    expect(localMoment(new Date('2027-03-14T07:30:00Z'), zone)).toEqual({ date: '2027-03-14', minutes: h(3, 30) });
    // Fall back, 2026-11-01: 1:30 happens twice.
    expect(localMoment(new Date('2026-11-01T05:30:00Z'), zone)).toEqual({ date: '2026-11-01', minutes: h(1, 30) });
    expect(localMoment(new Date('2026-11-01T06:30:00Z'), zone)).toEqual({ date: '2026-11-01', minutes: h(1, 30) });
    expect(localMoment(new Date('2026-11-28T04:59:00Z'), zone)).toEqual({ date: '2026-11-27', minutes: h(23, 59) });
    // A week with the change offers the same wall-clock windows on the Sunday as on any other day.
    const sundays = technician({ weeklyHours: { 0: [{ start: h(8), end: h(17) }] } });
    for (const sunday of ['2027-03-14', '2026-11-01', '2026-11-08']) {
      expect(opened([sundays], rules({ earliest: { date: sunday, minutes: 0 }, lastDate: sunday }))).toEqual(windows.map((window) => `${sunday} ${window.start / 60}-${window.end / 60}`));
    }
  });
});
