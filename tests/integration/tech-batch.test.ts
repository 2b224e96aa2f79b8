import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates.ts';
import { techBatchMaxActions, techBatchMaxBytes, techMessages, type TechAction, type TechActionBatchResponse, type TechVisit } from '#shared/tech.ts';
import { customers, technicians, workOrderTasks, workOrders } from '#server/db/schema/index.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * POST /api/tech/visits/:id/actions/batch (decision 022-d) on a real database: a visit's queued
 * actions applied in order by the single route's rules (idempotency key, 409 rule, log entries),
 * each once; the device's chain followed; the first refusal stops the batch there; another
 * technician's visit is the single route's 404; too many actions or too large a body are refused.
 */

let context: TestContext;
let adminCookie: string;
let techCookie: string;
let today: string;
let technicianId: string;
let otherTechnicianId: string;
let customerId: string;

const db = () => context.database.db;

async function newJob(title: string, technician = technicianId): Promise<{ id: string; taskId: string }> {
  const [row] = await db().insert(workOrders).values({ title, customerId, technicianId: technician, serviceDate: today, status: 'scheduled' }).returning({ id: workOrders.id });
  const [task] = await db().insert(workOrderTasks).values({ workOrderId: row!.id, taskName: 'Check refrigerant charge' }).returning({ id: workOrderTasks.id });
  return { id: row!.id, taskId: task!.id };
}

