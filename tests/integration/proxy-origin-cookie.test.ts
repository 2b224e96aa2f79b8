import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostSessionCookieName, sessionCookieName } from '#server/plugins/session.ts';
import { validEstimateRequest } from '#tests/support/estimate-fixtures.ts';
import { startForwardingProxy } from '#tests/support/forwarding-proxy.ts';
import { createStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * Issue 15, items 2 and 3 and the session cookie: each describe is named after the defect it
 * proves fixed (decisions 018-b-client-addresses, 018-b-origin-check, 018-b-session-cookie).
 */

const siteUrl = 'https://www.lowcountrycomfort.example';
const foreignOrigin = 'https://evil.example';

function submitEstimate(context: TestContext, remoteAddress: string, headers: Record<string, string> = {}, url = '/api/public/estimate-requests') {
  return context.app.inject({ method: 'POST', url, payload: validEstimateRequest, remoteAddress, headers });
}

async function count(context: TestContext, table: string): Promise<number> {
  const [row] = await context.database.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return row!.n;
}

describe('TRUST_PROXY=true let any client pick its own address', () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestApp({ env: { TRUST_PROXY: '1', PUBLIC_FORM_LIMIT: '2' } });
  });
  afterAll(() => context.close());

  it('with one proxy hop, the address the proxy appended is the client: two spoofed leftmost values share one limit', async () => {
    const proxy = '10.0.0.5';
    const first = await submitEstimate(context, proxy, { 'x-forwarded-for': '1.2.3.4, 203.0.113.7' });
    const second = await submitEstimate(context, proxy, { 'x-forwarded-for': '5.6.7.8, 203.0.113.7' });
    const third = await submitEstimate(context, proxy, { 'x-forwarded-for': '9.9.9.9, 203.0.113.7' });
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([201, 201, 429]);
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    // Another client behind the same proxy has its own limit.
    const other = await submitEstimate(context, proxy, { 'x-forwarded-for': '1.2.3.4, 203.0.113.8' });
    expect(other.statusCode).toBe(201);
  });

  it('through a real proxy in front of a listening server, the client is the address the proxy saw', async () => {
    const listening = await createTestApp({ env: { TRUST_PROXY: '1', PUBLIC_FORM_LIMIT: '2' } });
    const address = await listening.app.listen({ port: 0, host: '127.0.0.1' });
    const proxy = await startForwardingProxy({ port: Number(new URL(address).port) });
    try {
      const send = (spoofed: string) =>
        fetch(`${proxy.url}/api/public/estimate-requests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed },
          body: JSON.stringify(validEstimateRequest),
        });
      const statuses = [];
      for (const spoofed of ['1.2.3.4', '5.6.7.8', '9.10.11.12']) statuses.push((await send(spoofed)).status);
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await proxy.close();
      await listening.close();
    }
  });
});

describe('TRUST_PROXY could not name the proxies: only hops inside the configured list are trusted', () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1, 10.0.0.0/8', PUBLIC_FORM_LIMIT: '1' } });
  });
  afterAll(() => context.close());

  it('walks back through trusted hops only and stops at the first address outside the list', async () => {
    // 10.1.1.1 (socket) and 10.2.2.2 are proxies; 192.0.2.9 is the client; 1.2.3.4 is what it claimed.
    const first = await submitEstimate(context, '10.1.1.1', { 'x-forwarded-for': '1.2.3.4, 192.0.2.9, 10.2.2.2' });
    const again = await submitEstimate(context, '10.1.1.1', { 'x-forwarded-for': '4.3.2.1, 192.0.2.9, 10.2.2.2' });
    expect([first.statusCode, again.statusCode]).toEqual([201, 429]);
  });

  it('ignores X-Forwarded-For from a peer outside the list', async () => {
    const first = await submitEstimate(context, '198.51.100.1', { 'x-forwarded-for': '1.2.3.4' });
    const again = await submitEstimate(context, '198.51.100.1', { 'x-forwarded-for': '5.6.7.8' });
    expect([first.statusCode, again.statusCode]).toEqual([201, 429]);
  });

  it('takes X-Forwarded-Proto only from a trusted peer (the Secure flag on an http site)', async () => {
    await createStaff(context.database, 'proto@example.com');
    const login = (remoteAddress: string) =>
      context.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'proto@example.com', password: testPassword },
        remoteAddress,
        headers: { 'x-forwarded-proto': 'https' },
      });
    const viaProxy = (await login('10.1.1.1')).cookies.find((cookie) => cookie.name === sessionCookieName)!;
    const direct = (await login('198.51.100.2')).cookies.find((cookie) => cookie.name === sessionCookieName)!;
    expect(viaProxy.secure).toBe(true);
    expect(direct.secure).toBeFalsy();
  });
});

describe('the Origin check was skipped for an encoded path', () => {
  let context: TestContext;
  let cookie: string;
  beforeAll(async () => {
    context = await createTestApp();
    await createStaff(context.database, 'admin@example.com');
    cookie = await signIn(context.app, 'admin@example.com');
  });
  afterAll(() => context.close());

  it('refuses POST /%61pi/admin/... with a foreign Origin (403) and stores nothing', async () => {
    const before = await count(context, 'technicians');
    const response = await context.app.inject({
      method: 'POST',
      url: '/%61pi/admin/settings/technicians',
      payload: { name: 'Mallory Tech', color: '#112233' },
      headers: { cookie, origin: foreignOrigin },
    });
    expect(response.statusCode).toBe(403);
    expect(await count(context, 'technicians')).toBe(before);
    // The same call from the site itself still works through the encoded path (the router decodes it).
    const sameSite = await context.app.inject({
      method: 'POST',
      url: '/%61pi/admin/settings/technicians',
      payload: { name: 'Pat Tech', color: '#112233' },
      headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(sameSite.statusCode).toBe(201);
  });

  it('refuses POST /%61pi/public/... with a foreign Origin and stores nothing', async () => {
    const before = await count(context, 'estimate_requests');
    const response = await submitEstimate(context, '127.0.3.1', { origin: foreignOrigin }, '/%61pi/public/estimate-requests');
    expect(response.statusCode).toBe(403);
    expect(await count(context, 'estimate_requests')).toBe(before);
  });
});

describe('the Origin check compared the host but not the scheme', () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestApp({ env: { COMPANY_SITE_URL: siteUrl, TRUST_PROXY: '1' } });
    await createStaff(context.database, 'staff@example.com');
  });
  afterAll(() => context.close());

  function login(headers: Record<string, string>) {
    return context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'staff@example.com', password: testPassword },
      remoteAddress: '10.0.0.9',
      headers,
    });
  }

  it('refuses an http:// origin on the https site, whatever scheme the request came in with', async () => {
    const host = 'www.lowcountrycomfort.example';
    expect((await login({ host, origin: `http://${host}` })).statusCode).toBe(403);
    expect((await login({ host, origin: `http://${host}`, 'x-forwarded-proto': 'https' })).statusCode).toBe(403);
    expect((await login({ host, origin: `https://${host}:8443` })).statusCode).toBe(403);
  });

  it("accepts the site's own origin, also when TLS ended at the proxy and the app saw another host", async () => {
    expect((await login({ host: 'app.internal:3000', origin: siteUrl })).statusCode).toBe(200);
    expect((await login({ host: 'www.lowcountrycomfort.example', origin: siteUrl, 'x-forwarded-proto': 'https' })).statusCode).toBe(200);
  });
});

