import type { HTTPMethods, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundTextPath } from '#shared/inbound-texts.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import { validEstimateRequest } from '#tests/support/estimate-fixtures.ts';
import { inboundSmsParams, signedInboundRequest } from '#tests/support/fake-sms-server.ts';
import { createStaff, createTestApp, type TestContext } from '#tests/support/test-app.ts';

// Issue 15, attacker suite: every public state-changing route (no session needed) gets oversized
// bodies, malformed JSON, wrong content types, deep nesting, arrays for objects, huge strings,
// null bytes and prototype-pollution keys. Each must be answered with a clear 4xx, never a 5xx,
// and store nothing. The routes come from the app itself: a new public route without a valid
// body below fails the first test, so it cannot go unfuzzed.

type PublicRoute = { method: string; url: string; bodyLimit: number };

/** A valid body per public route: each fuzz case breaks one thing in it. */
const validBodies: Record<string, Record<string, unknown>> = {
  'POST /api/public/estimate-requests': validEstimateRequest,
  'POST /api/public/chat/messages': { message: 'What are your hours?', sessionId: 'fuzz-session-0001' },
  'POST /api/public/chat/bookings': {
    sessionId: 'fuzz-session-0002',
    name: 'Morgan Ellis',
    phone: '843.555.0188',
    email: 'morgan.ellis@example.com',
    address: '9 Lighthouse Ln, Hilton Head Island, SC 29928',
    serviceType: 'repair',
    description: 'Outside unit is broken and making a grinding noise',
    preferredDate: '',
  },
  // The booking page (issue 21): a weekday two to four days ahead, which the technicians below work.
  'POST /api/public/booking': {
    serviceType: 'repair',
    zip: '29910',
    date: [2, 3, 4].map((days) => addDays(todayIn('America/New_York'), days)).find((date) => ![0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()))!,
    start: '08:00',
    end: '10:00',
    name: 'Morgan Ellis',
    phone: '843.555.0188',
    email: 'morgan.ellis@example.com',
    address: '9 Lighthouse Ln, Bluffton, SC',
    description: 'Outside unit is making a grinding noise',
  },
  // The site's maintenance plan sign-up (issue 22, decision 027-b).
  'POST /api/public/maintenance-plan-signups': {
    planId: 'advanced',
    billing: 'yearly',
    name: 'Morgan Ellis',
    email: 'morgan.ellis@example.com',
    phone: '843.555.0188',
    address: '9 Lighthouse Ln',
    zip: '29910',
    note: 'Gate code 1234',
  },
  // The SMS provider's webhook: form-encoded and signed (its valid request below carries the signature).
  [`POST ${inboundTextPath}`]: inboundSmsParams({ from: '+18435550188', to: '+18435550100', body: 'C' }),
  // A customer's "Pay by card": no body, the token in the address (its valid request needs a real
  // link and Stripe: tests/integration/stripe-webhook.test.ts). The Stripe webhook exists only when
  // Stripe is configured, and reads a signed raw body (tested there too).
  'POST /api/public/invoices/:token/checkout': {},
  // A customer's answer to a quote (decision 025-c): the token in the address (':token' opens no
  // quote, so a valid body meets the one 404; tests/integration/quotes.test.ts has real links).
  'POST /api/public/quotes/:token/approve': { optionId: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f', name: 'Morgan Ellis', accepted: true, signature: null },
  'POST /api/public/quotes/:token/decline': { reason: 'We went with the repair.' },
  // A customer's visit link (issue 21): ':token' opens no visit, so a valid body meets the one 404
  // (tests/integration/online-booking.test.ts has real links).
  'POST /api/public/visits/:token/reschedule': { date: '2030-01-08', start: '08:00', end: '10:00' },
  'POST /api/public/visits/:token/cancel': {},
  'POST /api/auth/login': { email: 'fuzz@example.com', password: 'not the password at all' },
  'POST /api/auth/logout': {},
  'POST /api/auth/set-password/check': { token: 'A'.repeat(43) },
  'POST /api/auth/set-password': { token: 'A'.repeat(43), password: 'tidal creek oyster heron' },
};

/**
 * Public routes whose form carries more than 16 KiB, each for a reason: a quote's approval may
 * carry the customer's drawn signature, a PNG data URL of at most 400,000 characters (the
 * technician app's rule).
 */
const largerBodyLimits: Record<string, number> = { 'POST /api/public/quotes/:token/approve': 512 * 1024 };

/** The submissions a repeat must not duplicate: their Idempotency-Key header is input too. */
const takesIdempotencyKey = new Set(['/api/public/estimate-requests', '/api/public/chat/bookings', '/api/public/booking', '/api/public/maintenance-plan-signups']);
const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const routes: PublicRoute[] = [];
/** An SMS API is configured (never called here), so the inbound-text webhook is live and fuzzed too. */
const smsAuthToken = 'fuzz-sms-auth-token';
let context: TestContext;
let nextAddress = 0;
/** Every request from its own address: the per-address rate limits must not hide what the parsers do. */
const freshAddress = () => `10.15.${Math.floor((nextAddress += 1) / 250)}.${(nextAddress % 250) + 1}`;

beforeAll(async () => {
  context = await createTestApp({
    env: { SMS_API_URL: 'http://127.0.0.1:9', SMS_ACCOUNT_SID: `AC${'0'.repeat(32)}`, SMS_AUTH_TOKEN: smsAuthToken, SMS_FROM: '+18435550100' },
    onRoute: (route: RouteOptions) => {
      for (const method of ([] as HTTPMethods[]).concat(route.method)) {
        // Public means no session: /api/admin and the technician app's /api/tech need one (tests/security/tech-roles.test.ts).
        if (stateChanging.has(method) && !route.url.startsWith('/api/admin') && !route.url.startsWith('/api/tech/')) {
          routes.push({ method, url: route.url, bodyLimit: route.bodyLimit ?? 64 * 1024 });
        }
      }
    },
  });
  // A real account, so the login cases meet an existing e-mail too.
  await createStaff(context.database, 'fuzz@example.com');
  // Technicians (Monday to Friday, every service type by default) for the booking page's valid
  // bodies: the cases that are taken (null in an optional field) book a window too.
  await context.database.query(`insert into technicians (name) select 'Fuzz Tech ' || n from generate_series(1, 4) as n`);
});
afterAll(() => context?.close());

/** Row counts of every table: nothing a refused request sends may be stored anywhere. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await context.database.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    counts[name] = (await context.database.query<{ count: number }>(`select count(*)::int as count from "${name}"`))[0]!.count;
  }
  return counts;
}

type FuzzCase = { name: string; payload: string | Buffer; contentType?: string; headers?: Record<string, string>; status?: number };

/** A JSON body as text (so keys such as __proto__ survive as sent). */
const json = (value: unknown): FuzzCase['payload'] => JSON.stringify(value);
const withField = (body: Record<string, unknown>, field: string, value: unknown) => json({ ...body, [field]: value });

function casesFor(route: PublicRoute): FuzzCase[] {
  const body = validBodies[`${route.method} ${route.url}`]!;
  const valid = JSON.stringify(body);
  const fields = Object.keys(body);
  const cases: FuzzCase[] = [
    { name: 'a body over the limit', payload: withField(body, 'padding', 'x'.repeat(route.bodyLimit + 1)), status: 413 },
    { name: 'a body far over the limit', payload: Buffer.alloc(route.bodyLimit * 4 + 10, 'a'), status: 413 },
    { name: 'malformed JSON (truncated)', payload: valid.slice(0, -1) },
    { name: 'malformed JSON (trailing garbage)', payload: `${valid}}}` },
    { name: 'malformed JSON (single quotes)', payload: valid.replaceAll('"', "'") },
    { name: 'an empty JSON body', payload: '' },
    { name: 'JSON null', payload: 'null' },
    { name: 'a JSON string', payload: '"hello"' },
    { name: 'a JSON number', payload: '12345' },
    { name: 'an array where the object belongs', payload: json([body]) },
    { name: 'an empty array', payload: '[]' },
    { name: 'invalid UTF-8 bytes', payload: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]) },
    { name: 'deeply nested objects', payload: `${'{"a":'.repeat(Math.floor(route.bodyLimit / 12))}1${'}'.repeat(Math.floor(route.bodyLimit / 12))}` },
    { name: 'deeply nested arrays', payload: `${'['.repeat(Math.floor(route.bodyLimit / 3))}${']'.repeat(Math.floor(route.bodyLimit / 3))}` },
    { name: 'a __proto__ key', payload: `{"__proto__":{"polluted":"yes","role":"admin"},${valid.slice(1)}`, status: 400 },
    { name: 'a nested __proto__ key', payload: `{"x":{"__proto__":{"polluted":"yes"}},${valid.slice(1)}`, status: 400 },
    { name: 'a constructor.prototype key', payload: `{"constructor":{"prototype":{"polluted":"yes"}},${valid.slice(1)}`, status: 400 },
    { name: 'JSON sent as text/plain', payload: valid, contentType: 'text/plain' },
    { name: 'a form-encoded body', payload: new URLSearchParams(Object.entries(body).map(([key, value]) => [key, String(value)])).toString(), contentType: 'application/x-www-form-urlencoded' },
    { name: 'a multipart body', payload: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n', contentType: 'multipart/form-data; boundary=b' },
    { name: 'an XML body', payload: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', contentType: 'application/xml' },
    { name: 'JSON in another charset', payload: Buffer.from(valid, 'utf16le'), contentType: 'application/json; charset=utf-16' },
    { name: 'a content type that is not a type', payload: valid, contentType: ';;;' },
    { name: 'a gzip-encoded body the server does not inflate', payload: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xab, 0xae, 5, 0]), headers: { 'content-encoding': 'gzip' } },
  ];
  if (takesIdempotencyKey.has(route.url)) {
    cases.push(
      { name: 'a huge Idempotency-Key', payload: valid, headers: { 'idempotency-key': 'k'.repeat(8000) } },
      { name: 'an Idempotency-Key with a path in it', payload: valid, headers: { 'idempotency-key': '../../etc/passwd\u0000' } },
    );
  }
  for (const field of fields) {
    cases.push(
      { name: `a huge string in ${field}`, payload: withField(body, field, 'x'.repeat(Math.floor(route.bodyLimit * 0.9))) },
      { name: `a null byte in ${field}`, payload: withField(body, field, `${String(body[field] || 'x')}\u0000'; drop table customers; --`) },
      { name: `only a null byte in ${field}`, payload: withField(body, field, '\u0000') },
      { name: `an object in ${field}`, payload: withField(body, field, { $ne: null, toString: 'x' }) },
      { name: `an array in ${field}`, payload: withField(body, field, [body[field], body[field]]) },
      { name: `a number in ${field}`, payload: withField(body, field, 1e308) },
      { name: `true in ${field}`, payload: withField(body, field, true) },
    );
  }
  return cases;
}

