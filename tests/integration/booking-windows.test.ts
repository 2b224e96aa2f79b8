import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '#server/db/client.ts';
import { createAvailabilityService } from '#server/modules/availability/index.ts';
import { defaultBookingSettings, openWindowsResponseSchema, timeOfDay, type BookingSettingsInput } from '#shared/booking.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

/**
 * GET /api/public/booking/windows on a fixed clock: Friday 2027-03-12, 09:00 in Bluffton (EST), two
 * days before the clocks spring forward. Lead time 2 hours, horizon 3 days: Friday 11:00 to Monday.
 */
const fridayNineAm = new Date('2027-03-12T14:00:00Z');
let context: TestContext;
let cookie: string;
let customerId: string;

function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return context.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { cookie } });
}

async function technician(name: string, serviceTypes: string[]): Promise<string> {
  const added = await api('POST', '/api/admin/settings/technicians', { name, color: '#0d9488' });
  expect(added.statusCode, added.body).toBe(201);
  const id = added.json().technician.id as string;
  const everyDay = Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((day) => [day, [{ start: '08:00', end: '17:00' }]]));
  const set = await api('PUT', `/api/admin/settings/booking/technicians/${id}`, { workingHours: everyDay, serviceTypes });
  expect(set.statusCode, set.body).toBe(200);
  return id;
}

/** A visit on the calendar (direct SQL: the fixture, not the behaviour under test). */
async function visit(technicianId: string, date: string, start: string, end: string, status = 'scheduled') {
  await context.database.query(
    `insert into work_orders (customer_id, title, service_date, scheduled_start_time, scheduled_end_time, technician_id, status) values ($1, 'Visit', $2, $3, $4, $5, $6)`,
    [customerId, date, start, end, technicianId, status],
  );
}

