import fs from 'node:fs';
import path from 'node:path';
import type { HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordMessages, staffMessages, type StaffAccount } from '#shared/auth.ts';
import { createAuthRepository } from '#server/modules/auth/auth.repository.ts';
import { createStaffRepository } from '#server/modules/staff/staff.repository.ts';
import { createStaffAccountService } from '#server/modules/staff/staff.service.ts';
import { isEvent, openEventStream } from '#tests/support/event-stream-client.ts';
import { createStaff, createTestApp, sessionCookieFrom, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';
import { sessionCookieName } from '#server/plugins/session.ts';

let context: TestContext;
let baseUrl: string;
let adminCookie: string;
let dispatcherCookie: string;
let nextAddress = 10;
/** Each sign-in from its own address, so the login throttle of one test never touches another. */
const freshAddress = () => `127.0.4.${(nextAddress += 1)}`;
const goodPassword = 'tidal creek oyster heron';
const routes: { method: string; url: string; adminOnly: boolean }[] = [];

beforeAll(async () => {
  context = await createTestApp({
    // A long heartbeat: a stream that ends in these tests was ended by the change itself, not by a
    // heartbeat's session re-check.
    liveStreamLimits: { heartbeatMs: 600_000 },
    onRoute: (route: RouteOptions) => {
      const methods = ([] as HTTPMethods[]).concat(route.method);
      for (const method of methods) routes.push({ method, url: route.url, adminOnly: route.config?.adminOnly === true });
    },
  });
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createStaff(context.database, 'dispatch@example.com', testPassword, 'dispatcher');
  adminCookie = await signIn(context.app, 'admin@example.com');
  dispatcherCookie = await signIn(context.app, 'dispatch@example.com');
  baseUrl = await context.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => context.close());

const isSettingsRoute = (url: string) => url === '/api/admin/settings' || url.startsWith('/api/admin/settings/');
/** What a dispatcher may not call: settings, and the routes marked adminOnly (decision 018-f). */
const isAdminOnly = (route: { url: string; adminOnly: boolean }) => isSettingsRoute(route.url) || route.adminOnly;
/** A concrete address for a route pattern: every parameter becomes a well-formed id that names nothing. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

async function statusOf(method: string, url: string, cookie: string): Promise<number> {
  if (url === '/api/admin/events') {
    // The live stream never ends by itself: read the status over real HTTP, then hang up.
    const stream = await openEventStream(`${baseUrl}${url}`, { cookie });
    stream.close();
    return stream.status;
  }
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);
  const response = await context.app.inject({
    method: method as InjectOptions['method'],
    url: concrete(url),
    headers: { cookie },
    ...(hasBody ? { payload: {} } : {}),
  });
  return response.statusCode;
}

describe('roles on every admin route', () => {
  it('knows the admin routes (the enumeration works)', () => {
    const adminRoutes = routes.filter((route) => route.url.startsWith('/api/admin'));
    expect(adminRoutes.length).toBeGreaterThan(10);
    expect(adminRoutes).toContainEqual({ method: 'GET', url: '/api/admin/customers', adminOnly: false });
    expect(adminRoutes).toContainEqual({ method: 'POST', url: '/api/admin/settings/staff/:id/deactivate', adminOnly: false });
  });

  it('marks exactly the deletes of customers and photos, invoice voids and refunds, and the price book changes, admin-only outside settings (decisions 018-f, 024-f, 024-g)', () => {
    expect(routes.filter((route) => route.adminOnly)).toEqual([
      { method: 'DELETE', url: '/api/admin/customers/:id', adminOnly: true },
      { method: 'DELETE', url: '/api/admin/customers/:id/photos/:photoId', adminOnly: true },
      { method: 'POST', url: '/api/admin/invoices/:id/void', adminOnly: true },
      { method: 'POST', url: '/api/admin/invoices/:id/payments/:paymentId/refunds', adminOnly: true },
      { method: 'POST', url: '/api/admin/price-book', adminOnly: true },
      { method: 'PUT', url: '/api/admin/price-book/:id', adminOnly: true },
      { method: 'POST', url: '/api/admin/price-book/:id/status', adminOnly: true },
      { method: 'DELETE', url: '/api/admin/price-book/:id', adminOnly: true },
      { method: 'POST', url: '/api/admin/price-book/import', adminOnly: true },
      { method: 'POST', url: '/api/admin/agreements/:id/cancel', adminOnly: true },
    ]);
  });

  it('refuses a dispatcher every /api/admin/settings route and every adminOnly route with 403 and lets them reach every other admin route', async () => {
    const adminRoutes = routes.filter((route) => route.url.startsWith('/api/admin') && route.method !== 'HEAD');
    for (const route of adminRoutes) {
      const status = await statusOf(route.method, route.url, dispatcherCookie);
      if (isAdminOnly(route)) expect(status, `${route.method} ${route.url}`).toBe(403);
      else expect(status, `${route.method} ${route.url}`).not.toBe(403);
    }
  });

  it('lets an admin reach every admin route, settings included', async () => {
    const adminRoutes = routes.filter((route) => route.url.startsWith('/api/admin') && route.method !== 'HEAD');
    for (const route of adminRoutes) {
      const status = await statusOf(route.method, route.url, adminCookie);
      expect(status, `${route.method} ${route.url}`).not.toBe(403);
      expect(status, `${route.method} ${route.url}`).not.toBe(401);
    }
  });

  it('refuses a dispatcher under /api/admin/settings even for paths that do not exist, with the one message', async () => {
    for (const url of ['/api/admin/settings', '/api/admin/settings/nothing-here', '/api/admin/settings/?x=1']) {
      const response = await context.app.inject({ method: 'GET', url, headers: { cookie: dispatcherCookie } });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Only an administrator can change settings.' } });
    }
  });

  it('judges the route the router matched, not only the raw address (percent-escapes)', async () => {
    const stranger = await context.app.inject({ method: 'GET', url: '/api/%61dmin/customers' });
    expect(stranger.statusCode).toBe(401);
    const encodedSettings = routes.find((route) => isSettingsRoute(route.url) && route.method === 'GET');
    if (encodedSettings) {
      const url = concrete(encodedSettings.url).replace('/settings', '/%73ettings');
      const response = await context.app.inject({ method: 'GET', url, headers: { cookie: dispatcherCookie } });
      expect(response.statusCode, url).toBe(403);
    }
  });
});

// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;
async function call(method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: Json) {
  const response = await context.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}), remoteAddress: freshAddress() });
  return { status: response.statusCode, body: response.body ? (response.json() as Json) : {} };
}
const login = (email: string, password: string) =>
  context.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: freshAddress() });
const signInAs = (email: string, password = goodPassword) => signIn(context.app, email, password, freshAddress());
const sessionStatus = async (cookie: string) => (await context.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } })).statusCode;

async function addStaff(payload: Json, cookie = adminCookie): Promise<StaffAccount> {
  const response = await call('POST', '/api/admin/settings/staff', cookie, payload);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.staff as StaffAccount;
}

/**
 * The set-password link of the last e-mail delivered to an address. Without SMTP_URL the delivery
 * is an .eml file in DATA_DIR/outbox (the outbox table's copy of the link is blanked once written).
 */
async function linkTokenFor(email: string): Promise<string> {
  await context.app.emailOutbox.idle();
  const directory = path.join(context.config.dataDir, 'outbox');
  const mails = fs
    .readdirSync(directory)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => fs.readFileSync(path.join(directory, name), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((text) => new RegExp(`^To: ${email.replace(/[.]/g, '\\.')}$`, 'm').test(text));
  const token = /\/admin\/set-password#token=([\w-]+)/.exec(mails.at(-1) ?? '')?.[1];
  if (!token) throw new Error(`no set-password link e-mailed to ${email}`);
  return token;
}

const auditOf = (id: string) =>
  context.database.query<{ action: string; actor_name: string; changes: Record<string, unknown> }>(
    `select action, actor_name, changes from audit_log where entity_type = 'staff' and entity_id = $1 order by occurred_at, id`,
    [id],
  );

describe('staff accounts', () => {
  it('lists accounts without password hashes', async () => {
    const response = await call('GET', '/api/admin/settings/staff', adminCookie);
    expect(response.status).toBe(200);
    const staff = response.body.staff as StaffAccount[];
    expect(staff.map((account) => account.email)).toEqual(expect.arrayContaining(['admin@example.com', 'dispatch@example.com']));
    expect(staff.find((account) => account.email === 'admin@example.com')).toMatchObject({ role: 'admin', active: true, hasPassword: true });
    expect(staff.find((account) => account.email === 'admin@example.com')!.lastSignInAt).not.toBeNull();
    expect(response.body).not.toHaveProperty(['staff', 0, 'passwordHash']);
    expect(JSON.stringify(response.body)).not.toMatch(/argon2/);
  });

  it('adds a dispatcher with an initial password who can sign in, and records it (never the password)', async () => {
    const added = await addStaff({ email: 'New.Dispatcher@Example.com', name: 'Nia Dispatch', role: 'dispatcher', setup: 'password', password: goodPassword });
    expect(added).toMatchObject({ email: 'new.dispatcher@example.com', role: 'dispatcher', active: true, hasPassword: true, lastSignInAt: null });
    const cookie = await signInAs('new.dispatcher@example.com');
    expect(await sessionStatus(cookie)).toBe(200);
    const duplicate = await call('POST', '/api/admin/settings/staff', adminCookie, {
      email: 'new.dispatcher@example.com', name: 'Again', role: 'dispatcher', setup: 'password', password: goodPassword,
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ error: { message: staffMessages.emailTaken } });
    const entries = await auditOf(added.id);
    expect(entries).toEqual([
      { action: 'created', actor_name: 'Pat Staff', changes: { email: [null, 'new.dispatcher@example.com'], name: [null, 'Nia Dispatch'], role: [null, 'dispatcher'] } },
    ]);
    expect(JSON.stringify(entries)).not.toContain(goodPassword);
  });

  it('refuses passwords against the policy, with the rule broken as the message', async () => {
    const cases: [string, string][] = [
      ['short pass', passwordMessages.tooShort],
      ['password1234', passwordMessages.common],
      ['qwertyuiopasdf', passwordMessages.common],
      ['123456789012', passwordMessages.sequence],
      ['zzzzzzzzzzzzzz', passwordMessages.repeated],
      ['my name is ruthanne!', passwordMessages.personal],
      ['ruthanne.rules.2024', passwordMessages.personal],
      ['lowcountry rocks 2024', passwordMessages.company],
    ];
    for (const [password, message] of cases) {
      const response = await call('POST', '/api/admin/settings/staff', adminCookie, {
        email: 'ruthanne.rules@example.com', name: 'Ruthanne Rules', role: 'dispatcher', setup: 'password', password,
      });
      expect(response.status, password).toBe(400);
      expect(JSON.stringify(response.body), password).toContain(message);
    }
    const [count] = await context.database.query<{ count: number }>(`select count(*)::int as count from staff_users where email = 'ruthanne.rules@example.com'`);
    expect(count!.count).toBe(0);
    await addStaff({ email: 'ruthanne.rules@example.com', name: 'Ruthanne Rules', role: 'dispatcher', setup: 'password', password: goodPassword });
  });

  it('invites with a one-time link: no sign-in before it is used, works once, refused after', async () => {
    const invited = await addStaff({ email: 'invitee@example.com', name: 'Ivy Invitee', role: 'dispatcher', setup: 'invite' });
    expect(invited.hasPassword).toBe(false);
    expect((await login('invitee@example.com', 'anything at all here')).statusCode).toBe(401);
    const token = await linkTokenFor('invitee@example.com');
    // Stored only as a hash.
    const stored = await context.database.query<{ token_hash: string }>(`select token_hash from staff_password_links`);
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    const check = await context.app.inject({ method: 'POST', url: '/api/auth/set-password/check', payload: { token }, remoteAddress: freshAddress() });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({ email: 'invitee@example.com', name: 'Ivy Invitee' });

    // A refused password leaves the link usable.
    const weak = await context.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: 'invitee12345678' }, remoteAddress: freshAddress() });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: { message: passwordMessages.personal } });

    const used = await context.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: goodPassword }, remoteAddress: freshAddress() });
    expect(used.statusCode).toBe(204);
    expect(await sessionStatus(await signInAs('invitee@example.com'))).toBe(200);

    const again = await context.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: 'another fine heron day' }, remoteAddress: freshAddress() });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: { message: staffMessages.linkInvalid } });
    expect((await login('invitee@example.com', 'another fine heron day')).statusCode).toBe(401);
    expect((await auditOf(invited.id)).map((entry) => entry.action)).toEqual(['invited', 'password_changed']);
  });

  it('refuses an expired link', async () => {
    await addStaff({ email: 'late.invitee@example.com', name: 'Lee Late', role: 'dispatcher', setup: 'invite' });
    const token = await linkTokenFor('late.invitee@example.com');
    await context.database.query(
      `update staff_password_links set expires_at = now() - interval '1 minute' where staff_user_id = (select id from staff_users where email = 'late.invitee@example.com')`,
    );
    const check = await context.app.inject({ method: 'POST', url: '/api/auth/set-password/check', payload: { token }, remoteAddress: freshAddress() });
    expect(check.statusCode).toBe(404);
    const use = await context.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: goodPassword }, remoteAddress: freshAddress() });
    expect(use.statusCode).toBe(404);
    expect(use.json()).toMatchObject({ error: { message: staffMessages.linkInvalid } });
  });

  it('the link expires 72 hours after it is sent', async () => {
    const response = await call('POST', '/api/admin/settings/staff', adminCookie, { email: 'timed@example.com', name: 'Tim Ed', role: 'dispatcher', setup: 'invite' });
    const [link] = await context.database.query<{ hours: number }>(
      `select extract(epoch from expires_at - created_at) / 3600 as hours from staff_password_links where staff_user_id = $1`,
      [(response.body.staff as StaffAccount).id],
    );
    expect(Math.round(Number(link!.hours))).toBe(72);
    expect(response.body.linkExpiresAt).toEqual(expect.any(String));
  });
});