function send(route: PublicRoute, fuzz: FuzzCase): Promise<LightMyRequestResponse> {
  return context.app.inject({
    method: route.method as InjectOptions['method'],
    url: route.url,
    payload: fuzz.payload,
    headers: { 'content-type': fuzz.contentType ?? 'application/json', ...fuzz.headers },
    remoteAddress: freshAddress(),
  });
}

/** A clear 4xx: a JSON error body with a code and words a person can read. */
function expectClearRefusal(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.statusCode} ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  expect(response.statusCode, `${what}: rate limited, so the case was not tried`).not.toBe(429);
  expect(response.headers['content-type'], what).toMatch(/^application\/json/);
  const error = (response.json() as { error?: { code?: unknown; message?: unknown } }).error;
  expect(error?.code, what).toEqual(expect.any(String));
  expect(error?.message, what).toEqual(expect.any(String));
  expect((error?.message as string).length, what).toBeGreaterThan(0);
  // Nothing of the server's insides: no stack, no SQL, no file paths.
  expect(response.body, what).not.toMatch(/\bat .+\.(ts|js|mjs):\d+|node_modules|insert into|select .* from|syntax error at/i);
}

describe('public routes under fuzz', () => {
  it('knows every public state-changing route, and has a valid body for each (a new route must be added here)', () => {
    const found = routes.map((route) => `${route.method} ${route.url}`).sort();
    expect(found.length).toBeGreaterThanOrEqual(5);
    expect(found).toEqual(Object.keys(validBodies).sort());
  });

  it('sets a body limit on every public route well under the 64 KiB default, at most what its form needs', () => {
    for (const route of routes) expect(route.bodyLimit, `${route.method} ${route.url}`).toBeLessThanOrEqual(largerBodyLimits[`${route.method} ${route.url}`] ?? 16 * 1024);
  });

  it('answers every malformed, oversized or hostile body with a clear 4xx and stores nothing', async () => {
    const before = await rowCounts();
    let tried = 0;
    const problems: string[] = [];
    for (const route of routes) {
      for (const fuzz of casesFor(route)) {
        const response = await send(route, fuzz);
        const what = `${route.method} ${route.url} with ${fuzz.name}`;
        // Logout takes no body: it may ignore a well-formed one (204) but never fail on it.
        if (route.url === '/api/auth/logout' && response.statusCode === 204) continue;
        // A login of the right shape is an attempt like any other (401, recorded for the throttle).
        if (route.url === '/api/auth/login' && response.statusCode === 401) continue;
        try {
          expectClearRefusal(response, what);
          if (fuzz.status) expect(response.statusCode, what).toBe(fuzz.status);
        } catch (error) {
          problems.push((error as Error).message.split('\n')[0]!);
        }
        tried += 1;
      }
    }
    // Every problem at once, not only the first.
    expect(problems).toEqual([]);
    expect(tried).toBeGreaterThan(routes.length * 20);
    const after = await rowCounts();
    // Well-formed login attempts are recorded (the throttle), and on PostgreSQL the requests are
    // counted for the rate limits (rate_limit_counters, decision 028-a); nothing else changed.
    expect({ ...after, login_attempts: 0, rate_limit_counters: 0 }).toEqual({ ...before, login_attempts: 0, rate_limit_counters: 0 });
    expect(after.estimate_requests).toBe(before.estimate_requests);
    expect(after.customers).toBe(before.customers);
    expect(after.work_orders).toBe(before.work_orders);
    expect(after.outbound_emails).toBe(before.outbound_emails);
  });

  it('takes null in a field as that field left empty, or refuses it clearly; never a 5xx', async () => {
    // Optional fields (description, e-mail, preferred date) read null as empty, by design: such a
    // request may be accepted. Required ones must be refused with a clear 4xx.
    for (const route of routes) {
      const body = validBodies[`${route.method} ${route.url}`]!;
      for (const field of Object.keys(body)) {
        const response = await send(route, { name: `null in ${field}`, payload: withField(body, field, null) });
        const what = `${route.method} ${route.url} with null in ${field}`;
        if (response.statusCode < 300) continue;
        if (route.url === '/api/auth/login' && response.statusCode === 401) continue;
        expectClearRefusal(response, what);
      }
    }
  });

  it('refuses a NUL character anywhere in the input with a 400 naming the field', async () => {
    const response = await send(routes.find((route) => route.url === '/api/public/estimate-requests')!, {
      name: 'nul',
      payload: withField(validBodies['POST /api/public/estimate-requests']!, 'description', 'a\u0000b'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'description: Text must not contain NUL characters', details: [{ path: 'description', message: 'Text must not contain NUL characters' }] },
    });
  });

  it('never lets a __proto__ or constructor key pollute the server objects', async () => {
    for (const route of routes) {
      await send(route, { name: '__proto__', payload: '{"__proto__":{"polluted":"yes"}}' });
      await send(route, { name: 'constructor', payload: '{"constructor":{"prototype":{"polluted":"yes"}}}' });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('still takes a valid body on every route after the fuzzing (the cases were refused for what they broke)', async () => {
    for (const route of routes) {
      const body = validBodies[`${route.method} ${route.url}`]!;
      // The webhook's valid request is the provider's: form-encoded, with its signature.
      const signed = route.url === inboundTextPath
        ? signedInboundRequest({ authToken: smsAuthToken, url: `${context.config.company.siteUrl}${inboundTextPath}`, params: body as Record<string, string> })
        : undefined;
      const response = signed
        ? await send(route, { name: 'valid', payload: signed.body, contentType: signed.headers['content-type'], headers: { 'x-twilio-signature': signed.headers['x-twilio-signature'] } })
        : await send(route, { name: 'valid', payload: json(body) });
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBeLessThan(500);
      // ':token' is no customer link: the one refusal every bad link gets.
      if (route.url.startsWith('/api/public/invoices/:token/') || route.url.startsWith('/api/public/quotes/:token/') || route.url.startsWith('/api/public/visits/:token/')) {
        expect(response.statusCode, response.body).toBe(404);
        continue;
      }
      if (route.url.startsWith('/api/public/')) expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBeLessThan(300);
    }
  });
});
