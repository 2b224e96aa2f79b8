import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse } from '#shared/audit.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import { bookingMessages, bookingSettingsPageSchema, defaultBookingSettings, type BookingSettingsInput } from '#shared/booking.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let cookie: string;
let technicianId: string;

function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = cookie) {
  return context.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { cookie: as } });
}

const page = async () => bookingSettingsPageSchema.parse((await api('GET', '/api/admin/settings/booking')).json());
const activity = async (entityType: string, entityId: string) =>
  ((await api('GET', `/api/admin/settings/activity?entityType=${entityType}&entityId=${entityId}`)).json() as AuditListResponse).entries.reverse();
const detailsOf = (response: { json: () => { error: { details: { path: string; message: string }[] } } }) => response.json().error.details;

const settings = (overrides: Partial<BookingSettingsInput> = {}): BookingSettingsInput => ({ ...structuredClone(defaultBookingSettings), ...overrides });

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  const added = await api('POST', '/api/admin/settings/technicians', { name: 'Dana Booker', color: '#2563eb' });
  expect(added.statusCode, added.body).toBe(201);
  technicianId = added.json().technician.id;
});
afterAll(() => context?.close());

describe('Settings -> Online booking', () => {
  it('shows the defaults until saved, then the saved rules (windows in order, ZIP codes once), audited', async () => {
    const before = await page();
    expect(before.updatedAt).toBeNull();
    expect(before.settings).toEqual(defaultBookingSettings);
    expect(before.settings.serviceAreaZips).toContain('29910');
    expect(before.technicians.find((technician) => technician.id === technicianId)).toMatchObject({
      name: 'Dana Booker',
      workingHours: { '1': [{ start: '08:00', end: '17:00' }], '5': [{ start: '08:00', end: '17:00' }] },
      serviceTypes: ['repair', 'maintenance', 'installation', 'inspection', 'ductwork'],
      timeOff: [],
    });

    const saved = await api(
      'PUT',
      '/api/admin/settings/booking',
      settings({
        arrivalWindows: [
          { start: '13:00', end: '16:00' },
          { start: '09:00', end: '12:00' },
        ],
        travelBufferMinutes: 20,
        serviceAreaZips: ['29928', '29910', '29928'],
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await page();
    expect(after.updatedAt).not.toBeNull();
    expect(after.settings).toMatchObject({
      arrivalWindows: [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '16:00' },
      ],
      travelBufferMinutes: 20,
      serviceAreaZips: ['29910', '29928'],
    });
    const [entry] = await activity('settings', 'booking');
    expect(entry).toMatchObject({ action: 'updated', entityLabel: 'Online booking', changes: { travelBufferMinutes: [30, 20] } });
  });

  it('refuses overlapping or backwards windows, bad ZIP codes and visit lengths off the quarter hour, naming the field', async () => {
    const overlapping = await api('PUT', '/api/admin/settings/booking', settings({ arrivalWindows: [{ start: '08:00', end: '11:00' }, { start: '10:00', end: '12:00' }] }));
    expect(overlapping.statusCode).toBe(400);
    expect(detailsOf(overlapping)).toContainEqual({ path: 'arrivalWindows', message: bookingMessages.rangesOverlap });
    const backwards = await api('PUT', '/api/admin/settings/booking', settings({ arrivalWindows: [{ start: '10:00', end: '08:00' }] }));
    expect(detailsOf(backwards)).toContainEqual({ path: 'arrivalWindows.0.end', message: bookingMessages.rangeOrder });
    const none = await api('PUT', '/api/admin/settings/booking', settings({ arrivalWindows: [] }));
    expect(detailsOf(none)).toContainEqual({ path: 'arrivalWindows', message: bookingMessages.windowsRequired });
    const zip = await api('PUT', '/api/admin/settings/booking', settings({ serviceAreaZips: ['2991'] }));
    expect(detailsOf(zip)).toContainEqual({ path: 'serviceAreaZips.0', message: bookingMessages.zipInvalid });
    const length = await api('PUT', '/api/admin/settings/booking', settings({ serviceTypes: { ...defaultBookingSettings.serviceTypes, repair: { ...defaultBookingSettings.serviceTypes.repair, durationMinutes: 50 } } }));
    expect(detailsOf(length)).toContainEqual({ path: 'serviceTypes.repair.durationMinutes', message: bookingMessages.durationInvalid });
    const time = await api('PUT', '/api/admin/settings/booking', settings({ arrivalWindows: [{ start: '8:00', end: '10:00' }] }));
    expect(detailsOf(time)).toContainEqual({ path: 'arrivalWindows.0.start', message: bookingMessages.timeInvalid });
    // Nothing of the refused saves landed.
    expect((await page()).settings.travelBufferMinutes).toBe(20);
  });

  it('sets a technician’s hours and service types; a day without ranges is a day off', async () => {
    const response = await api('PUT', `/api/admin/settings/booking/technicians/${technicianId}`, {
      workingHours: { '1': [{ start: '13:00', end: '17:00' }, { start: '07:30', end: '12:00' }], '2': [], '6': [{ start: '09:00', end: '13:00' }] },
      serviceTypes: ['maintenance', 'repair', 'repair'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().technician).toMatchObject({
      workingHours: { '1': [{ start: '07:30', end: '12:00' }, { start: '13:00', end: '17:00' }], '6': [{ start: '09:00', end: '13:00' }] },
      serviceTypes: ['repair', 'maintenance'],
    });
    expect(response.json().technician.workingHours).not.toHaveProperty('2');
    expect((await activity('technician', technicianId)).at(-1)).toMatchObject({ action: 'availability_updated', entityLabel: 'Dana Booker' });

    const overlapping = await api('PUT', `/api/admin/settings/booking/technicians/${technicianId}`, { workingHours: { '1': [{ start: '08:00', end: '12:00' }, { start: '11:00', end: '15:00' }] }, serviceTypes: [] });
    expect(overlapping.statusCode).toBe(400);
    expect(detailsOf(overlapping)).toContainEqual({ path: 'workingHours.1', message: bookingMessages.rangesOverlap });
    const unknownDay = await api('PUT', `/api/admin/settings/booking/technicians/${technicianId}`, { workingHours: { '7': [] }, serviceTypes: [] });
    expect(unknownDay.statusCode).toBe(400);
    const unknownType = await api('PUT', `/api/admin/settings/booking/technicians/${technicianId}`, { workingHours: {}, serviceTypes: ['emergency'] });
    expect(detailsOf(unknownType)).toContainEqual({ path: 'serviceTypes.0', message: bookingMessages.serviceTypesInvalid });
    for (const id of ['not-an-id', '00000000-0000-4000-8000-000000000000']) {
      expect((await api('PUT', `/api/admin/settings/booking/technicians/${id}`, { workingHours: {}, serviceTypes: [] })).statusCode).toBe(404);
    }
  });

  it('adds whole days and part of a day off, lists what has not ended, and removes them, audited', async () => {
    const today = todayIn(context.config.businessTimeZone);
    const holiday = await api('POST', `/api/admin/settings/booking/technicians/${technicianId}/time-off`, { startsOn: addDays(today, 10), endsOn: addDays(today, 12), reason: 'Family visit' });
    expect(holiday.statusCode, holiday.body).toBe(201);
    const dentist = await api('POST', `/api/admin/settings/booking/technicians/${technicianId}/time-off`, { startsOn: addDays(today, 2), endsOn: addDays(today, 2), startTime: '13:00', endTime: '15:30' });
    expect(dentist.statusCode, dentist.body).toBe(201);
    expect(dentist.json().timeOff).toMatchObject({ startTime: '13:00', endTime: '15:30', reason: '' });
    // Ended time off is history, not shown.
    await context.database.query(`insert into technician_time_off (technician_id, starts_on, ends_on) values ($1, $2, $2)`, [technicianId, addDays(today, -3)]);

    const listed = (await page()).technicians.find((technician) => technician.id === technicianId)!.timeOff;
    expect(listed.map((entry) => [entry.startsOn, entry.endsOn, entry.startTime])).toEqual([
      [addDays(today, 2), addDays(today, 2), '13:00'],
      [addDays(today, 10), addDays(today, 12), null],
    ]);

    const acrossDays = await api('POST', `/api/admin/settings/booking/technicians/${technicianId}/time-off`, { startsOn: today, endsOn: addDays(today, 1), startTime: '13:00', endTime: '15:00' });
    expect(detailsOf(acrossDays)).toContainEqual({ path: 'startTime', message: bookingMessages.timeOffPartDay });
    const backwards = await api('POST', `/api/admin/settings/booking/technicians/${technicianId}/time-off`, { startsOn: addDays(today, 3), endsOn: today });
    expect(detailsOf(backwards)).toContainEqual({ path: 'endsOn', message: bookingMessages.timeOffDates });
    const oneTime = await api('POST', `/api/admin/settings/booking/technicians/${technicianId}/time-off`, { startsOn: today, endsOn: today, startTime: '13:00' });
    expect(detailsOf(oneTime)).toContainEqual({ path: 'startTime', message: bookingMessages.timeOffPartDay });
    expect((await api('POST', '/api/admin/settings/booking/technicians/00000000-0000-4000-8000-000000000000/time-off', { startsOn: today, endsOn: today })).statusCode).toBe(404);

    const removed = await api('DELETE', `/api/admin/settings/booking/time-off/${dentist.json().timeOff.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await api('DELETE', `/api/admin/settings/booking/time-off/${dentist.json().timeOff.id}`)).statusCode).toBe(404);
    expect((await page()).technicians.find((technician) => technician.id === technicianId)!.timeOff).toHaveLength(1);
    expect((await activity('technician', technicianId)).slice(-3).map((entry) => [entry.action, entry.changes])).toEqual([
      ['time_off_added', { timeOff: [null, `${addDays(today, 10)} to ${addDays(today, 12)}`] }],
      ['time_off_added', { timeOff: [null, `${addDays(today, 2)} 13:00-15:30`] }],
      ['time_off_removed', { timeOff: [`${addDays(today, 2)} 13:00-15:30`, null] }],
    ]);
  });

  it('is for admins: a dispatcher can neither read nor change it', async () => {
    await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
    const dispatcher = await signIn(context.app, 'dispatch@example.com');
    expect((await api('GET', '/api/admin/settings/booking', undefined, dispatcher)).statusCode).toBe(403);
    expect((await api('PUT', '/api/admin/settings/booking', settings(), dispatcher)).statusCode).toBe(403);
    expect((await api('POST', `/api/admin/settings/booking/technicians/${technicianId}/time-off`, { startsOn: '2030-01-01', endsOn: '2030-01-01' }, dispatcher)).statusCode).toBe(403);
  });
});