describe('deactivation', () => {
  it('ends the user\'s sessions and open live stream at once; sign-in is refused until reactivated', async () => {
    const user = await addStaff({ email: 'leaving@example.com', name: 'Lou Leaving', role: 'dispatcher', setup: 'password', password: goodPassword });
    const first = await signInAs('leaving@example.com');
    const second = await signInAs('leaving@example.com');
    const stream = await openEventStream(`${baseUrl}/api/admin/events`, { cookie: first });
    expect(stream.status).toBe(200);
    await stream.waitFor(isEvent('ready'));

    const response = await call('POST', `/api/admin/settings/staff/${user.id}/deactivate`, adminCookie);
    expect(response.status).toBe(200);
    expect(response.body.staff).toMatchObject({ active: false });
    // The heartbeat is ten minutes: the stream ended because the sessions did.
    await stream.ended;
    expect(await sessionStatus(first)).toBe(401);
    expect(await sessionStatus(second)).toBe(401);
    expect((await call('GET', '/api/admin/customers', first)).status).toBe(401);
    expect((await login('leaving@example.com', goodPassword)).statusCode).toBe(401);

    const reactivated = await call('POST', `/api/admin/settings/staff/${user.id}/reactivate`, adminCookie);
    expect(reactivated.body.staff).toMatchObject({ active: true });
    expect(await sessionStatus(await signInAs('leaving@example.com'))).toBe(200);
    expect((await auditOf(user.id)).map((entry) => entry.action)).toEqual(['created', 'deactivated', 'activated']);
  });

  it('an admin cannot deactivate or demote themselves', async () => {
    const admin = (await call('GET', '/api/admin/session', adminCookie)).body.user as { id: string };
    const deactivate = await call('POST', `/api/admin/settings/staff/${admin.id}/deactivate`, adminCookie);
    expect(deactivate.status).toBe(409);
    expect(deactivate.body).toMatchObject({ error: { message: staffMessages.selfDeactivate } });
    const demote = await call('PUT', `/api/admin/settings/staff/${admin.id}/role`, adminCookie, { role: 'dispatcher' });
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ error: { message: staffMessages.selfRole } });
    expect((await call('POST', '/api/admin/settings/staff/not-an-id/deactivate', adminCookie)).status).toBe(404);
  });
});

