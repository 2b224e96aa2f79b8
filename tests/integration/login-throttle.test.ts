import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { loginMessages } from '#shared/auth.ts';
import { createStaff, createTestApp, sessionCookieFrom, testPassword, type TestContext } from '#tests/support/test-app.ts';

// Issue 15, must fix 4: login throttling. The app's clock is this test's: time moves forward by
// assignment, never by sleeping.
let context: TestContext;
let clock = new Date();
const advance = (milliseconds: number) => (clock = new Date(clock.getTime() + milliseconds));

beforeAll(async () => {
  // The per-minute request limit of the login route is a separate, coarser guard: out of the way here.
  context = await createTestApp({ now: () => clock, env: { LOGIN_RATE_LIMIT: '1000' } });
  await createStaff(context.database, 'owner@example.com');
  await createStaff(context.database, 'tech@example.com');
});
afterAll(() => context.close());
beforeEach(async () => {
  await context.database.query('delete from login_attempts');
  await context.database.query('delete from login_throttles');
  clock = new Date();
});

function login(email: string, password: string, remoteAddress: string) {
  return context.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
}

const throttledMessage = /^Too many attempts\. Try again in \d+ seconds?\.$/;

function expectThrottled(response: LightMyRequestResponse, seconds: number) {
  expect(response.statusCode).toBe(429);
  expect(response.headers['retry-after']).toBe(String(seconds));
  expect(response.json().error).toMatchObject({ code: 'RATE_LIMITED', message: loginMessages.throttled(seconds) });
  expect(response.json().error.message).toMatch(throttledMessage);
  expect(sessionCookieFrom(response)).toBeUndefined();
}

describe('parallel wrong logins pass the limit', () => {
  it('30 parallel wrong passwords for one account from one address get at most 5 password checks; the rest wait', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => login('owner@example.com', `wrong guess ${attempt}`, '203.0.113.10')),
    );
    const checked = responses.filter((response) => response.statusCode === 401);
    const refused = responses.filter((response) => response.statusCode === 429);
    // Only a verified password can answer "wrong password": at most the policy's 5 were verified.
    expect(checked).toHaveLength(5);
    expect(refused).toHaveLength(25);
    for (const response of refused) expectThrottled(response, 1);
    const verified = await context.database.query('select 1 from login_attempts');
    expect(verified).toHaveLength(5);
  });

  it('refuses the right password during the wait without checking it, and accepts it once the wait has passed', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login('owner@example.com', `wrong ${attempt}`, '203.0.113.11')).statusCode).toBe(401);
    }
    expectThrottled(await login('owner@example.com', testPassword, '203.0.113.11'), 1);
    advance(999);
    expectThrottled(await login('owner@example.com', testPassword, '203.0.113.11'), 1);
    advance(1);
    const signedIn = await login('owner@example.com', testPassword, '203.0.113.11');
    expect(signedIn.statusCode).toBe(200);
    expect(sessionCookieFrom(signedIn)).toBeDefined();
    // A success clears that account's failures from that address: the next typo is answered at once.
    expect((await login('owner@example.com', 'typo', '203.0.113.11')).statusCode).toBe(401);
  });

  it('doubles the wait with each further failure, up to 15 minutes', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) await login('owner@example.com', `wrong ${attempt}`, '203.0.113.12');
    const waits: number[] = [];
    for (let failure = 6; failure <= 16; failure += 1) {
      const refused = await login('owner@example.com', 'still wrong', '203.0.113.12');
      expect(refused.statusCode).toBe(429);
      const seconds = Number(refused.headers['retry-after']);
      waits.push(seconds);
      advance(seconds * 1000);
      expect((await login('owner@example.com', 'still wrong', '203.0.113.12')).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    expectThrottled(await login('owner@example.com', 'still wrong', '203.0.113.12'), 900);
  });
});

describe('a stranger can lock a staff account', () => {
  it("failures from a stranger's address do not stop the real user signing in from another address", async () => {
    for (let attempt = 0; attempt < 30; attempt += 1) {
      await login('tech@example.com', `guess ${attempt}`, '198.51.100.66');
      advance(1000);
    }
    expect((await login('tech@example.com', testPassword, '198.51.100.66')).statusCode).toBe(429);
    const realUser = await login('tech@example.com', testPassword, '192.0.2.20');
    expect(realUser.statusCode).toBe(200);
    expect(sessionCookieFrom(realUser)).toBeDefined();
  });
});

describe('ceilings beyond the (account, address) pair', () => {
  it('slows one address trying many accounts after 20 failures, and only that address', async () => {
    for (let account = 0; account < 20; account += 1) {
      expect((await login(`guess${account}@example.com`, 'guess', '203.0.113.30')).statusCode).toBe(401);
    }
    // A 21st account from that address waits, whether it exists or not.
    expectThrottled(await login('owner@example.com', testPassword, '203.0.113.30'), 1);
    expectThrottled(await login('guess99@example.com', 'guess', '203.0.113.30'), 1);
    expect((await login('owner@example.com', testPassword, '203.0.113.31')).statusCode).toBe(200);
  });

  it('slows many addresses guessing one account after 50 failures, except addresses that account signs in from', async () => {
    expect((await login('tech@example.com', testPassword, '192.0.2.50')).statusCode).toBe(200);
    for (let address = 0; address < 50; address += 1) {
      expect((await login('tech@example.com', 'guess', `10.9.${Math.floor(address / 200)}.${address % 200}`)).statusCode).toBe(401);
    }
    expectThrottled(await login('tech@example.com', testPassword, '10.9.9.9'), 1);
    // The address the real user signed in from before is not held back by strangers elsewhere.
    expect((await login('tech@example.com', testPassword, '192.0.2.50')).statusCode).toBe(200);
  });

  it('forgets failures after an hour without any', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) await login('owner@example.com', `wrong ${attempt}`, '203.0.113.40');
    advance(1000);
    expect((await login('owner@example.com', 'wrong again', '203.0.113.40')).statusCode).toBe(401);
    expectThrottled(await login('owner@example.com', 'wrong again', '203.0.113.40'), 2);
    advance(60 * 60_000);
    // Five free attempts again: the count started over.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login('owner@example.com', `wrong ${attempt}`, '203.0.113.40')).statusCode).toBe(401);
    }
  });

  it('housekeeping deletes throttle rows with nothing left to count or trust', async () => {
    await login('owner@example.com', 'wrong', '203.0.113.50');
    expect((await login('owner@example.com', testPassword, '203.0.113.51')).statusCode).toBe(200);
    advance(61 * 60_000);
    await context.app.authService.purgeExpired();
    const left = await context.database.query<{ scope: string; ip_address: string }>('select scope, ip_address from login_throttles');
    // Only the pair that signed in stays (its address is trusted for 30 days).
    expect(left).toEqual([{ scope: 'pair', ip_address: '203.0.113.51' }]);
    advance(30 * 24 * 60 * 60_000);
    await context.app.authService.purgeExpired();
    expect(await context.database.query('select 1 from login_throttles')).toHaveLength(0);
  });
});
