import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '#server/app.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { validEstimateRequest } from '#tests/support/estimate-fixtures.ts';
import { isEvent, openEventStream, type EventStreamClient } from '#tests/support/event-stream-client.ts';
import { createStaff, createTestApp, signIn, testConfig, type TestContext } from '#tests/support/test-app.ts';
import { createPostgresTestDatabase, withAdminClient } from '#tests/support/test-database.ts';

let context: TestContext;
let baseUrl: string;
let cookie: string;
const streams: EventStreamClient[] = [];

async function stream(headers: Record<string, string> = { cookie }, url = baseUrl): Promise<EventStreamClient> {
  const client = await openEventStream(`${url}/api/admin/events`, headers);
  streams.push(client);
  return client;
}

/** A stream that has received `ready`: changes committed from now on reach it. */
async function readyStream(url = baseUrl, sessionCookie = cookie): Promise<EventStreamClient> {
  const client = await stream({ cookie: sessionCookie }, url);
  expect(client.status).toBe(200);
  await client.waitFor(isEvent('ready'));
  return client;
}

const insertCustomer = (database: DatabaseHandle, name: string) =>
  database.query(`insert into customers (name, phone, address, city, state) values ($1, '843-555-0100', '1 Main St', 'Bluffton', 'SC')`, [name]);

let nextAddress = 10;
const submitEstimate = (body: object = validEstimateRequest) =>
  context.app.inject({ method: 'POST', url: '/api/public/estimate-requests', payload: body, remoteAddress: `127.0.3.${(nextAddress += 1)}` });

beforeAll(async () => {
  context = await createTestApp({ liveStreamLimits: { heartbeatMs: 100, maxStreamsPerSession: 3 } });
  await createStaff(context.database);
  cookie = await signIn(context.app);
  baseUrl = await context.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  for (const client of streams) client.close();
  await context.close();
});