describe('roles and the last admin', () => {
  it('a promoted dispatcher reaches settings on the next request; a demoted admin is refused on the next request', async () => {
    const user = await addStaff({ email: 'rising@example.com', name: 'Ray Rising', role: 'dispatcher', setup: 'password', password: goodPassword });
    const cookie = await signInAs('rising@example.com');
    expect((await call('GET', '/api/admin/settings/staff', cookie)).status).toBe(403);
    expect((await call('PUT', `/api/admin/settings/staff/${user.id}/role`, adminCookie, { role: 'admin' })).status).toBe(200);
    expect((await call('GET', '/api/admin/settings/staff', cookie)).status).toBe(200);
    expect((await call('PUT', `/api/admin/settings/staff/${user.id}/role`, adminCookie, { role: 'dispatcher' })).status).toBe(200);
    expect((await call('GET', '/api/admin/settings/staff', cookie)).status).toBe(403);
    expect((await call('PUT', `/api/admin/settings/staff/${user.id}/role`, adminCookie, { role: 'owner' })).status).toBe(400);
    expect((await auditOf(user.id)).map((entry) => entry.changes)).toEqual([
      expect.anything(),
      { role: ['dispatcher', 'admin'] },
      { role: ['admin', 'dispatcher'] },
    ]);
  });

  it('the last active admin can be neither deactivated nor demoted (the rule itself, below the guard)', async () => {
    const service = createStaffAccountService({
      db: context.database.db,
      staff: createStaffRepository(context.database.db),
      auth: createAuthRepository(context.database.db),
      outbox: context.app.emailOutbox,
      company: context.config.company,
    });
    // Every other admin is deactivated first, so admin@example.com is the last one.
    const [admin] = await context.database.query<{ id: string }>(`select id from staff_users where email = 'admin@example.com'`);
    const others = await context.database.query<{ id: string }>(`select id from staff_users where role = 'admin' and active and email <> 'admin@example.com'`);
    const actor = { id: admin!.id, email: 'admin@example.com', name: 'Pat Staff', role: 'admin' as const };
    for (const other of others) await service.deactivate(actor, other.id);
    // An actor who is not the target (say a dispatcher whose call raced a role change).
    const someoneElse = { id: '00000000-0000-4000-8000-000000000001', email: 'x@example.com', name: 'X', role: 'admin' as const };
    await expect(service.deactivate(someoneElse, admin!.id)).rejects.toMatchObject({ code: 'CONFLICT', message: staffMessages.lastAdmin });
    await expect(service.changeRole(someoneElse, admin!.id, 'dispatcher')).rejects.toMatchObject({ code: 'CONFLICT', message: staffMessages.lastAdmin });
    for (const other of others) await service.reactivate(actor, other.id);
  });

  it('two admins deactivating each other at once leave exactly one active admin', async () => {
    await addStaff({ email: 'admin.two@example.com', name: 'Ada Two', role: 'admin', setup: 'password', password: goodPassword });
    await addStaff({ email: 'admin.three@example.com', name: 'Abe Three', role: 'admin', setup: 'password', password: goodPassword });
    // Only these two are active admins for this test.
    const others = await context.database.query<{ id: string }>(
      `select id from staff_users where role = 'admin' and active and email not in ('admin.two@example.com', 'admin.three@example.com')`,
    );
    await context.database.query(`update staff_users set active = false where id = any($1::uuid[])`, [others.map((row) => row.id)]);
    try {
      const two = await signInAs('admin.two@example.com');
      const three = await signInAs('admin.three@example.com');
      const ids = await context.database.query<{ id: string; email: string }>(`select id, email from staff_users where email in ('admin.two@example.com', 'admin.three@example.com')`);
      const idOf = (email: string) => ids.find((row) => row.email === email)!.id;
      const results = await Promise.all([
        call('POST', `/api/admin/settings/staff/${idOf('admin.three@example.com')}/deactivate`, two),
        call('POST', `/api/admin/settings/staff/${idOf('admin.two@example.com')}/deactivate`, three),
      ]);
      const statuses = results.map((result) => result.status).sort();
      expect(statuses[0]).toBe(200);
      expect([401, 409]).toContain(statuses[1]);
      const [active] = await context.database.query<{ count: number }>(
        `select count(*)::int as count from staff_users where role = 'admin' and active and email in ('admin.two@example.com', 'admin.three@example.com')`,
      );
      expect(active!.count).toBe(1);
    } finally {
      await context.database.query(`update staff_users set active = true where id = any($1::uuid[])`, [others.map((row) => row.id)]);
    }
  });
});

