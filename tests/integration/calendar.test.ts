import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarMessages, type CalendarEvent, type CalendarRangeEvent } from '#shared/calendar.ts';
import type { WorkOrder } from '#shared/work-order.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The service calendar's server side: the visible range, drags and resizes, the technician buttons
// with overlap warnings, and delete, each on the version the calendar showed.

let context: TestContext;
let cookie: string;
let customerId: string;
let dana: string;
let eli: string;
let retired: string;

function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return context.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** A work order with an appointment (direct SQL: the fixture, not the behaviour under test). */
async function appointment(values: { date: string; start?: string | null; end?: string | null; technicianId?: string | null; status?: string; title?: string }): Promise<WorkOrder> {
  const [row] = await context.database.query<{ id: string }>(
    `insert into work_orders (customer_id, title, service_date, scheduled_start_time, scheduled_end_time, technician_id, status)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [customerId, values.title ?? 'Appointment', values.date, values.start ?? null, values.end ?? null, values.technicianId ?? null, values.status ?? 'scheduled'],
  );
  return (await api('GET', `/api/admin/work-orders/${row!.id}`)).json().workOrder;
}

async function events(start: string, end: string): Promise<CalendarRangeEvent[]> {
  const response = await api('GET', `/api/admin/calendar/events?start=${start}&end=${end}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().events;
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  const [customer] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address) values ('Calendar Carla', '(843) 555-0303', '3 Calendar Ct') returning id`,
  );
  customerId = customer!.id;
  const technicians = await context.database.query<{ id: string }>(
    `insert into technicians (name, color, active) values ('Dana Tech', '#2563eb', true), ('Eli Tech', '#16a34a', true), ('Retired Ray', '#999999', false) returning id`,
  );
  [dana, eli, retired] = technicians.map((row) => row.id) as [string, string, string];
});
afterAll(() => context?.close());

describe('the visible range', () => {
  it('answers the appointments with a date in [start, end) and both times, by day and start, with customer and technician', async () => {
    const before = await appointment({ date: '2031-03-01', start: '09:00', end: '10:00' });
    const late = await appointment({ date: '2031-03-02', start: '15:00', end: '16:00', technicianId: dana, title: 'Late' });
    const early = await appointment({ date: '2031-03-02', start: '08:00', end: '09:30', title: 'Early' });
    const last = await appointment({ date: '2031-03-08', start: '07:00', end: '19:00', status: 'cancelled' });
    const after = await appointment({ date: '2031-03-09', start: '09:00', end: '10:00' });
    const unscheduled = await appointment({ date: '2031-03-03' });
    const list = await events('2031-03-02', '2031-03-09');
    const ids = list.map((event) => event.id);
    expect(ids).toEqual([early.id, late.id, last.id]);
    for (const excluded of [before, after, unscheduled]) expect(ids).not.toContain(excluded.id);
    expect(list[1]).toMatchObject({
      title: 'Late',
      serviceDate: '2031-03-02',
      startTime: '15:00',
      endTime: '16:00',
      status: 'scheduled',
      technician: { id: dana, name: 'Dana Tech', color: '#2563eb' },
      customer: { name: 'Calendar Carla' },
      isMember: false,
      field: null,
      updatedAt: late.updatedAt,
    });
    expect(list[0]!.technician).toBeNull();
    // The grid's answer carries what a block shows; the rest is read when one is opened.
    expect(Object.keys(list[1]!).sort()).toEqual(
      ['customer', 'endTime', 'field', 'id', 'isMember', 'priority', 'serviceDate', 'serviceType', 'startTime', 'status', 'technician', 'title', 'updatedAt', 'workOrderNumber'],
    );
    expect(Object.keys(list[1]!.customer)).toEqual(['name']);
  });

  it('opens one appointment in full: the customer\'s contact, the step times and the service address', async () => {
    const opened = await appointment({ date: '2031-03-15', start: '10:00', end: '11:30', technicianId: eli, title: 'Opened' });
    const response = await api('GET', `/api/admin/calendar/events/${opened.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().event).toEqual({
      id: opened.id,
      workOrderNumber: opened.workOrderNumber,
      title: 'Opened',
      serviceDate: '2031-03-15',
      startTime: '10:00',
      endTime: '11:30',
      status: 'scheduled',
      priority: opened.priority,
      serviceType: opened.serviceType,
      technician: { id: eli, name: 'Eli Tech', color: '#16a34a' },
      customer: { id: customerId, name: 'Calendar Carla', phone: '(843) 555-0303', address: '3 Calendar Ct' },
      isMember: false,
      enRouteAt: null,
      startedAt: null,
      completedAt: null,
      updatedAt: opened.updatedAt,
      serviceAddress: null,
      serviceCity: null,
      serviceState: null,
      serviceZip: null,
    });
    // Not on the calendar (no times), unknown, or not an id: 404, and nothing about other records.
    const unscheduled = await appointment({ date: '2031-03-16' });
    for (const id of [unscheduled.id, '7b0c4a57-2a5e-4f43-9a43-8a1d3b1e6d10', 'not-an-id']) {
      const refused = await api('GET', `/api/admin/calendar/events/${id}`);
      expect(refused.statusCode, id).toBe(404);
      expect(refused.json().error.code).toBe('NOT_FOUND');
    }
    const anonymous = await context.app.inject({ method: 'GET', url: `/api/admin/calendar/events/${opened.id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("carries the field's step times, so the calendar shows en route, on site and done (issue 19)", async () => {
    const visit = await appointment({ date: '2031-04-01', start: '09:00', end: '10:00', title: 'Field steps' });
    await context.database.query(`update work_orders set en_route_at = '2031-04-01T12:50:00Z', started_at = '2031-04-01T13:05:00Z', status = 'in-progress' where id = $1`, [visit.id]);
    const [event] = await events('2031-04-01', '2031-04-02');
    expect(event).toMatchObject({ id: visit.id, status: 'in-progress', field: { step: 'on-site', at: '2031-04-01T13:05:00.000Z' } });
    const opened = (await api('GET', `/api/admin/calendar/events/${visit.id}`)).json().event;
    expect(opened).toMatchObject({ enRouteAt: '2031-04-01T12:50:00.000Z', startedAt: '2031-04-01T13:05:00.000Z', completedAt: null });
    await context.database.query(`update work_orders set completed_at = '2031-04-01T14:10:00Z', status = 'completed' where id = $1`, [visit.id]);
    expect((await events('2031-04-01', '2031-04-02'))[0]).toMatchObject({ field: { step: 'done', at: '2031-04-01T14:10:00.000Z' } });
  });

  it('refuses a missing, reversed or longer than six weeks range', async () => {
    for (const query of ['start=2031-03-02', 'start=2031-03-09&end=2031-03-02', 'start=2031-01-01&end=2031-03-01', 'start=2031-02-30&end=2031-03-02']) {
      expect((await api('GET', `/api/admin/calendar/events?${query}`)).statusCode, query).toBe(400);
    }
    expect((await api('GET', '/api/admin/calendar/events?start=2031-01-01&end=2031-02-12')).statusCode).toBe(200);
  });

  it('sends the same answer in Brotli or gzip to clients that accept them, and a change is seen by the next read', async () => {
    const url = '/api/admin/calendar/events?start=2031-05-04&end=2031-05-11';
    await appointment({ date: '2031-05-05', start: '09:00', end: '10:00', title: 'Zipped before' });
    const plain = await api('GET', url);
    const brotli = await context.app.inject({ method: 'GET', url, headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain.body);
    const zipped = await context.app.inject({ method: 'GET', url, headers: { cookie, 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
    expect((plain.json().events as CalendarEvent[]).map((event) => event.title)).toEqual(['Zipped before']);

    // The kept answer (and its gzip copy) belongs to the snapshot: a commit makes a new one.
    await appointment({ date: '2031-05-06', start: '09:00', end: '10:00', title: 'Zipped after' });
    const later = await context.app.inject({ method: 'GET', url, headers: { cookie, 'accept-encoding': 'gzip' } });
    const titles = (JSON.parse(gunzipSync(later.rawPayload).toString('utf8')).events as CalendarEvent[]).map((event) => event.title);
    expect(titles.sort()).toEqual(['Zipped after', 'Zipped before']);
  });

  it('needs a staff session', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/admin/calendar/events?start=2031-03-02&end=2031-03-09' });
    expect(response.statusCode).toBe(401);
  });
});

describe('drag and resize', () => {
  it('moves an appointment to another day and time, and a resize changes its end', async () => {
    const order = await appointment({ date: '2031-04-01', start: '09:00', end: '11:00' });
    const dragged = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, {
      serviceDate: '2031-04-03',
      startTime: '13:00',
      endTime: '15:00',
      expectedUpdatedAt: order.updatedAt,
    });
    expect(dragged.statusCode, dragged.body).toBe(200);
    const moved = dragged.json().workOrder as WorkOrder;
    expect(moved).toMatchObject({ serviceDate: '2031-04-03', scheduledStartTime: '13:00:00', scheduledEndTime: '15:00:00', estimatedDuration: 2, status: 'scheduled' });
    expect(moved.updatedAt > order.updatedAt).toBe(true);
    // 13:00 on the company's wall clock (America/New_York by default; EDT in April).
    expect(moved.scheduledDate).toBe('2031-04-03T17:00:00.000Z');

    const resized = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, {
      serviceDate: '2031-04-03',
      startTime: '13:00',
      endTime: '16:30',
      expectedUpdatedAt: moved.updatedAt,
    });
    expect(resized.statusCode, resized.body).toBe(200);
    expect(resized.json().workOrder).toMatchObject({ scheduledEndTime: '16:30:00', estimatedDuration: 3.5 });
  });

  it('refuses times outside 07:00-19:00, an end before the start and off-slot minutes', async () => {
    const order = await appointment({ date: '2031-04-02', start: '09:00', end: '10:00' });
    const send = (startTime: string, endTime: string) =>
      api('POST', `/api/admin/work-orders/${order.id}/reschedule`, { serviceDate: '2031-04-02', startTime, endTime, expectedUpdatedAt: order.updatedAt });
    const early = await send('06:00', '08:00');
    expect(early.statusCode).toBe(400);
    expect(early.json().error.details).toEqual(expect.arrayContaining([expect.objectContaining({ message: calendarMessages.outsideHours })]));
    expect((await send('18:00', '20:00')).statusCode).toBe(400);
    const reversed = await send('11:00', '10:00');
    expect(reversed.json().error.details).toEqual(expect.arrayContaining([expect.objectContaining({ message: calendarMessages.endAfterStart })]));
    expect((await send('09:10', '10:00')).statusCode).toBe(400);
  });

  it('refuses a drag based on a stale copy with the current values, and leaves completed jobs where they are', async () => {
    const order = await appointment({ date: '2031-04-04', start: '09:00', end: '10:00' });
    const first = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, { serviceDate: '2031-04-05', startTime: '09:00', endTime: '10:00', expectedUpdatedAt: order.updatedAt });
    expect(first.statusCode).toBe(200);
    const stale = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, { serviceDate: '2031-04-06', startTime: '09:00', endTime: '10:00', expectedUpdatedAt: order.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.current).toMatchObject({ serviceDate: '2031-04-05' });

    const done = await appointment({ date: '2031-04-04', start: '11:00', end: '12:00', status: 'completed' });
    const refused = await api('POST', `/api/admin/work-orders/${done.id}/reschedule`, { serviceDate: '2031-04-06', startTime: '09:00', endTime: '10:00', expectedUpdatedAt: done.updatedAt });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(calendarMessages.onlyOpenMoves);
  });

  it("warns before a drag double-books the order's technician, and books it when confirmed", async () => {
    const busy = await appointment({ date: '2031-04-07', start: '10:00', end: '12:00', technicianId: eli, title: 'Busy slot' });
    const order = await appointment({ date: '2031-04-07', start: '08:00', end: '09:00', technicianId: eli });
    const body = { serviceDate: '2031-04-07', startTime: '11:00', endTime: '13:00', expectedUpdatedAt: order.updatedAt };
    const warned = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, body);
    expect(warned.statusCode).toBe(409);
    expect(warned.json().error).toMatchObject({
      code: 'SCHEDULE_OVERLAP',
      message: calendarMessages.overlap('Eli Tech', 1),
      details: { overlaps: [{ id: busy.id, title: 'Busy slot', startTime: '10:00', endTime: '12:00', serviceDate: '2031-04-07' }] },
    });
    // Touching ends are not an overlap.
    const touching = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, { ...body, startTime: '12:00', endTime: '13:00' });
    expect(touching.statusCode, touching.body).toBe(200);
    const confirmed = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, { ...body, expectedUpdatedAt: touching.json().workOrder.updatedAt, allowOverlap: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });
});

describe('assigning a technician', () => {
  it('assigns an active technician or none, and refuses an inactive one', async () => {
    const order = await appointment({ date: '2031-05-01', start: '09:00', end: '10:00' });
    const assigned = await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: dana, expectedUpdatedAt: order.updatedAt });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().workOrder.technicianId).toBe(dana);
    const inactive = await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: retired, expectedUpdatedAt: assigned.json().workOrder.updatedAt });
    expect(inactive.statusCode).toBe(400);
    const cleared = await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: null, expectedUpdatedAt: assigned.json().workOrder.updatedAt });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().workOrder.technicianId).toBeNull();
  });

  it('warns with the conflicting jobs when the technician is busy then, ignoring cancelled and completed ones', async () => {
    const busy = await appointment({ date: '2031-05-02', start: '09:00', end: '11:00', technicianId: dana, title: 'Dana busy' });
    await appointment({ date: '2031-05-02', start: '09:00', end: '11:00', technicianId: dana, status: 'cancelled' });
    await appointment({ date: '2031-05-02', start: '10:00', end: '11:00', technicianId: dana, status: 'completed' });
    const order = await appointment({ date: '2031-05-02', start: '10:00', end: '12:00' });
    const warned = await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: dana, expectedUpdatedAt: order.updatedAt });
    expect(warned.statusCode).toBe(409);
    expect(warned.json().error.code).toBe('SCHEDULE_OVERLAP');
    expect(warned.json().error.details.overlaps.map((overlap: { id: string }) => overlap.id)).toEqual([busy.id]);
    expect((await api('GET', `/api/admin/work-orders/${order.id}`)).json().workOrder.technicianId).toBeNull();
    const confirmed = await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: dana, expectedUpdatedAt: order.updatedAt, allowOverlap: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });

  it('lets only one of two dispatchers booking the same free slot at once find it free', async () => {
    const first = await appointment({ date: '2031-05-03', start: '09:00', end: '10:00' });
    const second = await appointment({ date: '2031-05-03', start: '09:30', end: '10:30' });
    const answers = await Promise.all([
      api('POST', `/api/admin/work-orders/${first.id}/assign`, { technicianId: eli, expectedUpdatedAt: first.updatedAt }),
      api('POST', `/api/admin/work-orders/${second.id}/assign`, { technicianId: eli, expectedUpdatedAt: second.updatedAt }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  it('refuses a stale copy', async () => {
    const order = await appointment({ date: '2031-05-04', start: '09:00', end: '10:00' });
    await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: dana, expectedUpdatedAt: order.updatedAt });
    const stale = await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: eli, expectedUpdatedAt: order.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.current.technicianId).toBe(dana);
  });
});

describe('delete', () => {
  it('deletes a scheduled work order with its tasks and unlinks the lead it came from', async () => {
    const order = await appointment({ date: '2031-06-01', start: '09:00', end: '10:00' });
    await api('POST', `/api/admin/work-orders/${order.id}/tasks`, { taskName: 'Bring ladder' });
    const [lead] = await context.database.query<{ id: string }>(
      `insert into estimate_requests (name, email, phone, address, service_type, work_order_id) values ('Lead', 'lead@example.com', '8435550404', '4 Lead Ln', 'ac-repair', $1) returning id`,
      [order.id],
    );
    const response = await api('DELETE', `/api/admin/work-orders/${order.id}?expectedUpdatedAt=${encodeURIComponent(order.updatedAt)}`);
    expect(response.statusCode, response.body).toBe(204);
    expect((await api('GET', `/api/admin/work-orders/${order.id}`)).statusCode).toBe(404);
    expect(await context.database.query('select 1 from work_order_tasks where work_order_id = $1', [order.id])).toEqual([]);
    const [unlinked] = await context.database.query<{ work_order_id: string | null }>('select work_order_id from estimate_requests where id = $1', [lead!.id]);
    expect(unlinked!.work_order_id).toBeNull();
  });

  it('keeps started and completed jobs, stale copies and unknown ids', async () => {
    for (const status of ['in-progress', 'completed']) {
      const order = await appointment({ date: '2031-06-02', start: '09:00', end: '10:00', status });
      const refused = await api('DELETE', `/api/admin/work-orders/${order.id}?expectedUpdatedAt=${encodeURIComponent(order.updatedAt)}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(calendarMessages.onlyUnstartedDeletes);
    }
    const order = await appointment({ date: '2031-06-03', start: '09:00', end: '10:00' });
    await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: dana, expectedUpdatedAt: order.updatedAt });
    const stale = await api('DELETE', `/api/admin/work-orders/${order.id}?expectedUpdatedAt=${encodeURIComponent(order.updatedAt)}`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.current.technicianId).toBe(dana);
    expect((await api('DELETE', `/api/admin/work-orders/00000000-0000-4000-8000-000000000000?expectedUpdatedAt=${encodeURIComponent(order.updatedAt)}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/admin/work-orders/${order.id}`)).statusCode).toBe(400);
  });
});