describe('the session cookie was Secure only when the request looked like https', () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestApp({ env: { COMPANY_SITE_URL: siteUrl } });
    await createStaff(context.database, 'staff@example.com');
  });
  afterAll(() => context.close());

  it('on an https site, sets __Host-hvac_session with Secure, HttpOnly, SameSite, Path=/ and no Domain over plain http', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'staff@example.com', password: testPassword },
      remoteAddress: '127.0.4.1',
    });
    expect(response.statusCode).toBe(200);
    const header = [response.headers['set-cookie']].flat().find((value) => value?.startsWith(`${hostSessionCookieName}=`))!;
    expect(header).toBeDefined();
    const attributes = header.split(';').slice(1).map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']));
    expect(attributes.some((part) => part.startsWith('domain'))).toBe(false);
    expect(response.cookies.some((cookie) => cookie.name === sessionCookieName)).toBe(false);

    // The cookie is what the server reads back, and logout clears that same cookie.
    const token = response.cookies.find((cookie) => cookie.name === hostSessionCookieName)!.value;
    const session = await context.app.inject({ method: 'GET', url: '/api/admin/session', cookies: { [hostSessionCookieName]: token } });
    expect(session.statusCode).toBe(200);
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/session', cookies: { [sessionCookieName]: token } })).statusCode).toBe(401);
    const logout = await context.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [hostSessionCookieName]: token } });
    const cleared = logout.cookies.find((cookie) => cookie.name === hostSessionCookieName)!;
    expect(cleared.value).toBe('');
    expect(cleared.secure).toBe(true);
  });
});
