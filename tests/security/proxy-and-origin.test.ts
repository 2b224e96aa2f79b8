import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validEstimateRequest } from '#tests/support/estimate-fixtures.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

/**
 * Attacker suite (issue 15): a client that forges X-Forwarded-For to dodge the per-address limits,
 * and a page on another site that sends a staff member's browser to an encoded path to skip the
 * Origin check. Decisions 018-b-client-addresses and 018-b-origin-check.
 */

const spoofedValues = ['1.2.3.4', '5.6.7.8, 9.9.9.9', '203.0.113.50', 'unknown', '::1', '127.0.0.1'];

describe.each([
  { label: 'no proxy (TRUST_PROXY unset)', env: {} as Record<string, string>, peer: '198.51.100.20', via: (spoofed: string) => spoofed },
  { label: 'one proxy hop (TRUST_PROXY=1)', env: { TRUST_PROXY: '1' }, peer: '10.0.0.2', via: (spoofed: string) => `${spoofed}, 198.51.100.20` },
  { label: 'a proxy list (TRUST_PROXY=10.0.0.0/8)', env: { TRUST_PROXY: '10.0.0.0/8' }, peer: '10.0.0.2', via: (spoofed: string) => `${spoofed}, 198.51.100.20` },
])('a forged X-Forwarded-For behind $label', ({ env, peer, via }) => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestApp({ env: { ...env, PUBLIC_FORM_LIMIT: '3', LOGIN_RATE_LIMIT: '3', CHAT_MESSAGE_LIMIT: '3' } });
  });
  afterAll(() => context.close());

  async function exhaust(send: (spoofed: string) => Promise<{ statusCode: number; headers: Record<string, unknown> }>) {
    const answers = [];
    for (const spoofed of spoofedValues.slice(0, 4)) answers.push(await send(spoofed));
    return answers;
  }

  it('does not dodge the public form limit, and nothing past the limit is stored', async () => {
    const answers = await exhaust((spoofed) =>
      context.app.inject({ method: 'POST', url: '/api/public/estimate-requests', payload: validEstimateRequest, remoteAddress: peer, headers: { 'x-forwarded-for': via(spoofed) } }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 429]);
    expect(answers.slice(0, 3).map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);
    const [row] = await context.database.query<{ n: number }>('select count(*)::int as n from estimate_requests');
    expect(row!.n).toBe(3);
  });

  it('does not dodge the login rate limit', async () => {
    const answers = await exhaust((spoofed) =>
      context.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'nobody@example.com', password: 'not the password at all' },
        remoteAddress: peer,
        headers: { 'x-forwarded-for': via(spoofed) },
      }),
    );
    expect(answers.slice(0, 3).map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);
    expect(answers[3]!.statusCode).toBe(429);
  });

  it('does not dodge the chat message limit', async () => {
    const answers = await exhaust((spoofed) =>
      context.app.inject({
        method: 'POST',
        url: '/api/public/chat/messages',
        payload: { message: 'What are your hours?', sessionId: 'session-spoof-0001' },
        remoteAddress: peer,
        headers: { 'x-forwarded-for': via(spoofed) },
      }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
  });
});

describe('encoded and odd paths with a foreign Origin', () => {
  let context: TestContext;
  let cookie: string;
  let technicianId: string;
  const foreignOrigins = ['https://evil.example', 'null', 'http://localhost:80.evil.example', 'https://localhost:80', 'not a url'];
  const collectionPaths = [
    '/%61pi/admin/settings/technicians',
    '/api/%61dmin/settings/technicians',
    '/api/admin/%73ettings/technicians',
    '/%61%70%69/%61%64%6d%69%6e/settings/technicians',
    '/%2561pi/admin/settings/technicians',
    '/api/%2561dmin/settings/technicians',
    '/API/admin/settings/technicians',
    '/Api/Admin/settings/technicians',
    '/api/admin/settings/technicians/',
    '//api/admin/settings/technicians',
    '/api//admin/settings/technicians',
    '/api/admin/settings/technicians?x=1',
    '/api/admin/settings/technicians;x=1',
    '/./api/admin/settings/technicians',
    '/x/../api/admin/settings/technicians',
  ];

  beforeAll(async () => {
    context = await createTestApp();
    await createStaff(context.database, 'admin@example.com');
    cookie = await signIn(context.app, 'admin@example.com');
    const created = await context.app.inject({
      method: 'POST',
      url: '/api/admin/settings/technicians',
      payload: { name: 'Pat Tech', color: '#112233' },
      headers: { cookie },
    });
    expect(created.statusCode).toBe(201);
    technicianId = created.json().technician.id;
  });
  afterAll(() => context.close());

  const snapshot = async () => context.database.query('select id, name, color, active from technicians order by id');
  const counts = async () =>
    (await context.database.query<{ t: number; e: number; a: number }>(
      'select (select count(*)::int from technicians) as t, (select count(*)::int from estimate_requests) as e, (select count(*)::int from audit_log) as a',
    ))[0];

  it('never creates, edits or removes anything, whatever the path spelling, method or origin', async () => {
    const before = { rows: await snapshot(), counts: await counts() };
    const attempts: { method: 'POST' | 'PATCH' | 'PUT' | 'DELETE'; url: string; payload?: object }[] = [];
    for (const url of collectionPaths) {
      attempts.push({ method: 'POST', url, payload: { name: 'Mallory Tech', color: '#ff0000' } });
      const [pathPart, query] = url.split('?');
      const itemUrl = `${pathPart!.replace(/\/$/, '')}/${technicianId}${query ? `?${query}` : ''}`;
      attempts.push({ method: 'PATCH', url: itemUrl, payload: { name: 'Renamed by Mallory', active: false } });
      attempts.push({ method: 'PUT', url: itemUrl, payload: { name: 'Renamed by Mallory' } });
      attempts.push({ method: 'DELETE', url: itemUrl });
    }
    for (const url of ['/%61pi/public/estimate-requests', '/api/%70ublic/estimate-requests', '/API/public/estimate-requests', '//api/public/estimate-requests']) {
      attempts.push({ method: 'POST', url, payload: validEstimateRequest });
    }
    for (const attempt of attempts) {
      for (const origin of foreignOrigins) {
        const response = await context.app.inject({ ...attempt, headers: { cookie, origin }, remoteAddress: '127.0.5.1' });
        expect(response.statusCode, `${attempt.method} ${attempt.url} from ${origin}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${attempt.method} ${attempt.url} from ${origin}`).toBeLessThan(500);
      }
      const crossSite = await context.app.inject({ ...attempt, headers: { cookie, 'sec-fetch-site': 'cross-site' }, remoteAddress: '127.0.5.1' });
      expect(crossSite.statusCode, `${attempt.method} ${attempt.url} cross-site`).toBe(403);
    }
    expect(await snapshot()).toEqual(before.rows);
    expect(await counts()).toEqual(before.counts);
  });

  it('refuses with 403 before routing: even a path that routes nowhere is refused, not 404', async () => {
    for (const url of ['/%61pi/admin/settings/technicians', '/api/nothing-here', '/admin/anything', '/']) {
      const response = await context.app.inject({ method: 'POST', url, payload: {}, headers: { cookie, origin: 'https://evil.example' } });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Cross-site requests are not allowed.' } });
    }
  });

  it('still lets the site itself write through the encoded path the router accepts', async () => {
    const response = await context.app.inject({
      method: 'PATCH',
      url: `/%61pi/admin/settings/technicians/${technicianId}`,
      payload: { name: 'Pat Tech Senior' },
      headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(response.statusCode).toBe(200);
  });
});
