import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginMessages, passwordMessages, staffMessages } from '#shared/auth.ts';
import { todayIn } from '#shared/dates.ts';
import type { TechnicianSettingsItem } from '#shared/technician.ts';
import type { TechVisit } from '#shared/tech.ts';
import { customers, techActions, technicians, workOrders } from '#server/db/schema/index.ts';
import { techActionRetentionDays } from '#server/modules/tech/tech-housekeeping.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * The technician app's loose ends (issue 19, decision 022-a "Later") on a real database: a
 * technician changes their own password under /api/tech with the office's rules; a deactivated
 * technician's account stops working (sessions end, sign-in refused) until the technician is
 * active again, and Settings says which technicians have a sign-in; the actions' idempotency
 * records are pruned after their window by the hourly housekeeping.
 */

let context: TestContext;
let adminCookie: string;
let mikeId: string;
let sarahId: string;
let customerId: string;
let address = 10;

/** Each call from its own address: the sign-in throttle and the rate limits count per address. */
const freshAddress = () => `127.0.1.${address++}`;

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, cookie: string | undefined, payload?: unknown) {
  return context.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: cookie ? { cookie } : {},
    remoteAddress: freshAddress(),
  });
}

const login = (email: string, password: string) => call('POST', '/api/auth/login', undefined, { email, password });
const status = async (cookie: string) => (await call('GET', '/api/tech/session', cookie)).statusCode;
const sessionRows = async (email: string) =>
  (await context.database.db.execute<{ count: number }>(sql`select count(*)::int as count from sessions s join staff_users u on u.id = s.staff_user_id where u.email = ${email}`))
    .rows[0]!.count;

beforeAll(async () => {
  context = await createTestApp();
  const [mike, sarah] = await context.database.db
    .insert(technicians)
    .values([{ name: 'Mike Johnson' }, { name: 'Sarah Williams' }])
    .returning({ id: technicians.id });
  mikeId = mike!.id;
  sarahId = sarah!.id;
  const [customer] = await context.database.db.insert(customers).values({ name: 'Dana Whitfield', phone: '(843) 271-2001', address: '1 Marsh Hen Lane' }).returning({ id: customers.id });
  customerId = customer!.id;
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createTechnicianStaff(context.database, mikeId, 'mike.tech@example.com');
  await createTechnicianStaff(context.database, sarahId, 'sarah.tech@example.com');
  adminCookie = await signIn(context.app, 'admin@example.com');
});
afterAll(() => context.close());

describe('a technician changes their own password (PUT /api/tech/account/password)', () => {
  it('needs the current password, applies the strength rules, ends the other sessions and keeps this one', async () => {
    const phone = await signIn(context.app, 'mike.tech@example.com', testPassword, freshAddress());
    const tablet = await signIn(context.app, 'mike.tech@example.com', testPassword, freshAddress());

    const wrong = await call('PUT', '/api/tech/account/password', phone, { currentPassword: 'not my password', newPassword: 'kettle lantern meadow' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ message: staffMessages.wrongCurrentPassword, details: [{ path: 'currentPassword' }] });
    expect(await status(tablet)).toBe(200);

    const weak = await call('PUT', '/api/tech/account/password', phone, { currentPassword: testPassword, newPassword: 'abcdefghijklmnop' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toMatchObject({ message: passwordMessages.sequence, details: [{ path: 'newPassword' }] });

    const same = await call('PUT', '/api/tech/account/password', phone, { currentPassword: testPassword, newPassword: testPassword });
    expect(same.statusCode).toBe(400);
    expect(same.json().error.message).toBe(staffMessages.samePassword);

    const changed = await call('PUT', '/api/tech/account/password', phone, { currentPassword: testPassword, newPassword: 'kettle lantern meadow' });
    expect(changed.statusCode, changed.body).toBe(204);
    expect(await status(phone)).toBe(200);
    expect(await status(tablet)).toBe(401);
    expect((await login('mike.tech@example.com', testPassword)).statusCode).toBe(401);
    expect((await login('mike.tech@example.com', 'kettle lantern meadow')).statusCode).toBe(200);

    const log = await context.database.db.execute<{ action: string }>(
      sql`select action from audit_log where entity_type = 'staff' and entity_label = 'Terry Tech (mike.tech@example.com)' and action = 'password_changed'`,
    );
    expect(log.rows).toHaveLength(1);
  });

  it('is the technicians’ door: office staff keep theirs under /api/admin, a stranger gets 401', async () => {
    const anonymous = await call('PUT', '/api/tech/account/password', undefined, { currentPassword: testPassword, newPassword: 'kettle lantern meadow' });
    expect(anonymous.statusCode).toBe(401);
    const office = await call('PUT', '/api/tech/account/password', adminCookie, { currentPassword: testPassword, newPassword: 'kettle lantern meadow' });
    expect(office.statusCode).toBe(403);
    const technicianInOffice = await call('PUT', '/api/admin/account/password', await signIn(context.app, 'sarah.tech@example.com', testPassword, freshAddress()), {
      currentPassword: testPassword,
      newPassword: 'kettle lantern meadow',
    });
    expect(technicianInOffice.statusCode).toBe(403);
  });
});

describe('a deactivated technician', () => {
  const deactivate = (active: boolean) => call('PATCH', `/api/admin/settings/technicians/${sarahId}`, adminCookie, { active });

  it('Settings names the technicians who have a sign-in', async () => {
    const list = (await call('GET', '/api/admin/settings/technicians', adminCookie)).json().technicians as TechnicianSettingsItem[];
    expect(list.find((technician) => technician.id === sarahId)).toMatchObject({ accountEmail: 'sarah.tech@example.com' });
    const [lone] = await context.database.db.insert(technicians).values({ name: 'Lone Ranger' }).returning({ id: technicians.id });
    const again = (await call('GET', '/api/admin/settings/technicians', adminCookie)).json().technicians as TechnicianSettingsItem[];
    expect(again.find((technician) => technician.id === lone!.id)).toMatchObject({ accountEmail: null });
  });

  it('loses the app at once: the sessions end, sign-in is refused as for a deactivated account; active again, they sign in', async () => {
    const phone = await signIn(context.app, 'sarah.tech@example.com', testPassword, freshAddress());
    expect(await status(phone)).toBe(200);

    const response = await deactivate(false);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().technician).toMatchObject({ active: false, accountEmail: 'sarah.tech@example.com' });
    expect(await sessionRows('sarah.tech@example.com')).toBe(0);
    expect(await status(phone)).toBe(401);

    const refused = await login('sarah.tech@example.com', testPassword);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe(loginMessages.invalidCredentials);
    // Another technician's account is untouched.
    expect((await login('mike.tech@example.com', 'kettle lantern meadow')).statusCode).toBe(200);

    expect((await deactivate(true)).statusCode).toBe(200);
    const back = await login('sarah.tech@example.com', testPassword);
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ home: '/tech' });
  });

  it('a session that outlived the deactivation (made in the database, not through Settings) is refused too', async () => {
    const phone = await signIn(context.app, 'sarah.tech@example.com', testPassword, freshAddress());
    await context.database.db.update(technicians).set({ active: false }).where(sql`${technicians.id} = ${sarahId}`);
    expect(await sessionRows('sarah.tech@example.com')).toBeGreaterThan(0);
    expect(await status(phone)).toBe(401);
    await context.database.db.update(technicians).set({ active: true }).where(sql`${technicians.id} = ${sarahId}`);
    expect(await status(phone)).toBe(200);
  });
});