describe('create with appointment times', () => {
  const base = { title: 'New appointment', serviceType: 'repair', description: 'No cooling' };

  it('places the new work order on the calendar at the given times', async () => {
    const created = await api('POST', '/api/admin/work-orders', { ...base, customerId, serviceDate: '2031-07-01', startTime: '10:00', endTime: '11:30' });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json().workOrder as WorkOrder;
    expect(order).toMatchObject({
      status: 'pending',
      priority: 'normal',
      serviceDate: '2031-07-01',
      scheduledStartTime: '10:00:00',
      scheduledEndTime: '11:30:00',
      estimatedDuration: 1.5,
      scheduledDate: '2031-07-01T14:00:00.000Z',
    });
    expect((await events('2031-07-01', '2031-07-02')).map((event) => event.id)).toEqual([order.id]);
  });

  it('still creates a work order without times (the work-order form), and refuses one time alone or times outside the day', async () => {
    const plain = await api('POST', '/api/admin/work-orders', { ...base, customerId, serviceDate: '2031-07-02' });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().workOrder.scheduledStartTime).toBeNull();
    for (const times of [{ startTime: '10:00' }, { endTime: '10:00' }, { startTime: '06:00', endTime: '08:00' }, { startTime: '11:00', endTime: '10:00' }]) {
      const refused = await api('POST', '/api/admin/work-orders', { ...base, customerId, serviceDate: '2031-07-02', ...times });
      expect(refused.statusCode, JSON.stringify(times)).toBe(400);
    }
    const withCustomer = await api('POST', '/api/admin/work-orders', {
      ...base,
      serviceDate: '2031-07-02',
      startTime: '18:00',
      endTime: '20:00',
      customer: { name: 'Nobody', phone: '8435550000', address: '1 Nowhere' },
    });
    expect(withCustomer.statusCode).toBe(400);
  });

  it("warns before booking a technician who already has an appointment then, and books it when confirmed", async () => {
    const busy = await appointment({ date: '2031-07-03', start: '09:00', end: '11:00', technicianId: dana, title: 'Dana booked' });
    const body = { ...base, customerId, serviceDate: '2031-07-03', startTime: '10:00', endTime: '12:00', technicianId: dana };
    const warned = await api('POST', '/api/admin/work-orders', body);
    expect(warned.statusCode).toBe(409);
    expect(warned.json().error).toMatchObject({ code: 'SCHEDULE_OVERLAP', details: { overlaps: [{ id: busy.id, title: 'Dana booked' }] } });
    expect((await events('2031-07-03', '2031-07-04')).map((event) => event.id)).toEqual([busy.id]);
    const confirmed = await api('POST', '/api/admin/work-orders', { ...body, allowOverlap: true });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const free = await api('POST', '/api/admin/work-orders', { ...body, startTime: '11:00', endTime: '12:00', technicianId: eli });
    expect(free.statusCode, free.body).toBe(201);
    const inactive = await api('POST', '/api/admin/work-orders', { ...body, startTime: '13:00', endTime: '14:00', technicianId: retired });
    expect(inactive.statusCode).toBe(400);
  });
});

