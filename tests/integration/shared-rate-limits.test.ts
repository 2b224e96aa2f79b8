import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { postgresRateLimitStore } from '#server/plugins/rate-limit-store.ts';
import { createTestApp, testConfig, type TestContext } from '#tests/support/test-app.ts';

// Issue 23: the public limits counted where every instance sees them. The store's rules run on
// both databases; two instances sharing one count is PostgreSQL's (the embedded database has one
// server, which keeps its counts in memory).

let context: TestContext;
let nextAddress = 10;
const freshAddress = () => `198.51.100.${(nextAddress += 1)}`;

beforeAll(async () => {
  context = await createTestApp();
});
afterAll(() => context?.close());

type Counted = { current: number; ttl: number };

function counter(prefix: string) {
  const Store = postgresRateLimitStore(context.database.db);
  const store = new Store({} as never).child({ routeInfo: { method: 'POST', url: prefix } } as never);
  return {
    incr: (client: string, windowMs = 60_000) =>
      new Promise<Counted>((resolve, reject) => store.incr(client, (error, result) => (error ? reject(error) : resolve(result!)), windowMs, 5)),
  };
}

describe('the PostgreSQL rate-limit store', () => {
  it('counts per route and client within a window, and starts again when the window ended', async () => {
    const estimates = counter('/api/public/estimates');
    const chat = counter('/api/public/chat/messages');
    const client = freshAddress();
    expect((await estimates.incr(client)).current).toBe(1);
    expect((await estimates.incr(client)).current).toBe(2);
    const third = await estimates.incr(client);
    expect(third.current).toBe(3);
    expect(third.ttl).toBeGreaterThan(55_000);
    expect(third.ttl).toBeLessThanOrEqual(60_000);
    // Another route, another client: counted on their own.
    expect((await chat.incr(client)).current).toBe(1);
    expect((await estimates.incr(freshAddress())).current).toBe(1);

    // No address is stored: only a digest of route and address.
    const keys = await context.database.query<{ key: string }>('select key from rate_limit_counters');
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const { key } of keys) {
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(key).not.toContain(client);
    }

    // The window ends (moved into the past, no waiting): the next request starts a new one.
    await context.database.query(`update rate_limit_counters set resets_at = now() - interval '1 second'`);
    expect((await estimates.incr(client)).current).toBe(1);
  });

  it('counts concurrent requests exactly', async () => {
    const store = counter('/api/public/maintenance-plan-signups');
    const client = freshAddress();
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.incr(client)));
    expect(counts.map((count) => count.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });
});

describe('several instances on one PostgreSQL database', () => {
  let second: FastifyInstance | undefined;

  beforeAll(async () => {
    if (context.database.kind !== 'postgres') return;
    second = await buildApp({ config: testConfig(), database: context.database, logger: false, serveClient: false });
    await second.ready();
  });
  afterAll(() => second?.close());

  it.runIf(process.env.TEST_DATABASE_URL)('share the chat limit: a client spreading its messages over two instances gets the limit once, not twice', async () => {
    const limit = testConfig().chat.messageLimitPerMinute;
    const address = freshAddress();
    const send = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/api/public/chat/messages', payload: { message: 'hello', sessionId: 'session-shared-01' }, remoteAddress: address });
    for (let index = 0; index < limit; index += 1) {
      expect((await send(index % 2 === 0 ? context.app : second!)).statusCode, `message ${index + 1}`).toBe(200);
    }
    for (const app of [context.app, second!]) {
      const refused = await send(app);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another client is not held back by it.
    expect((await second!.inject({ method: 'POST', url: '/api/public/chat/messages', payload: { message: 'hello', sessionId: 'session-shared-02' }, remoteAddress: freshAddress() })).statusCode).toBe(200);
  });
});
