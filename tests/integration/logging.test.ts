import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, sessionCookieFrom, testConfig, testPassword, type TestContext } from '#tests/support/test-app.ts';
import { sessionCookieName } from '#server/plugins/session.ts';
import { staffUsers } from '#server/db/schema/index.ts';

// Structured JSON logs (issue 10): every line a request writes carries its id, the id is echoed
// in x-request-id, and neither a password nor a session cookie reaches the log.
let context: TestContext;
const lines: string[] = [];

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  context = await createTestApp({ env: { LOG_LEVEL: 'trace' }, logStream });
  await createStaff(context.database);
});
afterAll(async () => {
  await context?.close();
});

const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('request logs', () => {
  it('a sign-in and a signed-in request log neither the password nor the session cookie', async () => {
    const login = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'staff@example.com', password: testPassword },
      remoteAddress: '127.0.0.9',
    });
    expect(login.statusCode).toBe(200);
    const token = sessionCookieFrom(login)!;
    const failed = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'staff@example.com', password: 'a wrong password for the log test' },
      remoteAddress: '127.0.0.9',
    });
    expect(failed.statusCode).toBe(401);
    const session = await context.app.inject({
      method: 'GET',
      url: '/api/admin/session',
      headers: { cookie: `${sessionCookieName}=${token}`, authorization: 'Bearer secret-bearer-token-123' },
    });
    expect(session.statusCode).toBe(200);

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(log).not.toContain(testPassword);
    expect(log).not.toContain('a wrong password for the log test');
    expect(log).not.toContain(token);
    expect(log).not.toContain('secret-bearer-token-123');
    // Every line is JSON; every line about a request names it.
    for (const record of records()) {
      if ('req' in record || 'res' in record) expect(typeof record.reqId).toBe('string');
    }
    const completed = records().filter((record) => record.msg === 'request completed');
    expect(completed.length).toBeGreaterThanOrEqual(3);
  });

  it('redacts secrets in any object that is logged', () => {
    context.app.log.info({ body: { email: 'a@example.com', password: 'hunter2 hunter2' }, headers: { cookie: 'hvac_session=abc' }, apiKey: 'sk-live-123' }, 'test line');
    const record = records().find((entry) => entry.msg === 'test line')!;
    expect(record).toMatchObject({ body: { email: 'a@example.com', password: '[Redacted]' }, headers: { cookie: '[Redacted]' }, apiKey: '[Redacted]' });
  });

  it('redacts the SMS auth token wherever the configuration is logged', () => {
    const api = { url: 'https://api.twilio.example', accountSid: 'AC123', authToken: 'sms-auth-token-secret', from: '+18435550100' };
    context.app.log.info({ sms: { api, timeoutMs: 10_000 }, authToken: 'sms-auth-token-secret', settings: { twilio: { auth_token: 'sms-auth-token-secret' } } }, 'sms line');
    const line = lines.find((entry) => entry.includes('sms line'))!;
    expect(line).not.toContain('sms-auth-token-secret');
    expect(JSON.parse(line)).toMatchObject({ sms: { api: { accountSid: 'AC123', authToken: '[Redacted]' } }, authToken: '[Redacted]' });
  });

  it("redacts Stripe's secret key and webhook secret wherever the configuration is logged", () => {
    const stripe = { apiUrl: 'https://api.stripe.com', secretKey: 'sk_live_51LoggedKeyValue', webhookSecret: 'whsec_LoggedSigningSecret' };
    context.app.log.info({ payments: { stripe, timeoutMs: 10_000 }, secretKey: stripe.secretKey, env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret } }, 'stripe line');
    const line = lines.find((entry) => entry.includes('stripe line'))!;
    expect(line).not.toContain('sk_live_51LoggedKeyValue');
    expect(line).not.toContain('whsec_LoggedSigningSecret');
    expect(JSON.parse(line)).toMatchObject({ payments: { stripe: { apiUrl: 'https://api.stripe.com', secretKey: '[Redacted]', webhookSecret: '[Redacted]' } } });
  });
});