describe('the live-update stream', () => {
  it('answers 401 without a session and opens nothing', async () => {
    const client = await stream({});
    expect(client.status).toBe(401);
    await client.ended;
    expect(JSON.parse(client.body())).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('streams with the right headers, a retry hint and `ready` first', async () => {
    const client = await stream();
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toContain('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers['content-encoding']).toBeUndefined();
    // helmet's headers survive the hijacked reply
    expect(client.headers['x-content-type-options']).toBe('nosniff');
    expect(client.headers['content-security-policy']).toContain("connect-src 'self'");
    await client.waitFor(isEvent('ready'));
    expect(client.received[0]).toEqual({ retry: 3_000 });
    await client.waitFor((event) => 'comment' in event && event.comment === 'heartbeat');
    client.close();
  });

  it('delivers a change committed on another connection through the real HTTP route', async () => {
    const client = await readyStream();
    await insertCustomer(context.database, 'Live Update Customer');
    await client.waitFor(isEvent('change', { topic: 'customers', action: 'insert' }));
    await context.database.query(`update customers set notes = 'x' where name = 'Live Update Customer'`);
    await client.waitFor(isEvent('change', { topic: 'customers', action: 'update' }));
    client.close();
  });

  it('publishes technician changes (settings) on the technicians topic', async () => {
    const client = await readyStream();
    await context.database.query(`insert into technicians (name, color) values ('Live Tech', '#123456')`);
    await client.waitFor(isEvent('change', { topic: 'technicians', action: 'insert' }));
    await context.database.query(`update technicians set color = '#654321' where name = 'Live Tech'`);
    await client.waitFor(isEvent('change', { topic: 'technicians', action: 'update' }));
    client.close();
  });

  it('publishes the site\'s plan sign-ups on the agreements\' topic (the trigger names it)', async () => {
    const client = await readyStream();
    await context.database.query(
      `insert into maintenance_agreement_signups (plan_id, billing, name, email, phone, address, city, zip) values ('essential', 'yearly', 'Live Signup', 'live@example.com', '(843) 555-0100', '1 Live Oak', 'Bluffton', '29910')`,
    );
    await client.waitFor(isEvent('change', { topic: 'maintenance_agreements', action: 'insert' }));
    await context.database.query(`delete from maintenance_agreement_signups where name = 'Live Signup'`);
    await client.waitFor(isEvent('change', { topic: 'maintenance_agreements', action: 'delete' }));
    client.close();
  });

  it('publishes nothing for a rolled-back change', async () => {
    const client = await readyStream();
    const from = client.received.length;
    await context.database.db.transaction(async (transaction) => {
      await transaction.execute(`delete from customers` as never);
      transaction.rollback();
    }).catch((error: unknown) => expect(String(error)).toMatch(/rollback/i));
    // Notifications arrive in commit order: once this later change is in, the rollback's would be too.
    await context.database.query(`insert into admin_notifications (type, title, message) values ('marker', 'marker', 'marker')`);
    await client.waitFor(isEvent('change', { topic: 'admin_notifications', action: 'insert' }), { fromIndex: from });
    expect(client.received.slice(from).filter(isEvent('change', { topic: 'customers', action: 'delete' }))).toEqual([]);
    await context.database.query(`delete from admin_notifications where type = 'marker'`);
    client.close();
  });

  it('passes on nothing but well-formed changes of the live topics', async () => {
    const client = await readyStream();
    const from = client.received.length;
    await context.database.query(`select pg_notify('hvac_changes', 'not json')`);
    await context.database.query(`select pg_notify('hvac_changes', '{"topic":"sessions","action":"delete"}')`);
    await context.database.query(`select pg_notify('hvac_changes', '{"topic":"work_orders","action":"update"}')`);
    await client.waitFor(isEvent('change', { topic: 'work_orders', action: 'update' }), { fromIndex: from });
    expect(client.received.slice(from).filter((event) => 'event' in event)).toEqual([{ event: 'change', data: '{"topic":"work_orders","action":"update"}' }]);
    client.close();
  });

  it('refuses more streams per session than the cap, and frees the place when one closes', async () => {
    const open = await Promise.all([stream(), stream(), stream()]);
    for (const client of open) expect(client.status).toBe(200);
    const refused = await stream();
    expect(refused.status).toBe(429);
    open[0]!.close();
    await vi.waitFor(async () => {
      const again = await stream();
      again.close();
      expect(again.status).toBe(200);
    });
    for (const client of open) client.close();
  });

  it('unsubscribes a stream whose client went away', async () => {
    await vi.waitFor(() => expect(context.app.changeFeed.subscriberCount).toBe(0));
    const client = await readyStream();
    expect(context.app.changeFeed.subscriberCount).toBe(1);
    client.close();
    await vi.waitFor(() => expect(context.app.changeFeed.subscriberCount).toBe(0));
  });

  it('ends the stream when its session ends (at the next heartbeat)', async () => {
    const sessionCookie = await signIn(context.app);
    const client = await readyStream(baseUrl, sessionCookie);
    const logout = await context.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: sessionCookie } });
    expect(logout.statusCode).toBeLessThan(300);
    await client.ended;
    const again = await stream({ cookie: sessionCookie });
    expect(again.status).toBe(401);
  });
});

describe('staff notifications', () => {
  const list = async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/admin/notifications', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return response.json() as { notifications: { id: string; type: string; title: string; message: string; data: Record<string, unknown>; readAt: string | null }[]; unreadCount: number };
  };
  const post = (url: string, headers: Record<string, string> = { cookie }) => context.app.inject({ method: 'POST', url, headers });

  it('a website estimate request creates one, in the same transaction, and it is announced live', async () => {
    await post('/api/admin/notifications/read-all');
    const client = await readyStream();
    const response = await submitEstimate();
    expect(response.statusCode).toBe(201);
    const { request } = response.json() as { request: { id: string } };
    await client.waitFor(isEvent('change', { topic: 'estimate_requests', action: 'insert' }));
    await client.waitFor(isEvent('change', { topic: 'admin_notifications', action: 'insert' }));

    const { notifications, unreadCount } = await list();
    expect(unreadCount).toBe(1);
    expect(notifications[0]).toMatchObject({
      type: 'new_estimate_request',
      title: 'Urgent estimate request: AC Repair',
      message: expect.stringContaining('Dana Whitfield asked for ac repair'),
      data: { estimate_request_id: request.id, service_type: 'ac-repair', link: '/admin/estimates' },
      readAt: null,
    });
    client.close();
  });

  it('a request that fails to store leaves no notification', async () => {
    const before = (await list()).notifications.length;
    const response = await submitEstimate({ ...validEstimateRequest, email: 'not an email' });
    expect(response.statusCode).toBe(400);
    expect((await list()).notifications.length).toBe(before);
  });

  it('marks one read, then all, and counts what is unread', async () => {
    await submitEstimate({ ...validEstimateRequest, name: 'Second Visitor', serviceType: 'maintenance' });
    await submitEstimate({ ...validEstimateRequest, name: 'Third Visitor', serviceType: 'ductwork' });
    const before = await list();
    expect(before.unreadCount).toBe(3);
    expect(before.notifications.slice(0, 2).map((notification) => notification.title)).toEqual([
      'New estimate request: Ductwork',
      'New estimate request: Maintenance',
    ]);

    const one = await post(`/api/admin/notifications/${before.notifications[0]!.id}/read`);
    expect(one.statusCode).toBe(200);
    const readAt = (one.json() as { notification: { readAt: string } }).notification.readAt;
    expect(readAt).toEqual(expect.any(String));
    expect((await list()).unreadCount).toBe(2);
    // Reading it again keeps the first read time.
    const again = await post(`/api/admin/notifications/${before.notifications[0]!.id}/read`);
    expect((again.json() as { notification: { readAt: string } }).notification.readAt).toBe(readAt);

    const all = await post('/api/admin/notifications/read-all');
    expect(all.json()).toEqual({ updated: 2 });
    const after = await list();
    expect(after.unreadCount).toBe(0);
    expect(after.notifications.every((notification) => notification.readAt !== null)).toBe(true);
  });

  it('answers 404 for an unknown id and 401 without a session', async () => {
    expect((await post('/api/admin/notifications/00000000-0000-4000-8000-000000000000/read')).statusCode).toBe(404);
    expect((await post('/api/admin/notifications/not-a-uuid/read')).statusCode).toBe(404);
    expect((await post('/api/admin/notifications/read-all', {})).statusCode).toBe(401);
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/notifications' })).statusCode).toBe(401);
  });
});