describe('pruning the actions’ idempotency records', () => {
  it(`keeps ${techActionRetentionDays} days, deletes what is older in the hourly housekeeping`, async () => {
    const [order] = await context.database.db
      .insert(workOrders)
      .values({ customerId, technicianId: mikeId, title: 'Old actions', serviceDate: todayIn(context.config.businessTimeZone), status: 'scheduled' })
      .returning({ id: workOrders.id });
    const day = 24 * 3_600_000;
    const keys = { old: randomUUID(), edge: randomUUID(), recent: randomUUID() };
    await context.database.db.insert(techActions).values([
      { idempotencyKey: keys.old, workOrderId: order!.id, kind: 'note', takenAt: new Date(Date.now() - 90 * day), appliedAt: new Date(Date.now() - 90 * day) },
      { idempotencyKey: keys.edge, workOrderId: order!.id, kind: 'note', takenAt: new Date(), appliedAt: new Date(Date.now() - (techActionRetentionDays + 1) * day) },
      { idempotencyKey: keys.recent, workOrderId: order!.id, kind: 'note', takenAt: new Date(), appliedAt: new Date(Date.now() - (techActionRetentionDays - 1) * day) },
    ]);
    await context.app.housekeeping();
    const left = await context.database.db.execute<{ key: string }>(
      sql`select idempotency_key as key from tech_actions where idempotency_key in (${keys.old}, ${keys.edge}, ${keys.recent})`,
    );
    expect(left.rows.map((row) => row.key)).toEqual([keys.recent]);
  });

  it('a replay of a pruned action is not applied twice: its base is stale, so it is the 409 conflict', async () => {
    const phone = await signIn(context.app, 'mike.tech@example.com', 'kettle lantern meadow', freshAddress());
    const [order] = await context.database.db
      .insert(workOrders)
      .values({ customerId, technicianId: mikeId, title: 'Replayed note', serviceDate: todayIn(context.config.businessTimeZone), status: 'scheduled' })
      .returning({ id: workOrders.id });
    const visit = (await call('GET', `/api/tech/visits/${order!.id}`, phone)).json().visit as TechVisit;
    const action = { kind: 'note', text: 'Filter replaced', idempotencyKey: randomUUID(), baseUpdatedAt: visit.updatedAt, takenAt: new Date().toISOString() };
    expect((await call('POST', `/api/tech/visits/${order!.id}/actions`, phone, action)).json()).toMatchObject({ applied: true });
    // The record ages past the window and the housekeeping removes it.
    await context.database.db.execute(sql`update tech_actions set applied_at = now() - interval '90 days' where idempotency_key = ${action.idempotencyKey}`);
    await context.app.housekeeping();
    const replay = await call('POST', `/api/tech/visits/${order!.id}/actions`, phone, action);
    expect(replay.statusCode).toBe(409);
    const notes = await context.database.db.execute<{ count: number }>(sql`select count(*)::int as count from work_order_notes where work_order_id = ${order!.id}`);
    expect(notes.rows[0]!.count).toBe(1);
  });
});
