import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginMessages } from '#shared/auth.ts';
import { hashToken } from '#server/modules/auth/auth.service.ts';
import { sessionCookieName } from '#server/plugins/session.ts';
import { createStaff, createTestApp, sessionCookieFrom, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let nextAddress = 10;
/** Each test signs in from its own address so that throttling in one test does not touch another. */
const freshAddress = () => `127.0.1.${(nextAddress += 1)}`;

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database, 'staff@example.com');
  await createStaff(context.database, 'other@example.com');
});
afterAll(() => context.close());
beforeEach(async () => {
  await context.database.query('delete from login_attempts');
  await context.database.query('delete from login_throttles');
});

function login(payload: unknown, remoteAddress = freshAddress(), headers: Record<string, string> = {}) {
  return context.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, remoteAddress, headers });
}

describe('staff API without a session', () => {
  it('answers 401 on the session endpoint and on paths that do not exist, revealing nothing', async () => {
    for (const url of ['/api/admin/session', '/api/admin/customers', '/api/admin/does-not-exist']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } });
    }
  });

  it('answers 401 to a made-up session cookie and clears it', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/admin/session', cookies: { [sessionCookieName]: 'forged-token' } });
    expect(response.statusCode).toBe(401);
    expect(response.cookies.find((cookie) => cookie.name === sessionCookieName)?.value).toBe('');
  });
});

describe('login', () => {
  it('signs in with the right password and sets a hardened session cookie', async () => {
    const response = await login({ email: 'Staff@Example.com', password: testPassword });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { email: 'staff@example.com', name: 'Pat Staff', role: 'admin' } });
    expect(response.json().user).not.toHaveProperty('passwordHash');
    const cookie = response.cookies.find((item) => item.name === sessionCookieName)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBeFalsy();
    expect(cookie.path).toBe('/');
    // At least 128 random bits, stored only as a hash.
    expect(Buffer.from(cookie.value, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await context.database.query<{ token_hash: string }>('select token_hash from sessions');
    expect(stored.map((row) => row.token_hash)).toContain(hashToken(cookie.value));
    expect(stored.map((row) => row.token_hash)).not.toContain(cookie.value);

    const session = await context.app.inject({ method: 'GET', url: '/api/admin/session', cookies: { [sessionCookieName]: cookie.value } });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toBe('staff@example.com');
  });

  it('refuses a wrong password and an unknown account with the same generic message', async () => {
    const wrong = await login({ email: 'staff@example.com', password: 'not the password' });
    const unknown = await login({ email: 'nobody@example.com', password: 'not the password' });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: loginMessages.invalidCredentials } });
      expect(sessionCookieFrom(response)).toBeUndefined();
    }
  });

  it('requires both fields', async () => {
    const response = await login({ email: '', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
    expect(response.json().error.message).toMatch(/Email is required/);
  });

  it('rotates the session: signing in again ends the session the browser held', async () => {
    const address = freshAddress();
    const first = await signIn(context.app, 'staff@example.com', testPassword, address);
    const second = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'staff@example.com', password: testPassword },
      headers: { cookie: first },
      remoteAddress: address,
    });
    expect(second.statusCode).toBe(200);
    expect(`${sessionCookieName}=${sessionCookieFrom(second)}`).not.toBe(first);
    const old = await context.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie: first } });
    expect(old.statusCode).toBe(401);
  });
});

// Login throttling (issue 15): tests/integration/login-throttle.test.ts, with a clock the test moves.

describe('session expiry and logout', () => {
  it('ends a session idle for longer than the idle limit', async () => {
    const cookie = await signIn(context.app, 'staff@example.com', testPassword, freshAddress());
    const token = cookie.split('=')[1]!;
    await context.database.query(`update sessions set last_seen_at = now() - interval '31 minutes' where token_hash = $1`, [hashToken(token)]);
    const response = await context.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } });
    expect(response.statusCode).toBe(401);
    expect(await context.database.query('select 1 from sessions where token_hash = $1', [hashToken(token)])).toHaveLength(0);
  });

  it('ends a session past its absolute expiry even while in use', async () => {
    const cookie = await signIn(context.app, 'staff@example.com', testPassword, freshAddress());
    await context.database.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [
      hashToken(cookie.split('=')[1]!),
    ]);
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } })).statusCode).toBe(401);
  });

  it('logout deletes the session on the server and clears the cookie', async () => {
    const cookie = await signIn(context.app, 'staff@example.com', testPassword, freshAddress());
    const logout = await context.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(204);
    const cleared = logout.cookies.find((item) => item.name === sessionCookieName)!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
    // The old cookie, replayed, no longer works.
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('request hardening', () => {
  it('refuses state-changing calls from another origin', async () => {
    const crossOrigin = await login({ email: 'staff@example.com', password: testPassword }, freshAddress(), { origin: 'https://evil.example' });
    expect(crossOrigin.statusCode).toBe(403);
    const crossSite = await login({ email: 'staff@example.com', password: testPassword }, freshAddress(), { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    const sameOrigin = await login({ email: 'staff@example.com', password: testPassword }, freshAddress(), {
      origin: 'http://localhost:80',
      host: 'localhost:80',
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('sends security headers on every response', async () => {
    for (const url of ['/healthz', '/api/admin/session', '/api/nothing-here']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expect(String(response.headers['content-security-policy']), url).toContain("script-src 'self'");
    }
  });

  it('refuses oversized login bodies', async () => {
    const response = await login({ email: 'staff@example.com', password: 'x'.repeat(10_000) });
    expect(response.statusCode).toBe(413);
  });

  it('stores passwords as argon2id with at least the OWASP parameters', async () => {
    const [row] = await context.database.query<{ password_hash: string }>(`select password_hash from staff_users where email = 'staff@example.com'`);
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
