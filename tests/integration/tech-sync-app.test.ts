import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates.ts';
import { customers, technicians, workOrderTasks, workOrders } from '#server/db/schema/index.ts';
import { localVisit } from '#client/features/tech/apply-action.ts';
import { TechDatabase } from '#client/features/tech/db.ts';
import { createTechSync, type TechSync } from '#client/features/tech/sync.ts';
import { png } from '#tests/support/images.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * The technician app's queue (decision 022-b) against the real server (decision 022-a) listening on
 * 127.0.0.1, on a real database: a whole visit taken offline syncs in order on the versions the
 * app chains, a replay is applied once, and a dispatcher's change makes a 409 the technician settles.
 */

let context: TestContext;
let baseUrl: string;
let techCookie: string;
let adminCookie: string;
let today: string;
let technicianId: string;
let customerId: string;
let db: TechDatabase;
let sync: TechSync;

async function newJob(title: string): Promise<{ id: string; taskId: string }> {
  const [row] = await context.database.db
    .insert(workOrders)
    .values({ title, customerId, technicianId, serviceDate: today, status: 'scheduled', scheduledStartTime: '08:00', scheduledEndTime: '10:00' })
    .returning({ id: workOrders.id });
  const [task] = await context.database.db.insert(workOrderTasks).values({ workOrderId: row!.id, taskName: 'Check refrigerant charge' }).returning({ id: workOrderTasks.id });
  return { id: row!.id, taskId: task!.id };
}

async function adminDetail(id: string) {
  const response = await context.app.inject({ method: 'GET', url: `/api/admin/work-orders/${id}`, headers: { cookie: adminCookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  context = await createTestApp();
  today = todayIn(context.config.businessTimeZone);
  const [technician] = await context.database.db.insert(technicians).values({ name: 'Mike Johnson' }).returning({ id: technicians.id });
  technicianId = technician!.id;
  const [customer] = await context.database.db
    .insert(customers)
    .values({ name: 'Dana Whitfield', phone: '(843) 271-2001', email: 'dana@example.com', address: '1 Marsh Hen Lane' })
    .returning({ id: customers.id });
  customerId = customer!.id;
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createTechnicianStaff(context.database, technicianId, 'mike.tech@example.com');
  adminCookie = await signIn(context.app, 'admin@example.com');
  techCookie = await signIn(context.app, 'mike.tech@example.com');
  baseUrl = await context.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => context.close());

beforeEach(() => {
  db = new TechDatabase(`tech-app-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  sync = createTechSync({ db, baseUrl, today: () => today, headers: { cookie: techCookie, origin: baseUrl } });
});

describe('the technician app queue against the server', () => {
  it('syncs a whole visit taken offline, in order, each action once, on the chained versions', async () => {
    const job = await newJob('Whole visit');
    expect(await sync.refresh()).toBe('ok');
    await sync.enqueue(job.id, { kind: 'en-route' });
    await sync.enqueue(job.id, { kind: 'on-site' });
    await sync.enqueue(job.id, { kind: 'task', taskId: job.taskId, status: 'completed' });
    await sync.enqueue(job.id, { kind: 'inspection', report: { mca: 18.5, mocp: 30, tempSplit: 19, staticPressure: 0.5, inspectionItems: ['filter_replaced'] } });
    await sync.enqueue(job.id, { kind: 'note', text: 'Filter was clogged' });
    await sync.enqueue(job.id, { kind: 'complete', summary: 'Replaced the filter', materials: [{ description: 'Filter 16x25x1', quantity: 2 }], signerName: 'Dana', signature: null, followUp: null });
    await sync.addPhoto(job.id, new Blob([new Uint8Array(await png(320, 240))], { type: 'image/png' }), 'unit.png');

    const shown = localVisit((await db.visits.get(job.id))!.visit, await db.queue.toArray());
    expect(shown.status).toBe('completed');

    const outcome = await sync.syncNow();
    expect(outcome).toEqual({ sent: 7, stoppedBy: undefined });
    expect(await sync.waitingCount()).toBe(0);
    const detail = await adminDetail(job.id);
    expect(detail.workOrder.status).toBe('completed');
    expect(detail.tasks[0].status).toBe('completed');
    expect(detail.inspectionReport).toMatchObject({ mca: 18.5, inspectionItems: ['filter_replaced'] });
    expect(detail.techNotes.map((note: { text: string }) => note.text)).toEqual(['Filter was clogged']);
    expect(detail.completion).toMatchObject({ summary: 'Replaced the filter', materials: [{ description: 'Filter 16x25x1', quantity: 2 }] });
    const stored = (await db.visits.get(job.id))!.visit;
    expect(stored.photos.filter((photo) => photo.workOrderId === job.id)).toHaveLength(1);
    expect(stored.updatedAt).toBe((await adminDetail(job.id)).workOrder.updatedAt);
  });

  it('applies a replayed action (same key) once', async () => {
    const job = await newJob('Replay');
    await sync.refresh();
    const note = await sync.enqueue(job.id, { kind: 'note', text: 'Only once' });
    await sync.syncNow();
    // The answer was lost: the phone sends it again, as it was.
    await db.queue.add({ ...note, seq: undefined, state: 'pending', attempts: 1 });
    expect((await sync.syncNow()).sent).toBe(1);
    expect((await adminDetail(job.id)).techNotes).toHaveLength(1);
  });

  it('keeps a change the office overtook for the technician; Keep mine sends it on the office version', async () => {
    const job = await newJob('Conflict');
    await sync.refresh();
    await sync.enqueue(job.id, { kind: 'task', taskId: job.taskId, status: 'completed' });
    const before = (await adminDetail(job.id)).workOrder;
    const edit = await context.app.inject({
      method: 'PUT',
      url: `/api/admin/work-orders/${job.id}/notes`,
      headers: { cookie: adminCookie },
      payload: { notes: 'Gate code 4821', expectedUpdatedAt: before.updatedAt },
    });
    expect(edit.statusCode, edit.body).toBe(200);

    expect((await sync.syncNow()).sent).toBe(0);
    const [conflict] = await db.queue.toArray();
    expect(conflict!.state).toBe('conflict');
    expect(conflict!.current?.officeNotes).toBe('Gate code 4821');
    expect((await adminDetail(job.id)).tasks[0].status).toBe('pending');

    await sync.keepMine(conflict!.seq!);
    expect((await sync.syncNow()).sent).toBe(1);
    const after = await adminDetail(job.id);
    expect(after.tasks[0].status).toBe('completed');
    expect(after.workOrder.notes).toBe('Gate code 4821');
  });
});