describe('edit appointment', () => {
  async function edit(order: WorkOrder, changes: Record<string, unknown>) {
    return api('PUT', `/api/admin/work-orders/${order.id}/appointment`, {
      customerId,
      title: order.title,
      serviceType: 'repair',
      priority: 'normal',
      serviceDate: order.serviceDate,
      startTime: (order.scheduledStartTime ?? '09:00').slice(0, 5),
      endTime: (order.scheduledEndTime ?? '10:00').slice(0, 5),
      description: 'Edited',
      technicianId: order.technicianId,
      status: order.status,
      notes: order.notes ?? '',
      expectedUpdatedAt: order.updatedAt,
      ...changes,
    });
  }

  it('changes the fields, times, notes and an allowed status (stamping started_at)', async () => {
    const order = await appointment({ date: '2031-08-01', start: '09:00', end: '10:00' });
    const response = await edit(order, {
      title: 'Edited title',
      priority: 'high',
      serviceDate: '2031-08-02',
      startTime: '13:00',
      endTime: '15:15',
      notes: 'Gate code 1234',
      status: 'in-progress',
      technicianId: dana,
    });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json().workOrder as WorkOrder;
    expect(saved).toMatchObject({
      title: 'Edited title',
      priority: 'high',
      description: 'Edited',
      serviceDate: '2031-08-02',
      scheduledStartTime: '13:00:00',
      scheduledEndTime: '15:15:00',
      estimatedDuration: 2.25,
      notes: 'Gate code 1234',
      status: 'in-progress',
      technicianId: dana,
    });
    expect(saved.startedAt).not.toBeNull();
    const cleared = await edit(saved, { notes: '  ' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().workOrder.notes).toBeNull();
  });

  it('refuses a status move the transition table does not allow, and a missing required field', async () => {
    const done = await appointment({ date: '2031-08-03', start: '09:00', end: '10:00', status: 'completed' });
    const refused = await edit(done, { status: 'pending' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('A completed work order cannot be moved to pending.');
    const scheduled = await appointment({ date: '2031-08-03', start: '11:00', end: '12:00' });
    expect((await edit(scheduled, { status: 'pending' })).statusCode).toBe(409);
    expect((await edit(scheduled, { title: '' })).statusCode).toBe(400);
    expect((await edit(scheduled, { customerId: '' })).json().error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ message: calendarMessages.selectCustomer })]),
    );
    expect((await edit(scheduled, { customerId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(400);
    expect((await edit(scheduled, { endTime: '19:30' })).statusCode).toBe(400);
    // Unchanged: nothing above was saved.
    expect((await api('GET', `/api/admin/work-orders/${scheduled.id}`)).json().workOrder).toMatchObject({ status: 'scheduled', updatedAt: scheduled.updatedAt });
  });

  it('answers a stale copy with the current values, and warns before double-booking the technician', async () => {
    const order = await appointment({ date: '2031-08-04', start: '09:00', end: '10:00' });
    const first = await edit(order, { title: 'First' });
    expect(first.statusCode).toBe(200);
    const stale = await edit(order, { title: 'Second' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.current).toMatchObject({ title: 'First' });

    const busy = await appointment({ date: '2031-08-04', start: '09:30', end: '11:00', technicianId: eli, title: 'Eli busy' });
    const current = first.json().workOrder as WorkOrder;
    const warned = await edit(current, { technicianId: eli });
    expect(warned.statusCode).toBe(409);
    expect(warned.json().error).toMatchObject({ code: 'SCHEDULE_OVERLAP', details: { overlaps: [{ id: busy.id }] } });
    const confirmed = await edit(current, { technicianId: eli, allowOverlap: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await edit(confirmed.json().workOrder, { technicianId: retired })).statusCode).toBe(400);
  });
});

describe('kept answers', () => {
  it('shows a committed change on the very next read of the same range', async () => {
    const order = await appointment({ date: '2031-09-02', start: '09:00', end: '10:00' });
    expect((await events('2031-09-01', '2031-09-08')).find((event) => event.id === order.id)).toMatchObject({ startTime: '09:00' });
    // Read again unchanged (the kept answer), then change it straight in the database.
    expect((await events('2031-09-01', '2031-09-08')).find((event) => event.id === order.id)).toMatchObject({ startTime: '09:00' });
    await context.database.query(`update work_orders set scheduled_start_time = '13:00', scheduled_end_time = '14:00' where id = $1`, [order.id]);
    expect((await events('2031-09-01', '2031-09-08')).find((event) => event.id === order.id)).toMatchObject({ startTime: '13:00', endTime: '14:00' });
    await context.database.query('delete from work_orders where id = $1', [order.id]);
    expect((await events('2031-09-01', '2031-09-08')).map((event) => event.id)).not.toContain(order.id);
  });
});