async function getVisit(id: string): Promise<TechVisit> {
  const response = await context.app.inject({ method: 'GET', url: `/api/tech/visits/${id}`, headers: { cookie: techCookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().visit;
}

/** Actions as the device queues them offline: each on the version it had then (the same for all). */
function offline(base: string, ...actions: Record<string, unknown>[]): TechAction[] {
  // Taken a minute apart, ending a minute ago.
  const first = Date.now() - 60_000 * (actions.length + 1);
  return actions.map((action, index) => ({ idempotencyKey: randomUUID(), baseUpdatedAt: base, takenAt: new Date(first + 60_000 * index).toISOString(), ...action }) as TechAction);
}

async function batch(id: string, actions: unknown, cookie = techCookie) {
  return context.app.inject({ method: 'POST', url: `/api/tech/visits/${id}/actions/batch`, headers: { cookie }, payload: { actions } as object });
}

async function appliedCount(id: string): Promise<number> {
  const result = await db().execute<{ count: number }>(sql`select count(*)::int as count from tech_actions where work_order_id = ${id}`);
  return result.rows[0]!.count;
}

async function logEntries(id: string): Promise<string[]> {
  const result = await db().execute<{ action: string }>(sql`select action from audit_log where entity_type = 'work_order' and entity_id = ${id} order by action`);
  return result.rows.map((row) => row.action);
}

beforeAll(async () => {
  context = await createTestApp();
  today = todayIn(context.config.businessTimeZone);
  const [a, b] = await db().insert(technicians).values([{ name: 'Mike Johnson' }, { name: 'Sarah Williams' }]).returning({ id: technicians.id });
  technicianId = a!.id;
  otherTechnicianId = b!.id;
  const [customer] = await db().insert(customers).values({ name: 'Dana Whitfield', phone: '(843) 271-2001', address: '1 Marsh Hen Lane' }).returning({ id: customers.id });
  customerId = customer!.id;
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createTechnicianStaff(context.database, technicianId, 'mike.tech@example.com');
  adminCookie = await signIn(context.app, 'admin@example.com');
  techCookie = await signIn(context.app, 'mike.tech@example.com');
});
afterAll(() => context.close());

describe('POST /api/tech/visits/:id/actions/batch', () => {
  it('applies a visit’s queued actions in order, each once, on the device’s chain; the same batch again applies nothing', async () => {
    const job = await newJob('Batch in order');
    const start = await getVisit(job.id);
    const actions = offline(
      start.updatedAt,
      { kind: 'en-route' },
      { kind: 'on-site' },
      { kind: 'task', taskId: job.taskId, status: 'completed' },
      { kind: 'note', text: 'Filter was clogged' },
      { kind: 'inspection', report: { mca: 18.5, mocp: 30, tempSplit: 19, staticPressure: 0.5, inspectionItems: [] } },
      { kind: 'note', text: 'Customer happy' },
    );

    const response = await batch(job.id, actions);
    expect(response.statusCode, response.body).toBe(200);
    const answer: TechActionBatchResponse = response.json();
    expect(answer.stopped).toBeNull();
    expect(answer.results.map((result) => [result.idempotencyKey, result.applied])).toEqual(actions.map((action) => [action.idempotencyKey, true]));
    // Each action left a new version; the last is the visit's.
    expect(new Set(answer.results.map((result) => result.updatedAt)).size).toBe(actions.length);
    expect(answer.visit!.updatedAt).toBe(answer.results.at(-1)!.updatedAt);
    expect(answer.visit).toMatchObject({ status: 'in-progress', tasks: [{ status: 'completed' }], inspectionReport: { mca: 18.5 } });
    expect(answer.visit!.enRouteAt).not.toBeNull();
    expect(answer.visit!.notes.map((note) => note.text)).toEqual(['Filter was clogged', 'Customer happy']);
    // The single route's log entries, one per action.
    expect(await logEntries(job.id)).toEqual(['en_route', 'inspection_added', 'note_added', 'note_added', 'status_changed', 'task_updated']);

    // The answer was lost: the phone sends the same batch again.
    const again = await batch(job.id, actions);
    expect(again.statusCode, again.body).toBe(200);
    const replay: TechActionBatchResponse = again.json();
    expect(replay.stopped).toBeNull();
    expect(replay.results.map((result) => result.applied)).toEqual(actions.map(() => false));
    expect(replay.visit!.updatedAt).toBe(answer.visit!.updatedAt);
    expect(replay.visit!.notes).toHaveLength(2);
    expect(await appliedCount(job.id)).toBe(actions.length);
    expect(await logEntries(job.id)).toHaveLength(actions.length);
  });

  it('refuses a stale batch at its first action with the office’s current values, applying nothing', async () => {
    const job = await newJob('Office changed it');
    const start = await getVisit(job.id);
    const edit = await context.app.inject({
      method: 'PUT',
      url: `/api/admin/work-orders/${job.id}/notes`,
      headers: { cookie: adminCookie },
      payload: { notes: 'Gate code 4821', expectedUpdatedAt: start.updatedAt },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const actions = offline(start.updatedAt, { kind: 'note', text: 'Written offline' }, { kind: 'task', taskId: job.taskId, status: 'completed' });

    const response = await batch(job.id, actions);
    expect(response.statusCode, response.body).toBe(200);
    const answer: TechActionBatchResponse = response.json();
    expect(answer.results).toEqual([]);
    expect(answer.stopped).toEqual({ idempotencyKey: actions[0]!.idempotencyKey, reason: 'conflict', status: 409, code: 'CONFLICT', message: techMessages.conflict });
    // The office's version, as the single route's 409 gives it in details.current.
    expect(answer.visit).toMatchObject({ officeNotes: 'Gate code 4821', notes: [], tasks: [{ status: 'pending' }] });
    expect(answer.visit!.updatedAt).not.toBe(start.updatedAt);
    expect(await appliedCount(job.id)).toBe(0);
  });

  it('stops at a conflict in the middle: what came before stays applied, nothing after it is looked at', async () => {
    const job = await newJob('Conflict in the middle');
    const start = await getVisit(job.id);
    const [first, second] = offline(start.updatedAt, { kind: 'note', text: 'Applied' }, { kind: 'note', text: 'Also applied' });
    // Taken on a version this batch does not lead to (the office's, in between): a conflict.
    const [stale] = offline('2020-01-01T00:00:00.000Z', { kind: 'task', taskId: job.taskId, status: 'completed' });
    const [after] = offline(start.updatedAt, { kind: 'note', text: 'Never looked at' });

    const answer: TechActionBatchResponse = (await batch(job.id, [first, second, stale, after])).json();
    expect(answer.results.map((result) => result.idempotencyKey)).toEqual([first!.idempotencyKey, second!.idempotencyKey]);
    expect(answer.stopped).toMatchObject({ idempotencyKey: stale!.idempotencyKey, reason: 'conflict', status: 409 });
    expect(answer.visit!.notes.map((note) => note.text)).toEqual(['Applied', 'Also applied']);
    expect(answer.visit!.tasks[0]!.status).toBe('pending');
    expect(answer.visit!.updatedAt).toBe(answer.results.at(-1)!.updatedAt);
    expect(await appliedCount(job.id)).toBe(2);
  });

  it('stops at a refusal (a step the status does not allow, a task that is not there) and says why', async () => {
    const job = await newJob('Refusal in the middle');
    const start = await getVisit(job.id);
    const actions = offline(
      start.updatedAt,
      { kind: 'note', text: 'Before' },
      { kind: 'task', taskId: randomUUID(), status: 'completed' },
      { kind: 'note', text: 'After' },
    );
    const answer: TechActionBatchResponse = (await batch(job.id, actions)).json();
    expect(answer.results).toHaveLength(1);
    expect(answer.stopped).toEqual({ idempotencyKey: actions[1]!.idempotencyKey, reason: 'refused', status: 404, code: 'NOT_FOUND', message: techMessages.taskNotFound });
    expect(answer.visit!.notes.map((note) => note.text)).toEqual(['Before']);

    const complete = offline(answer.visit!.updatedAt, { kind: 'complete', summary: 'Not yet on site' });
    const refused: TechActionBatchResponse = (await batch(job.id, complete)).json();
    expect(refused.stopped).toMatchObject({ reason: 'refused', status: 409, code: 'CONFLICT', message: techMessages.stepRefused('scheduled', 'complete') });
    expect(refused.visit!.status).toBe('scheduled');
  });

  it('answers another technician’s visit, or none, with the single route’s 404, applying nothing', async () => {
    const theirs = await newJob('Not mine', otherTechnicianId);
    const actions = offline(new Date().toISOString(), { kind: 'note', text: 'Not my job' });
    for (const id of [theirs.id, randomUUID(), 'not-an-id']) {
      const response = await batch(id, actions);
      const single = await context.app.inject({ method: 'POST', url: `/api/tech/visits/${id}/actions`, headers: { cookie: techCookie }, payload: actions[0] as object });
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual(single.json());
      expect(response.json().error.message).toBe(techMessages.visitNotFound);
    }
    expect(await appliedCount(theirs.id)).toBe(0);
  });

  it(`refuses more than ${techBatchMaxActions} actions, none, and a body over the limit, applying nothing`, async () => {
    const job = await newJob('Too many');
    const start = await getVisit(job.id);
    const tooMany = offline(start.updatedAt, ...Array.from({ length: techBatchMaxActions + 1 }, (_, index) => ({ kind: 'note', text: `Note ${index}` })));
    const over = await batch(job.id, tooMany);
    expect(over.statusCode).toBe(400);
    expect(over.json().error.code).toBe('VALIDATION_FAILED');
    expect(over.json().error.message).toContain(`Send at most ${techBatchMaxActions} actions in one batch`);

    const none = await batch(job.id, []);
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toContain('Send at least one action');

    const large = offline(start.updatedAt, ...Array.from({ length: 3 }, () => ({ kind: 'complete', summary: 'Done', signature: `data:image/png;base64,${'A'.repeat(399_000)}` })));
    expect(JSON.stringify({ actions: large }).length).toBeGreaterThan(techBatchMaxBytes);
    const tooLarge = await batch(job.id, large);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.code).toBe('PAYLOAD_TOO_LARGE');

    expect(await appliedCount(job.id)).toBe(0);
  });
});