async function windows(query: string) {
  const response = await context.app.inject({ method: 'GET', url: `/api/public/booking/windows?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return openWindowsResponseSchema.parse(response.json());
}

beforeAll(async () => {
  context = await createTestApp({ now: () => fridayNineAm });
  await createStaff(context.database);
  cookie = await signIn(context.app);
  const [customer] = await context.database.query<{ id: string }>(`insert into customers (name, phone, address) values ('Window Fixture', '(843) 555-0142', '1 Test Rd') returning id`);
  customerId = customer!.id;
  const settings: BookingSettingsInput = {
    ...structuredClone(defaultBookingSettings),
    travelBufferMinutes: 30,
    serviceTypes: { ...defaultBookingSettings.serviceTypes, repair: { durationMinutes: 120, bookableOnline: true, leadTimeHours: 2, horizonDays: 3 } },
  };
  expect((await api('PUT', '/api/admin/settings/booking', settings)).statusCode).toBe(200);
});
afterAll(() => context?.close());

describe('open arrival windows', () => {
  it('offers the windows a qualified technician can make: hours, time off, visits with their buffers, lead time, horizon, across the DST change', async () => {
    const alex = await technician('Alex Window', ['repair']);
    const blair = await technician('Blair Window', ['repair', 'maintenance']);
    // Free all weekend, but does no repairs: never counted for them.
    await technician('Casey Maintenance', ['maintenance']);
    // Saturday: Alex is off all day, Blair from 13:00; a cancelled visit keeps nobody busy.
    expect((await api('POST', `/api/admin/settings/booking/technicians/${alex}/time-off`, { startsOn: '2027-03-13', endsOn: '2027-03-13' })).statusCode).toBe(201);
    expect((await api('POST', `/api/admin/settings/booking/technicians/${blair}/time-off`, { startsOn: '2027-03-13', endsOn: '2027-03-13', startTime: '13:00', endTime: '17:00' })).statusCode).toBe(201);
    await visit(blair, '2027-03-13', '08:00', '10:00', 'cancelled');
    // Monday: both busy 8-10; with the 30-minute buffer the next arrival is 10:30.
    await visit(alex, '2027-03-15', '08:00', '10:00');
    await visit(blair, '2027-03-15', '08:00', '10:00');

    const answer = await windows('serviceType=repair&zip=29910');
    expect(answer.status).toBe('open');
    const offered = answer.status === 'open' ? answer.windows.map((window) => `${window.date} ${window.start}-${window.end}`) : [];
    expect(offered).toEqual([
      // Friday from 11:00 (now plus two hours): 8-10 has passed; 10-12 still takes an 11:00 arrival.
      '2027-03-12 10:00-12:00',
      '2027-03-12 13:00-15:00',
      '2027-03-12 15:00-17:00',
      // Saturday: Blair's morning only.
      '2027-03-13 08:00-10:00',
      '2027-03-13 10:00-12:00',
      // Sunday, the day the clocks change: the same wall-clock day as any other.
      '2027-03-14 08:00-10:00',
      '2027-03-14 10:00-12:00',
      '2027-03-14 13:00-15:00',
      '2027-03-14 15:00-17:00',
      // Monday: 8-10 taken by both; the horizon ends here.
      '2027-03-15 10:00-12:00',
      '2027-03-15 13:00-15:00',
      '2027-03-15 15:00-17:00',
    ]);
    // Nothing about who, or about anyone else's visit.
    expect(JSON.stringify(answer)).not.toMatch(/Alex|Blair|Casey|technician|Visit/i);
  });

  it('says when a ZIP code is outside the area or a service type is booked by phone, and refuses bad input', async () => {
    expect(await windows('serviceType=repair&zip=90210')).toEqual({ status: 'outside_area' });
    expect(await windows('serviceType=installation&zip=29910')).toEqual({ status: 'not_online' });
    const bad = await context.app.inject({ method: 'GET', url: '/api/public/booking/windows?serviceType=emergency&zip=2991' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['serviceType', 'zip']);
  });

  it('gives the last open window to exactly one of 50 bookings at once: each claims it under the technicians’ locks and re-checks', async () => {
    // Tuesdays 8-10 only, inspections only: one 60-minute visit at 8:00, and then, with the
    // 30-minute buffer, no arrival before 9:30, whose visit would end after 10:00.
    const drew = await technician('Drew Last', ['inspection']);
    expect((await api('PUT', `/api/admin/settings/booking/technicians/${drew}`, { workingHours: { '2': [{ start: '08:00', end: '10:00' }] }, serviceTypes: ['inspection'] })).statusCode).toBe(200);
    const before = await windows('serviceType=inspection&zip=29910');
    expect(before.status === 'open' && before.windows.filter((window) => window.date === '2027-03-16')).toEqual([{ date: '2027-03-16', start: '08:00', end: '10:00' }]);

    const availability = createAvailabilityService({ db: context.database.db, timeZone: context.config.businessTimeZone, now: () => fridayNineAm });
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () =>
        withTransaction(context.database.db, async (tx) => {
          const claimed = await availability.claimWindow(tx, { serviceType: 'inspection', date: '2027-03-16', window: { start: '08:00', end: '10:00' }, zip: '29910' });
          if (!claimed) return undefined;
          await tx.execute(sql`insert into work_orders (customer_id, title, service_date, scheduled_start_time, scheduled_end_time, technician_id, status, service_type)
            values (${customerId}, 'Online booking', '2027-03-16', ${timeOfDay(claimed.start)}, ${timeOfDay(claimed.end)}, ${claimed.technicianId}, 'scheduled', 'inspection')`);
          return claimed;
        }),
      ),
    );
    const booked = outcomes.filter((outcome) => outcome !== undefined);
    expect(booked).toEqual([{ technicianId: drew, start: 8 * 60, end: 9 * 60 }]);
    const [stored] = await context.database.query<{ count: number }>(`select count(*)::int as count from work_orders where technician_id = $1 and service_date = '2027-03-16' and status <> 'cancelled'`, [drew]);
    expect(stored!.count).toBe(1);
    const after = await windows('serviceType=inspection&zip=29910');
    expect(after.status === 'open' && after.windows.filter((window) => window.date === '2027-03-16')).toEqual([]);
  });

  it('limits reads per client address, not for everyone', async () => {
    const limited = await createTestApp({ env: { BOOKING_WINDOWS_LIMIT: '2' }, now: () => fridayNineAm });
    try {
      const read = (remoteAddress: string) => limited.app.inject({ method: 'GET', url: '/api/public/booking/windows?serviceType=repair&zip=29910', remoteAddress });
      expect((await read('203.0.113.7')).statusCode).toBe(200);
      expect((await read('203.0.113.7')).statusCode).toBe(200);
      expect((await read('203.0.113.7')).statusCode).toBe(429);
      expect((await read('203.0.113.8')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