describe('closing the server', () => {
  it('ends open streams instead of waiting for them', async () => {
    const own = await createTestApp();
    await createStaff(own.database);
    const ownCookie = await signIn(own.app);
    const url = await own.app.listen({ host: '127.0.0.1', port: 0 });
    const client = await readyStream(url, ownCookie);
    await own.close();
    await client.ended;
  });
});

// PostgreSQL only: several instances share one database, and the listening connection can be lost.
describe.skipIf(!process.env.TEST_DATABASE_URL)('live updates on PostgreSQL', () => {
  type Instance = { app: FastifyInstance; database: DatabaseHandle; url: string; cookie: string };
  let created: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  const instances: Instance[] = [];

  async function startInstance(): Promise<Instance> {
    const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 3 });
    const app = await buildApp({ config: testConfig(), database, logger: false, serveClient: false });
    await app.ready();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const instance = { app, database, url, cookie: await signIn(app) };
    instances.push(instance);
    return instance;
  }

  beforeAll(async () => {
    created = await createPostgresTestDatabase(process.env.TEST_DATABASE_URL!);
    const first = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 1 });
    await createStaff(first);
    await first.close();
  });
  afterAll(async () => {
    for (const instance of instances) {
      await instance.app.close();
      await instance.database.close();
    }
    await created.drop();
  });

  it('a change made through instance 1 reaches a stream on instance 2', async () => {
    const one = await startInstance();
    const two = await startInstance();
    const client = await readyStream(two.url, two.cookie);
    const response = await one.app.inject({
      method: 'POST',
      url: '/api/public/estimate-requests',
      payload: validEstimateRequest,
      remoteAddress: '127.0.4.1',
    });
    expect(response.statusCode).toBe(201);
    await client.waitFor(isEvent('change', { topic: 'estimate_requests', action: 'insert' }));
    await client.waitFor(isEvent('change', { topic: 'admin_notifications', action: 'insert' }));
    client.close();
  });

  it('the listener survives a terminated backend: streams are told to refetch, then changes flow again', async () => {
    const instance = instances[0] ?? (await startInstance());
    const client = await readyStream(instance.url, instance.cookie);
    const from = client.received.length;
    const { rowCount } = await withAdminClient(process.env.TEST_DATABASE_URL!, (admin) =>
      admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query ilike 'listen%'`, [new URL(created.url).pathname.slice(1)]),
    );
    expect(rowCount).toBeGreaterThan(0);
    // After reconnecting the feed says `ready` again: whatever happened in the gap is refetched.
    await client.waitFor(isEvent('ready'), { fromIndex: from, timeoutMs: 15_000 });
    await insertCustomer(instance.database, 'After The Cut');
    await client.waitFor(isEvent('change', { topic: 'customers', action: 'insert' }), { fromIndex: from });
    client.close();
  });
});
