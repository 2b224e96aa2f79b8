import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, sessionCookieFrom, testPassword, type TestContext } from '#tests/support/test-app.ts';

// Attacker suite, issue 15: guessing staff passwords through POST /api/auth/login. The app's clock is
// the test's, so the attacker "waits" by moving it forward.
let context: TestContext;
let clock = new Date();
const advance = (milliseconds: number) => (clock = new Date(clock.getTime() + milliseconds));
const staffEmail = 'dispatch@example.com';
const unknownEmail = 'no-such-person@example.com';

beforeAll(async () => {
  context = await createTestApp({ now: () => clock, env: { LOGIN_RATE_LIMIT: '10000' } });
  await createStaff(context.database, staffEmail);
});
afterAll(() => context.close());
beforeEach(async () => {
  await context.database.query('delete from login_attempts');
  await context.database.query('delete from login_throttles');
  await context.database.query('delete from sessions');
  clock = new Date();
});

function login(email: string, password: string, remoteAddress: string) {
  return context.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
}

/** What an attacker can observe of an answer: status, Retry-After, body. */
async function observe(email: string, password: string, remoteAddress: string) {
  const response = await login(email, password, remoteAddress);
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.json() as unknown };
}

describe('parallel guessing', () => {
  it.each([
    ['a staff account', staffEmail],
    ['an unknown e-mail', unknownEmail],
  ])('gets 5 password checks out of 40 parallel guesses at %s', async (_, email) => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, guess) => observe(email, `guess-${guess}`, '198.51.100.7')));
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(35);
    expect(answers.filter((answer) => answer.status !== 401 && answer.status !== 429)).toEqual([]);
    expect(await context.database.query('select 1 from login_attempts')).toHaveLength(5);
  });

  it('cannot get around the count by changing the case or padding of the e-mail', async () => {
    const variants = [staffEmail.toUpperCase(), ` ${staffEmail}`, 'Dispatch@Example.COM', `${staffEmail} `, 'dispatch@EXAMPLE.com', staffEmail];
    const answers = await Promise.all(variants.map((email) => observe(email, 'guess', '198.51.100.8')));
    expect(answers.map((answer) => answer.status).sort()).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('gets no session with the right password while throttled, even sent many times in parallel', async () => {
    for (let guess = 0; guess < 5; guess += 1) await login(staffEmail, `guess-${guess}`, '198.51.100.9');
    const answers = await Promise.all(Array.from({ length: 10 }, () => login(staffEmail, testPassword, '198.51.100.9')));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(429);
      expect(sessionCookieFrom(answer)).toBeUndefined();
    }
    expect(await context.database.query('select 1 from sessions')).toHaveLength(0);
  });

  it('is held to about one guess per 15 minutes per account and address once past the first guesses', async () => {
    let checked = 0;
    const sixHours = 6 * 60 * 60_000;
    const start = clock.getTime();
    // The attacker retries as soon as each wait ends, for six hours.
    while (clock.getTime() - start < sixHours) {
      const answer = await login(staffEmail, 'guess', '198.51.100.10');
      if (answer.statusCode === 401) checked += 1;
      else advance(Number(answer.headers['retry-after']) * 1000);
    }
    // 5 free, 10 while the wait doubles to 15 minutes (about 17 minutes), then 4 an hour.
    expect(checked).toBeLessThanOrEqual(5 + 10 + 6 * 4 + 1);
  });
});

describe('locking a staff member out', () => {
  it('a stranger guessing from one address for hours does not keep the staff member out from theirs', async () => {
    for (let round = 0; round < 60; round += 1) {
      const answer = await login(staffEmail, `guess-${round}`, '198.51.100.20');
      if (answer.statusCode === 429) advance(Number(answer.headers['retry-after']) * 1000);
    }
    const staffMember = await login(staffEmail, testPassword, '192.0.2.80');
    expect(staffMember.statusCode).toBe(200);
  });

  it('a botnet past the per-account ceiling does not keep out a staff member at an address they signed in from', async () => {
    expect((await login(staffEmail, testPassword, '192.0.2.81')).statusCode).toBe(200);
    for (let bot = 0; bot < 80; bot += 1) await login(staffEmail, 'guess', `10.66.${Math.floor(bot / 100)}.${bot % 100}`);
    expect((await login(staffEmail, 'guess', '10.66.9.9')).statusCode).toBe(429);
    expect((await login(staffEmail, testPassword, '192.0.2.81')).statusCode).toBe(200);
  });
});

describe('enumerating staff e-mails', () => {
  it('answers a staff e-mail and an unknown one identically, attempt after attempt, through the throttle', async () => {
    const sequence = async (email: string, address: string) => {
      const seen = [];
      for (let attempt = 0; attempt < 12; attempt += 1) {
        seen.push(await observe(email, 'guess', address));
        if (attempt % 3 === 2) advance(1500);
      }
      return seen;
    };
    const start = clock;
    const known = await sequence(staffEmail, '198.51.100.30');
    clock = start;
    const unknown = await sequence(unknownEmail, '198.51.100.31');
    expect(unknown).toEqual(known);
    expect(new Set(known.map((answer) => answer.status))).toEqual(new Set([401, 429]));
  });

  it('takes the same time class for a staff e-mail and an unknown one (the password is checked either way)', async () => {
    const durations: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let round = 0; round < 6; round += 1) {
      for (const [kind, email] of [['known', staffEmail], ['unknown', unknownEmail]] as const) {
        const started = performance.now();
        expect((await login(email, 'guess', `198.51.101.${round}`)).statusCode).toBe(401);
        durations[kind].push(performance.now() - started);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const ratio = median(durations.unknown) / median(durations.known);
    // A skipped hash check would be an order of magnitude faster; scheduling noise is not.
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });
});

describe('malformed and oversized logins', () => {
  it('are refused without a 5xx and without counting or storing anything', async () => {
    const bodies: unknown[] = [
      {},
      { email: staffEmail },
      { email: 'not an e-mail', password: 'x' },
      { email: ['a@example.com'], password: 'x' },
      { email: staffEmail, password: { $ne: '' } },
      { email: `${'a'.repeat(300)}@example.com`, password: 'x' },
      { email: staffEmail, password: 'x'.repeat(5000) },
    ];
    for (const payload of bodies) {
      const response = await context.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, remoteAddress: '198.51.100.40' });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    const raw = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
      remoteAddress: '198.51.100.40',
    });
    expect(raw.statusCode).toBe(400);
    expect(await context.database.query('select 1 from login_throttles')).toHaveLength(0);
    expect(await context.database.query('select 1 from login_attempts')).toHaveLength(0);
  });
});