describe('request ids', () => {
  it('keeps a safe incoming x-request-id, echoes it, and writes it on the request log lines', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-4f2a.91:7' } });
    expect(response.headers['x-request-id']).toBe('lb-4f2a.91:7');
    const mine = records().filter((record) => record.reqId === 'lb-4f2a.91:7');
    expect(mine.map((record) => record.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('replaces a missing, long or unsafe id with a random UUID', async () => {
    for (const header of [undefined, 'x'.repeat(65), 'has spaces', 'line\\nbreak', '<script>']) {
      const response = await context.app.inject({ method: 'GET', url: '/healthz', headers: header === undefined ? {} : { 'x-request-id': header } });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('which instance answered (issue 23)', () => {
  it('names itself in X-Served-By when INSTANCE_NAME is set, and says nothing otherwise', async () => {
    expect((await context.app.inject({ method: 'GET', url: '/healthz' })).headers['x-served-by']).toBeUndefined();
    const named = await createTestApp({ env: { INSTANCE_NAME: 'web-2' } });
    try {
      for (const url of ['/healthz', '/api/admin/session', '/api/public/no-such-route']) {
        expect((await named.app.inject({ method: 'GET', url })).headers['x-served-by'], url).toBe('web-2');
      }
    } finally {
      await named.close();
    }
    expect(() => testConfig({ INSTANCE_NAME: 'two words' })).toThrow(/INSTANCE_NAME/);
  });
});

describe('health', () => {
  it('/healthz answers while the process runs; /readyz when the database answers', async () => {
    const health = await context.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await context.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: context.database.kind });
  });

  it('/readyz answers 503 once the database is gone, while /healthz still answers', async () => {
    const other = await createTestApp();
    try {
      await other.database.close();
      const ready = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: other.database.kind });
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.app.close();
    }
  });
});

describe('database errors are logged with their bound parameters (issue 15)', () => {
  const victimEmail = 'leaky.victim@example.com';
  const victimPhone = '843-555-0199';
  const victimHash = '$argon2id$v=19$m=65536,t=3,p=4$bG9nLXRlc3Q$leakyhashleakyhashleakyhash';

  async function failingInsert(values: Record<string, unknown>): Promise<Error> {
    try {
      await context.database.db.insert(staffUsers).values(values as typeof staffUsers.$inferInsert);
    } catch (error) {
      return error as Error;
    }
    throw new Error('the insert was expected to fail');
  }

  it('a unique violation keeps its code, constraint and table but not the e-mail, phone or hash', async () => {
    await context.database.db.insert(staffUsers).values({ email: victimEmail, name: victimPhone, passwordHash: victimHash, role: 'admin' });
    const error = await failingInsert({ email: victimEmail, name: victimPhone, passwordHash: victimHash, role: 'admin' });
    // The error does carry the values (this is what used to reach the log).
    expect(JSON.stringify({ message: error.message, params: (error as { params?: unknown }).params })).toContain(victimEmail);

    context.app.log.error({ err: error }, 'db unique violation test');
    const line = lines.find((entry) => entry.includes('db unique violation test'))!;
    expect(line).toBeDefined();
    expect(line).not.toContain(victimEmail);
    expect(line).not.toContain(victimPhone);
    expect(line).not.toContain('leakyhash');
    const record = JSON.parse(line) as { err: { message: string; cause?: { code?: string; constraint?: string; table?: string } } };
    expect(record.err.message).toContain('insert into "staff_users"');
    expect(record.err.cause).toMatchObject({ code: '23505', constraint: 'staff_users_email_key' });
  });

  it('a check violation logged under the error key keeps its code and constraint, never the values', async () => {
    const error = await failingInsert({ email: 'Shouting.Victim@Example.com', name: victimPhone, role: 'admin' });
    context.app.log.warn({ error }, 'db check violation test');
    const line = lines.find((entry) => entry.includes('db check violation test'))!;
    expect(line).not.toContain('Shouting.Victim');
    expect(line).not.toContain(victimPhone);
    expect(JSON.parse(line)).toMatchObject({ error: { cause: { code: '23514', constraint: 'staff_users_email_lowercase' } } });
  });
});
