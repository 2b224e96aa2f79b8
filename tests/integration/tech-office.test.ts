import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffMessages } from '#shared/auth.ts';
import { adminSignatureUrl, techFollowUpNotificationType, type TechAction } from '#shared/tech.ts';
import type { WorkOrderDetailResponse } from '#shared/work-order.ts';
import { technicians } from '#server/db/schema/index.ts';
import { multipartBody, png } from '#tests/support/images.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * The office side of the technician app (issue 19, decision 022-a "Office side"), on a real
 * database: a technician account's technician in the staff list, and the work order's steps with
 * who and when, from actions taken through /api/tech.
 */

let context: TestContext;
let adminCookie: string;
let dispatcherCookie: string;
let techCookie: string;
let technicianA: string;
let technicianB: string;
let customerId: string;

const db = () => context.database.db;

function api(method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) {
  return context.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function detail(id: string, cookie = adminCookie): Promise<WorkOrderDetailResponse> {
  const response = await api('GET', `/api/admin/work-orders/${id}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** A technician action on the visit's current version, taken at `takenAt`. */
async function act(id: string, takenAt: string, action: Record<string, unknown> & { kind: TechAction['kind'] }, idempotencyKey = randomUUID()) {
  const visit = await api('GET', `/api/tech/visits/${id}`, techCookie);
  expect(visit.statusCode, visit.body).toBe(200);
  const response = await api('POST', `/api/tech/visits/${id}/actions`, techCookie, {
    idempotencyKey,
    takenAt,
    baseUpdatedAt: visit.json().visit.updatedAt,
    ...action,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { applied: boolean };
}

async function signaturePng(): Promise<string> {
  const bytes = await sharp({ create: { width: 400, height: 150, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0 } } })
    .composite([{ input: Buffer.from('<svg width="400" height="150"><path d="M10 120 C 90 10, 190 140, 390 30" stroke="black" stroke-width="4" fill="none"/></svg>') }])
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

beforeAll(async () => {
  context = await createTestApp();
  const [a, b] = await db()
    .insert(technicians)
    .values([
      { name: 'Mike Johnson', color: '#2563eb' },
      { name: 'Sarah Williams', color: '#db2777' },
    ])
    .returning({ id: technicians.id });
  technicianA = a!.id;
  technicianB = b!.id;
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createStaff(context.database, 'dispatch@example.com', testPassword, 'dispatcher');
  await createTechnicianStaff(context.database, technicianA, 'mike.tech@example.com');
  adminCookie = await signIn(context.app, 'admin@example.com');
  dispatcherCookie = await signIn(context.app, 'dispatch@example.com');
  techCookie = await signIn(context.app, 'mike.tech@example.com');
  const customer = await api('POST', '/api/admin/customers', adminCookie, {
    name: 'Dana Whitfield',
    type: 'residential',
    phone: '(843) 555-0101',
    address: '1 Marsh Hen Lane',
    city: 'Bluffton',
    state: 'SC',
  });
  expect(customer.statusCode, customer.body).toBe(201);
  customerId = customer.json().customer.id;
});

afterAll(async () => {
  await context?.close();
});

describe('Settings → Staff accounts: a technician account and its technician', () => {
  it('lists each technician account with its technician (name, colour), office staff with none', async () => {
    const response = await api('GET', '/api/admin/settings/staff', adminCookie);
    expect(response.statusCode, response.body).toBe(200);
    const staff = response.json().staff as { email: string; technician?: unknown; technicianId?: string | null }[];
    expect(staff.find((account) => account.email === 'mike.tech@example.com')).toMatchObject({
      technicianId: technicianA,
      technician: { id: technicianA, name: 'Mike Johnson', color: '#2563eb', active: true },
    });
    expect(staff.find((account) => account.email === 'admin@example.com')?.technician).toBeNull();
  });

  it('invites a technician account for a free technician, and refuses the one already linked', async () => {
    const added = await api('POST', '/api/admin/settings/staff', adminCookie, {
      name: 'Sarah Williams',
      email: 'sarah.tech@example.com',
      role: 'technician',
      technicianId: technicianB,
      setup: 'invite',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().linkExpiresAt).toEqual(expect.any(String));
    const list = (await api('GET', '/api/admin/settings/staff', adminCookie)).json().staff as { email: string; technician: { name: string } | null }[];
    expect(list.find((account) => account.email === 'sarah.tech@example.com')?.technician?.name).toBe('Sarah Williams');

    const taken = await api('POST', '/api/admin/settings/staff', adminCookie, {
      name: 'Someone Else',
      email: 'else@example.com',
      role: 'technician',
      technicianId: technicianA,
      setup: 'invite',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.details).toEqual([{ path: 'technicianId', message: staffMessages.technicianTaken }]);
  });

  it('does not show the staff list (with its technician links) to a dispatcher', async () => {
    expect((await api('GET', '/api/admin/settings/staff', dispatcherCookie)).statusCode).toBe(403);
  });
});

describe("the work order's steps", () => {
  it('records each step taken in the technician app with the technician and the time it was taken, in order', async () => {
    const created = await api('POST', '/api/admin/work-orders', adminCookie, {
      customerId,
      title: 'AC not cooling',
      description: 'Runs but will not get below 80F.',
      technicianId: technicianA,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().workOrder.id as string;
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const enRouteKey = randomUUID();
    const times = { enRoute: minutesAgo(90), onSite: minutesAgo(70), note: minutesAgo(50), complete: minutesAgo(20) };
    await act(id, times.enRoute, { kind: 'en-route' }, enRouteKey);
    // A replay (the phone sent it twice) is applied once: no second step.
    expect((await act(id, times.enRoute, { kind: 'en-route' }, enRouteKey)).applied).toBe(false);
    await act(id, times.onSite, { kind: 'on-site' });
    await act(id, times.note, { kind: 'note', text: 'Capacitor bulging; replaced.' });
    // Two photos in one upload, sent twice (a replay stores nothing and records nothing).
    const { payload, headers } = await multipartBody([
      { name: 'a.png', bytes: await png(320, 240) },
      { name: 'b.png', bytes: await png(320, 240) },
    ]);
    const photoKey = randomUUID();
    for (const expected of [201, 200]) {
      const upload = await context.app.inject({ method: 'POST', url: `/api/tech/visits/${id}/photos`, payload, headers: { ...headers, cookie: techCookie, 'idempotency-key': photoKey } });
      expect(upload.statusCode, upload.body).toBe(expected);
    }
    await act(id, times.complete, {
      kind: 'complete',
      summary: 'Replaced the run capacitor; cooling to 72F.',
      materials: [{ description: '45/5 µF capacitor', quantity: 1 }],
      signerName: 'Dana Whitfield',
      signature: await signaturePng(),
      followUp: { note: 'Quote a new condenser fan motor.' },
    });

    // A dispatcher sees the work order's own history (it is not the admin activity log).
    const answer = await detail(id, dispatcherCookie);
    expect(answer.steps?.map((step) => [step.label, step.actorName])).toEqual([
      ['Created', 'Pat Staff'],
      ['Marked en route', 'Terry Tech'],
      ['Arrived on site', 'Terry Tech'],
      ['Note added', 'Terry Tech'],
      ['2 photos added', 'Terry Tech'],
      ['Completed', 'Terry Tech'],
    ]);
    const at = (label: string) => answer.steps?.find((step) => step.label === label)?.at;
    expect(at('Marked en route')).toBe(times.enRoute);
    expect(at('Arrived on site')).toBe(times.onSite);
    expect(at('Completed')).toBe(times.complete);

    expect(answer.timeline).toMatchObject({ startedAt: times.onSite, completedAt: times.complete });
    expect(answer.completion).toMatchObject({
      summary: 'Replaced the run capacitor; cooling to 72F.',
      materials: [{ description: '45/5 µF capacitor', quantity: 1 }],
      signerName: 'Dana Whitfield',
      signatureUrl: adminSignatureUrl(id),
      timeOnSiteMinutes: 50,
      followUpNote: 'Quote a new condenser fan motor.',
      completedByName: 'Terry Tech',
    });
    expect(answer.techNotes).toEqual([expect.objectContaining({ text: 'Capacitor bulging; replaced.', authorName: 'Terry Tech', createdAt: times.note })]);
    const signature = await api('GET', adminSignatureUrl(id), dispatcherCookie);
    expect(signature.statusCode).toBe(200);
    expect(signature.headers['content-type']).toContain('image/png');

    const [notification] = (
      await db().execute<{ data: Record<string, unknown> }>(sql`select data from admin_notifications where type = ${techFollowUpNotificationType}`)
    ).rows;
    expect(notification?.data).toMatchObject({ work_order_id: id, technician_name: 'Terry Tech' });
  });

  it("names the office's own changes and keeps the newest 100 steps, oldest first", async () => {
    const created = await api('POST', '/api/admin/work-orders', adminCookie, { customerId, title: 'Many edits', description: 'Notes edited often.' });
    const order = created.json().workOrder as { id: string; updatedAt: string };
    let updatedAt = order.updatedAt;
    for (let index = 0; index < 101; index += 1) {
      const response = await api('PUT', `/api/admin/work-orders/${order.id}/notes`, adminCookie, { notes: `Edit ${index}`, expectedUpdatedAt: updatedAt });
      expect(response.statusCode, response.body).toBe(200);
      updatedAt = response.json().workOrder.updatedAt;
    }
    const started = await api('POST', `/api/admin/work-orders/${order.id}/status`, adminCookie, { status: 'in-progress', expectedUpdatedAt: updatedAt });
    expect(started.statusCode, started.body).toBe(200);
    const steps = (await detail(order.id)).steps!;
    expect(steps).toHaveLength(100);
    expect(steps.at(-1)).toMatchObject({ label: 'Status changed to In Progress', actorName: 'Pat Staff' });
    expect(steps[0]!.label).toBe('Office notes updated');
    expect(steps.some((step) => step.label === 'Created')).toBe(false);
    const times = steps.map((step) => Date.parse(step.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
