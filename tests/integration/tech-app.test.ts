import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '#shared/dates.ts';
import { techMessages, type TechAction, type TechVisit } from '#shared/tech.ts';
import { customers, equipment, technicians, workOrderTasks, workOrders } from '#server/db/schema/index.ts';
import { createObjectStorage } from '#server/adapters/storage/index.ts';
import { createCustomerService } from '#server/modules/customers/customer.service.ts';
import { createInvoiceService } from '#server/modules/invoices/invoice.service.ts';
import { createNotificationRepository } from '#server/modules/notifications/notification.repository.ts';
import { createTechService } from '#server/modules/tech/tech.service.ts';
import { multipartBody, png, webp } from '#tests/support/images.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * The technician app's server (issue 19, decision 022-a) on a real database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): visits, idempotent actions under the 409 rule, photos, the signature,
 * the follow-up notification, the "on my way" message, and the technician accounts in settings.
 */

let context: TestContext;
let adminCookie: string;
let techCookie: string;
let otherTechCookie: string;
let today: string;
let technicianA: string;
let technicianB: string;
let customerA: string;
let customerB: string;
const visit = { first: '', second: '', tomorrow: '', cancelled: '', past: '', other: '' };
let firstTask: string;
let heatPumpId: string;
let otherTask: string;

const db = () => context.database.db;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db().execute<T & Record<string, unknown>>(query)).rows as T[];
}

async function api(method: 'GET' | 'POST' | 'PUT', url: string, cookie: string | undefined, payload?: unknown) {
  return context.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: cookie ? { cookie } : {},
  });
}