describe('password resets and my own password', () => {
  it('an admin sets a new password for someone: their sessions end and the old password stops working', async () => {
    const user = await addStaff({ email: 'forgetful@example.com', name: 'Fay Forgetful', role: 'dispatcher', setup: 'password', password: goodPassword });
    const cookie = await signInAs('forgetful@example.com');
    const reset = await call('POST', `/api/admin/settings/staff/${user.id}/password`, adminCookie, { setup: 'password', password: 'brand new heron 2031' });
    expect(reset.status).toBe(200);
    expect(await sessionStatus(cookie)).toBe(401);
    expect((await login('forgetful@example.com', goodPassword)).statusCode).toBe(401);
    expect((await login('forgetful@example.com', 'brand new heron 2031')).statusCode).toBe(200);

    const byLink = await call('POST', `/api/admin/settings/staff/${user.id}/password`, adminCookie, { setup: 'invite' });
    expect(byLink.status).toBe(200);
    expect(byLink.body.linkExpiresAt).toEqual(expect.any(String));
    const token = await linkTokenFor('forgetful@example.com');
    const used = await context.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: goodPassword }, remoteAddress: freshAddress() });
    expect(used.statusCode).toBe(204);
    expect((await login('forgetful@example.com', goodPassword)).statusCode).toBe(200);
    const entries = await auditOf(user.id);
    expect(entries.map((entry) => entry.action)).toEqual(['created', 'password_reset', 'password_reset', 'password_changed']);
    expect(JSON.stringify(entries)).not.toMatch(/heron|argon2|token/);

    const admin = (await call('GET', '/api/admin/session', adminCookie)).body.user as { id: string };
    const own = await call('POST', `/api/admin/settings/staff/${admin.id}/password`, adminCookie, { setup: 'invite' });
    expect(own.status).toBe(409);
  });

  it('changes my own password: the current one is required; my other sessions end, this one stays', async () => {
    await createStaff(context.database, 'self.service@example.com', goodPassword, 'dispatcher');
    const here = await signInAs('self.service@example.com');
    const elsewhere = await signInAs('self.service@example.com');

    const wrong = await call('PUT', '/api/admin/account/password', here, { currentPassword: 'not my password', newPassword: 'kettle lantern meadow' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: { message: staffMessages.wrongCurrentPassword } });
    expect(await sessionStatus(elsewhere)).toBe(200);

    const weak = await call('PUT', '/api/admin/account/password', here, { currentPassword: goodPassword, newPassword: 'abcdefghijklmnop' });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ error: { message: passwordMessages.sequence } });

    const changed = await call('PUT', '/api/admin/account/password', here, { currentPassword: goodPassword, newPassword: 'kettle lantern meadow' });
    expect(changed.status).toBe(204);
    expect(await sessionStatus(here)).toBe(200);
    expect(await sessionStatus(elsewhere)).toBe(401);
    expect((await login('self.service@example.com', goodPassword)).statusCode).toBe(401);
    expect((await login('self.service@example.com', 'kettle lantern meadow')).statusCode).toBe(200);
  });

  it('the session cookie of a changed password stays the same (no sign-out of this tab)', async () => {
    const response = await context.app.inject({ method: 'PUT', url: '/api/admin/account/password', headers: { cookie: dispatcherCookie }, payload: { currentPassword: testPassword, newPassword: 'another fine heron day' }, remoteAddress: freshAddress() });
    expect(response.statusCode).toBe(204);
    expect(sessionCookieFrom(response)).toBeUndefined();
    expect(dispatcherCookie.startsWith(`${sessionCookieName}=`)).toBe(true);
    expect(await sessionStatus(dispatcherCookie)).toBe(200);
  });
});