async function getVisit(id: string, cookie = techCookie): Promise<TechVisit> {
  const response = await api('GET', `/api/tech/visits/${id}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().visit;
}

/** An action on a visit: the base version is the visit's current one unless given. */
async function act(id: string, action: Partial<TechAction> & { kind: TechAction['kind'] } & Record<string, unknown>, cookie = techCookie) {
  const base = action.baseUpdatedAt ?? (await getVisit(id)).updatedAt;
  return api('POST', `/api/tech/visits/${id}/actions`, cookie, {
    idempotencyKey: randomUUID(),
    takenAt: new Date().toISOString(),
    ...action,
    baseUpdatedAt: base,
  });
}

async function newWorkOrder(values: Partial<typeof workOrders.$inferInsert> & { customerId: string }): Promise<string> {
  const [row] = await db()
    .insert(workOrders)
    .values({ title: 'AC not cooling', serviceDate: today, status: 'scheduled', ...values })
    .returning({ id: workOrders.id });
  return row!.id;
}

async function signaturePng(): Promise<string> {
  const bytes = await sharp({ create: { width: 600, height: 200, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0 } } })
    .composite([{ input: Buffer.from('<svg width="600" height="200"><path d="M20 150 C 120 20, 220 180, 580 40" stroke="black" stroke-width="4" fill="none"/></svg>') }])
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

beforeAll(async () => {
  context = await createTestApp();
  today = todayIn(context.config.businessTimeZone);
  const [a, b] = await db()
    .insert(technicians)
    .values([{ name: 'Mike Johnson' }, { name: 'Sarah Williams' }])
    .returning({ id: technicians.id });
  technicianA = a!.id;
  technicianB = b!.id;
  const [ca, cb] = await db()
    .insert(customers)
    .values([
      { name: 'Dana Whitfield', phone: '(843) 271-2001', email: 'dana@example.com', address: '1 Marsh Hen Lane', latitude: 32.2, longitude: -80.8 },
      { name: 'Lee Okafor', phone: '(843) 271-2002', email: 'lee@example.com', address: '2 Heron Point' },
    ])
    .returning({ id: customers.id });
  customerA = ca!.id;
  customerB = cb!.id;
  await db().insert(equipment).values({ customerId: customerA, equipmentType: 'Furnace', brand: 'Lennox', location: 'Attic' });
  const [heatPump] = await db()
    .insert(equipment)
    .values({ customerId: customerA, equipmentType: 'Heat pump', brand: 'Carrier', model: '25HCB6', refrigerant: 'R-410A', tonnage: '3' })
    .returning({ id: equipment.id });
  heatPumpId = heatPump!.id;
  visit.second = await newWorkOrder({ customerId: customerA, technicianId: technicianA, timePreference: 'afternoon', title: 'Second: afternoon window' });
  visit.first = await newWorkOrder({ customerId: customerA, technicianId: technicianA, equipmentId: heatPumpId, scheduledStartTime: '09:00', scheduledEndTime: '11:00', title: 'First: 9 AM' });
  visit.tomorrow = await newWorkOrder({ customerId: customerA, technicianId: technicianA, serviceDate: addDays(today, 1), title: 'Tomorrow' });
  visit.cancelled = await newWorkOrder({ customerId: customerA, technicianId: technicianA, status: 'cancelled', title: 'Cancelled' });
  visit.past = await newWorkOrder({ customerId: customerA, technicianId: null, serviceDate: addDays(today, -30), status: 'completed', title: 'Spring tune-up' });
  visit.other = await newWorkOrder({ customerId: customerB, technicianId: technicianB, title: 'Sarah’s job' });
  const [task] = await db().insert(workOrderTasks).values({ workOrderId: visit.first, taskName: 'Check refrigerant charge' }).returning({ id: workOrderTasks.id });
  const [foreign] = await db().insert(workOrderTasks).values({ workOrderId: visit.other, taskName: 'Replace filter' }).returning({ id: workOrderTasks.id });
  firstTask = task!.id;
  otherTask = foreign!.id;

  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createTechnicianStaff(context.database, technicianA, 'mike.tech@example.com');
  await createTechnicianStaff(context.database, technicianB, 'sarah.tech@example.com');
  adminCookie = await signIn(context.app, 'admin@example.com');
  techCookie = await signIn(context.app, 'mike.tech@example.com');
  otherTechCookie = await signIn(context.app, 'sarah.tech@example.com');
});
afterAll(() => context.close());

describe('sign-in and the session', () => {
  it('answers a technician with their role, technician and home /tech; an admin with /admin', async () => {
    const tech = await api('POST', '/api/auth/login', undefined, { email: 'mike.tech@example.com', password: testPassword });
    expect(tech.json()).toMatchObject({ user: { role: 'technician', technicianId: technicianA }, home: '/tech' });
    const admin = await api('POST', '/api/auth/login', undefined, { email: 'admin@example.com', password: testPassword });
    expect(admin.json()).toMatchObject({ user: { role: 'admin', technicianId: null }, home: '/admin' });
  });

  it('GET /api/tech/session names the user and their technician, not cached', async () => {
    const response = await api('GET', '/api/tech/session', techCookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      user: expect.objectContaining({ email: 'mike.tech@example.com', role: 'technician' }),
      technician: { id: technicianA, name: 'Mike Johnson', color: '#0d9488' },
    });
  });
});

describe('visits', () => {
  it('lists only this technician’s visits of the days asked for, in time order, each whole', async () => {
    const response = await api('GET', '/api/tech/visits', techCookie);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.from).toBe(today);
    expect(body.days).toBe(3);
    expect(body.visits.map((item: TechVisit) => item.id)).toEqual([visit.first, visit.second, visit.tomorrow]);
    const first = body.visits[0] as TechVisit;
    expect(first.tasks.map((task) => task.taskName)).toEqual(['Check refrigerant charge']);
    expect(first.customer).toEqual({ id: customerA, name: 'Dana Whitfield', phone: '(843) 271-2001', email: 'dana@example.com' });
    expect(first.site).toMatchObject({ address: '1 Marsh Hen Lane', latitude: 32.2, longitude: -80.8 });
    // The work order's own equipment first, with what the field needs to know about it.
    expect(first.equipmentId).toBe(heatPumpId);
    expect(first.equipment.map((item) => [item.equipmentType, item.refrigerant, item.tonnage])).toEqual([
      ['Heat pump', 'R-410A', '3'],
      ['Furnace', null, null],
    ]);
    // The customer's other work orders, newest first, never itself.
    expect(first.history.map((item) => item.id)).not.toContain(visit.first);
    expect(first.history.map((item) => item.id)).toContain(visit.past);
    // Earlier visits only: tomorrow's job is not this one's history.
    expect(first.history.map((item) => item.id)).not.toContain(visit.tomorrow);
    expect(first.history.at(-1)!.id).toBe(visit.past);

    const oneDay = await api('GET', `/api/tech/visits?from=${addDays(today, 1)}&days=1`, techCookie);
    expect(oneDay.json().visits.map((item: TechVisit) => item.id)).toEqual([visit.tomorrow]);
    expect((await api('GET', '/api/tech/visits?days=99', techCookie)).statusCode).toBe(400);
    expect((await api('GET', '/api/tech/visits?from=2026-02-30', techCookie)).statusCode).toBe(400);
  });

  it('reads any number of visits in the same number of queries (no query per visit)', async () => {
    let statements = 0;
    const counted = new Proxy(db(), {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (!['select', 'selectDistinctOn', 'execute'].includes(String(property))) return method;
        return (...args: unknown[]) => {
          statements += 1;
          return method(...args);
        };
      },
    });
    const storage = createObjectStorage(context.config);
    const service = createTechService({
      db: counted,
      timeZone: context.config.businessTimeZone,
      storage,
      customers: createCustomerService({ db: db(), storage, log: context.app.log }),
      notifications: createNotificationRepository(db()),
      onWorkOrderMessaging: () => undefined,
      payments: createInvoiceService({ db: db(), timeZone: context.config.businessTimeZone, company: context.config.company }),
    });
    const user = { id: randomUUID(), email: 'mike.tech@example.com', name: 'Terry Tech', role: 'technician' as const, technicianId: technicianA };
    const busyDay = addDays(today, 9);
    const quietDay = addDays(today, 10);
    const extra = await db().insert(customers).values({ name: 'Busy Day Customer', phone: '(843) 271-2099', address: '9 Oyster Way' }).returning({ id: customers.id });
    for (let n = 0; n < 8; n += 1) await newWorkOrder({ customerId: n % 2 === 0 ? customerA : extra[0]!.id, technicianId: technicianA, serviceDate: busyDay, title: `Busy ${n}` });
    await newWorkOrder({ customerId: customerA, technicianId: technicianA, serviceDate: quietDay, title: 'Quiet' });

    statements = 0;
    expect((await service.visits(user, { from: busyDay, days: 1 })).visits).toHaveLength(8);
    const forEight = statements;
    statements = 0;
    expect((await service.visits(user, { from: quietDay, days: 1 })).visits).toHaveLength(1);
    expect(forEight).toBe(statements);
    expect(forEight).toBeLessThanOrEqual(12);
  });

  it('answers another technician’s visit exactly as a visit that does not exist', async () => {
    const other = await api('GET', `/api/tech/visits/${visit.other}`, techCookie);
    const missing = await api('GET', `/api/tech/visits/${randomUUID()}`, techCookie);
    const malformed = await api('GET', '/api/tech/visits/not-an-id', techCookie);
    for (const response of [other, missing, malformed]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe(techMessages.visitNotFound);
    }
    // An unassigned job is nobody's in the app.
    expect((await api('GET', `/api/tech/visits/${visit.past}`, techCookie)).statusCode).toBe(404);
  });
});

describe('actions', () => {
  it('chains steps: each answers the new version, which the next one names; the office sees them with who and when', async () => {
    const start = await getVisit(visit.first);
    const enRoute = await act(visit.first, { kind: 'en-route', baseUpdatedAt: start.updatedAt });
    expect(enRoute.statusCode, enRoute.body).toBe(200);
    expect(enRoute.json().applied).toBe(true);
    expect(enRoute.json().visit.enRouteAt).not.toBeNull();
    const onSite = await act(visit.first, { kind: 'on-site', baseUpdatedAt: enRoute.json().visit.updatedAt });
    expect(onSite.statusCode, onSite.body).toBe(200);
    expect(onSite.json().visit).toMatchObject({ status: 'in-progress' });
    expect(onSite.json().visit.onSiteAt).not.toBeNull();
    const task = await act(visit.first, { kind: 'task', taskId: firstTask, status: 'completed', baseUpdatedAt: onSite.json().visit.updatedAt });
    expect(task.statusCode, task.body).toBe(200);
    expect(task.json().visit.tasks[0].status).toBe('completed');
    const inspection = await act(visit.first, {
      kind: 'inspection',
      report: { mca: 25, mocp: 40, tempSplit: 18.5, staticPressure: 0.5, inspectionItems: ['filter_replaced'] },
      baseUpdatedAt: task.json().visit.updatedAt,
    });
    expect(inspection.statusCode, inspection.body).toBe(200);
    expect(inspection.json().visit.inspectionReport).toMatchObject({ mca: 25, tempSplit: 18.5, inspectionItems: ['filter_replaced'] });

    // The office's calendar shows the steps with their times.
    const calendar = await api('GET', `/api/admin/calendar/events?start=${today}&end=${addDays(today, 1)}`, adminCookie);
    const event = calendar.json().events.find((item: { id: string }) => item.id === visit.first);
    expect(event).toMatchObject({ status: 'in-progress', field: { step: 'on-site', at: onSite.json().visit.onSiteAt } });
    const opened = await api('GET', `/api/admin/calendar/events/${visit.first}`, adminCookie);
    expect(opened.json().event).toMatchObject({ status: 'in-progress', enRouteAt: enRoute.json().visit.enRouteAt, startedAt: onSite.json().visit.onSiteAt });

    const log = await rows<{ action: string; actor_name: string }>(
      sql`select action, actor_name from audit_log where entity_id = ${visit.first} order by occurred_at, id`,
    );
    expect(log.map((entry) => entry.action)).toEqual(['en_route', 'status_changed', 'task_updated', 'inspection_added']);
    expect(new Set(log.map((entry) => entry.actor_name))).toEqual(new Set(['Terry Tech']));
  });

  it('applies an idempotency key once: the replay answers applied false and changes nothing', async () => {
    const key = randomUUID();
    const base = (await getVisit(visit.second)).updatedAt;
    const first = await act(visit.second, { kind: 'note', text: 'Gate code 4411', idempotencyKey: key, baseUpdatedAt: base });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().applied).toBe(true);
    // The replay carries the old base: it is still a replay, not a conflict.
    const replay = await act(visit.second, { kind: 'note', text: 'Gate code 4411', idempotencyKey: key, baseUpdatedAt: base });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().applied).toBe(false);
    expect(replay.json().visit.updatedAt).toBe(first.json().visit.updatedAt);
    // The same action sent twice at the same moment (a retry racing the first): applied once.
    const racingKey = randomUUID();
    const racingBase = replay.json().visit.updatedAt;
    const racing = await Promise.all(
      [0, 1].map(() => act(visit.second, { kind: 'note', text: 'Side gate sticks', idempotencyKey: racingKey, baseUpdatedAt: racingBase })),
    );
    expect(racing.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(racing.map((response) => response.json().applied).sort()).toEqual([false, true]);
    const notes = (await getVisit(visit.second)).notes;
    expect(notes.map((note) => note.text)).toEqual(['Gate code 4411', 'Side gate sticks']);
    expect(notes[0]!.authorName).toBe('Terry Tech');
    // The office sees the technician's notes on the work order.
    const detail = await api('GET', `/api/admin/work-orders/${visit.second}`, adminCookie);
    expect(detail.json().techNotes).toEqual([
      expect.objectContaining({ text: 'Gate code 4411', authorName: 'Terry Tech' }),
      expect.objectContaining({ text: 'Side gate sticks', authorName: 'Terry Tech' }),
    ]);
  });

  it('refuses a stale base version with 409 and the current visit, changing nothing', async () => {
    const before = await getVisit(visit.second);
    // The office edits the job meanwhile.
    const edit = await api('PUT', `/api/admin/work-orders/${visit.second}/notes`, adminCookie, { notes: 'Customer called: dog in the yard', expectedUpdatedAt: before.updatedAt });
    expect(edit.statusCode, edit.body).toBe(200);
    const stale = await act(visit.second, { kind: 'note', text: 'Written offline', baseUpdatedAt: before.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(techMessages.conflict);
    expect(stale.json().error.details.current).toMatchObject({ id: visit.second, officeNotes: 'Customer called: dog in the yard' });
    expect(stale.json().error.details.current.updatedAt).toBe(edit.json().workOrder.updatedAt);
    expect((await getVisit(visit.second)).notes.map((note) => note.text)).not.toContain('Written offline');
  });

  it('refuses a step the status does not allow (409) and a task of another work order (404)', async () => {
    const completeTooEarly = await act(visit.tomorrow, { kind: 'complete', summary: 'Done' });
    expect(completeTooEarly.statusCode).toBe(409);
    expect(completeTooEarly.json().error.message).toBe(techMessages.stepRefused('scheduled', 'complete'));
    const foreignTask = await act(visit.first, { kind: 'task', taskId: otherTask, status: 'completed' });
    expect(foreignTask.statusCode).toBe(404);
    expect(foreignTask.json().error.message).toBe(techMessages.taskNotFound);
    const invalid = await api('POST', `/api/tech/visits/${visit.first}/actions`, techCookie, { kind: 'note', text: 'x' });
    expect(invalid.statusCode).toBe(400);
  });

  it('en route queues the customer’s "on my way" message', async () => {
    const response = await act(visit.tomorrow, { kind: 'en-route' });
    expect(response.statusCode, response.body).toBe(200);
    await context.app.messaging.planPending();
    const messages = await rows<{ type: string; channel: string }>(sql`select type, channel from messages where work_order_id = ${visit.tomorrow} and type = 'on_my_way'`);
    expect(messages).toEqual([{ type: 'on_my_way', channel: 'email' }]);
  });

  it('completes with a signature stored as a PNG, time on site, materials and a follow-up notification', async () => {
    const onSite = await getVisit(visit.first);
    expect(onSite.status).toBe('in-progress');
    const takenAt = new Date(new Date(onSite.onSiteAt!).getTime() + 75 * 60_000);
    const response = await act(visit.first, {
      kind: 'complete',
      summary: 'Replaced the run capacitor; cooling restored.',
      materials: [{ description: 'Run capacitor 45/5 µF', quantity: 1 }],
      signerName: 'Dana Whitfield',
      signature: await signaturePng(),
      followUp: { note: 'Quote a new condenser fan motor: bearings are worn.' },
      baseUpdatedAt: onSite.updatedAt,
      takenAt: new Date(Math.min(takenAt.getTime(), Date.now())).toISOString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    const done: TechVisit = response.json().visit;
    expect(done.status).toBe('completed');
    expect(done.completion).toMatchObject({
      summary: 'Replaced the run capacitor; cooling restored.',
      materials: [{ description: 'Run capacitor 45/5 µF', quantity: 1 }],
      signerName: 'Dana Whitfield',
      signatureUrl: `/api/tech/visits/${visit.first}/signature`,
      followUpNote: 'Quote a new condenser fan motor: bearings are worn.',
      completedByName: 'Terry Tech',
    });
    expect(done.completion!.timeOnSiteMinutes).toBeGreaterThanOrEqual(0);

    const image = await api('GET', done.completion!.signatureUrl!, techCookie);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await sharp(image.rawPayload).metadata()).width).toBe(600);
    // The office reads it too, and the completion on the work order.
    expect((await api('GET', `/api/admin/work-orders/${visit.first}/signature`, adminCookie)).statusCode).toBe(200);
    const detail = (await api('GET', `/api/admin/work-orders/${visit.first}`, adminCookie)).json();
    expect(detail.completion).toMatchObject({ signerName: 'Dana Whitfield', signatureUrl: `/api/admin/work-orders/${visit.first}/signature` });

    const [notification] = await rows<{ type: string; title: string; message: string }>(
      sql`select type, title, message from admin_notifications where type = 'tech_follow_up'`,
    );
    const number = done.workOrderNumber;
    expect(notification!.title).toBe(`Follow-up needed: ${number}`);
    expect(notification!.message).toContain('Terry Tech');
    expect(notification!.message).toContain('bearings are worn');
  });

  it('refuses a signature that is not a PNG by its content, storing nothing', async () => {
    await db().update(workOrders).set({ status: 'in-progress', startedAt: new Date() }).where(sql`${workOrders.id} = ${visit.second}`);
    const jpegBytes = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).jpeg().toBuffer();
    const truncated = Buffer.from((await signaturePng()).split(',')[1]!, 'base64').subarray(0, 60);
    for (const signature of [
      `data:image/png;base64,${jpegBytes.toString('base64')}`,
      `data:image/png;base64,${truncated.toString('base64')}`,
      'data:image/png;base64,AAAA',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    ]) {
      const response = await act(visit.second, { kind: 'complete', summary: 'Done', signature });
      expect(response.statusCode, signature.slice(0, 40)).toBe(400);
    }
    expect((await getVisit(visit.second)).status).toBe('in-progress');
    const tooLong = await act(visit.second, { kind: 'complete', summary: 'Done', signature: `data:image/png;base64,${'A'.repeat(400_004)}` });
    expect(tooLong.statusCode).toBe(400);
  });
});

describe('photos', () => {
  async function upload(id: string, key: string | undefined, cookie = techCookie, count = 2) {
    const files = await Promise.all(Array.from({ length: count }, async (_, index) => ({ name: `unit-${index}.webp`, bytes: index === 0 ? await webp() : await png(800, 600), type: 'image/webp' })));
    const { payload, headers } = await multipartBody(files);
    return context.app.inject({
      method: 'POST',
      url: `/api/tech/visits/${id}/photos`,
      payload,
      headers: { ...headers, cookie, ...(key ? { 'idempotency-key': key } : {}) },
    });
  }

  it('adds photos to the visit’s customer once per upload key, and shows them only to technicians of that customer', async () => {
    const key = randomUUID();
    const first = await upload(visit.tomorrow, key);
    expect(first.statusCode, first.body).toBe(201);
    const photos = first.json().photos as { id: string; workOrderId: string; thumbnailUrl: string }[];
    expect(photos).toHaveLength(2);
    expect(photos.every((photo) => photo.workOrderId === visit.tomorrow)).toBe(true);
    const replay = await upload(visit.tomorrow, key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().photos.map((photo: { id: string }) => photo.id)).toEqual(photos.map((photo) => photo.id));
    const [{ count }] = (await rows<{ count: number }>(sql`select count(*)::int as count from customer_photos where customer_id = ${customerA}`)) as [{ count: number }];
    expect(count).toBe(2);
    expect((await getVisit(visit.tomorrow)).photos.map((photo) => photo.id).sort()).toEqual(photos.map((photo) => photo.id).sort());

    const thumbnail = await api('GET', photos[0]!.thumbnailUrl, techCookie);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect(thumbnail.headers['content-length']).toBe(String(thumbnail.rawPayload.length));
    expect(thumbnail.headers['cache-control']).toBe('no-store');
    // Sarah has no job at this customer: the photo does not exist for her.
    expect((await api('GET', photos[0]!.thumbnailUrl, otherTechCookie)).statusCode).toBe(404);
    expect((await api('GET', `/api/tech/photos/${photos[0]!.id}/original`, techCookie)).statusCode).toBe(400);
  });

  it('requires a UUID Idempotency-Key', async () => {
    expect((await upload(visit.tomorrow, undefined)).statusCode).toBe(400);
    expect((await upload(visit.tomorrow, 'not-a-uuid')).statusCode).toBe(400);
  });
});

describe('another technician’s job', () => {
  it('can be neither read nor changed by id: visit, action, photo upload, photo, signature', async () => {
    const base = (await getVisit(visit.first)).updatedAt;
    const checks = [
      await api('GET', `/api/tech/visits/${visit.first}`, otherTechCookie),
      await api('POST', `/api/tech/visits/${visit.first}/actions`, otherTechCookie, {
        kind: 'note',
        text: 'Not my job',
        idempotencyKey: randomUUID(),
        baseUpdatedAt: base,
        takenAt: new Date().toISOString(),
      }),
      await api('GET', `/api/tech/visits/${visit.first}/signature`, otherTechCookie),
    ];
    const { payload, headers } = await multipartBody([{ name: 'x.webp', bytes: await webp() }]);
    checks.push(
      await context.app.inject({
        method: 'POST',
        url: `/api/tech/visits/${visit.first}/photos`,
        payload,
        headers: { ...headers, cookie: otherTechCookie, 'idempotency-key': randomUUID() },
      }),
    );
    for (const response of checks) expect(response.statusCode, response.body).toBe(404);
    expect((await getVisit(visit.first)).notes.map((note) => note.text)).not.toContain('Not my job');
    const [{ count }] = (await rows<{ count: number }>(sql`select count(*)::int as count from customer_photos where work_order_id = ${visit.first}`)) as [{ count: number }];
    expect(count).toBe(0);
  });
});

describe('technician accounts in settings', () => {
  async function linkTokenFor(email: string): Promise<string> {
    await context.app.emailOutbox.idle();
    const directory = path.join(context.config.dataDir, 'outbox');
    const mails = fs
      .readdirSync(directory)
      .filter((name) => name.endsWith('.eml'))
      .map((name) => fs.readFileSync(path.join(directory, name), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
      .filter((text) => new RegExp(`^To: ${email.replace(/[.]/g, '\\.')}$`, 'm').test(text));
    const token = /\/admin\/set-password#token=([\w-]+)/.exec(mails.at(-1) ?? '')?.[1];
    if (!token) throw new Error(`no set-password link e-mailed to ${email}`);
    return token;
  }

  it('invites a technician account linked to an active technician, who then signs in to /tech', async () => {
    const [carlos] = await db().insert(technicians).values({ name: 'Carlos Rivera' }).returning({ id: technicians.id });
    const email = `carlos.tech.${Date.now()}@example.com`;
    const missing = await api('POST', '/api/admin/settings/staff', adminCookie, { email, name: 'Carlos Rivera', role: 'technician', setup: 'invite' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('Choose the technician this account is.');
    const unknown = await api('POST', '/api/admin/settings/staff', adminCookie, { email, name: 'Carlos Rivera', role: 'technician', technicianId: randomUUID(), setup: 'invite' });
    expect(unknown.statusCode).toBe(400);
    const taken = await api('POST', '/api/admin/settings/staff', adminCookie, { email, name: 'Carlos Rivera', role: 'technician', technicianId: technicianA, setup: 'invite' });
    expect(taken.statusCode).toBe(409);

    const invited = await api('POST', '/api/admin/settings/staff', adminCookie, { email, name: 'Carlos Rivera', role: 'technician', technicianId: carlos!.id, setup: 'invite' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().staff).toMatchObject({ role: 'technician', technicianId: carlos!.id });
    const token = await linkTokenFor(email);
    const password = 'violet harbor lantern 42';
    expect((await api('POST', '/api/auth/set-password', undefined, { token, password })).statusCode).toBe(204);
    const cookie = await signIn(context.app, email, password);
    expect((await api('GET', '/api/tech/session', cookie)).json().technician.id).toBe(carlos!.id);
    expect((await api('GET', '/api/admin/customers', cookie)).statusCode).toBe(403);

    // Made a dispatcher: the link goes and the session with it (what it may reach changed).
    const changed = await api('PUT', `/api/admin/settings/staff/${invited.json().staff.id}/role`, adminCookie, { role: 'dispatcher' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().staff).toMatchObject({ role: 'dispatcher', technicianId: null });
    expect((await api('GET', '/api/tech/session', cookie)).statusCode).toBe(401);
  });
});
