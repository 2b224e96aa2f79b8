import { describe, expect, it } from 'vitest';
import { decideAttempt, delayAfter, loginThrottlePolicy, retryAfterSeconds, settleSuccess, type ThrottleStates } from '#server/modules/auth/login-throttle.ts';

const now = new Date('2026-03-02T15:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const fresh = { failures: 0, lastFailureAt: null, nextAttemptAt: null, lastSuccessAt: null };
const states = (overrides: Partial<{ [K in keyof ThrottleStates]: Partial<ThrottleStates[K]> }> = {}): ThrottleStates => ({
  pair: { ...fresh, ...overrides.pair },
  address: { ...fresh, ...overrides.address },
  account: { ...fresh, ...overrides.account },
});

describe('login throttle rules', () => {
  it('waits nothing for the free failures, then 1 s, 2 s, 4 s ... up to the ceiling', () => {
    const rule = loginThrottlePolicy.rules.pair;
    expect([4, 5, 6, 7, 14, 15, 40].map((failures) => delayAfter(failures, rule) / 1000)).toEqual([0, 1, 2, 4, 512, 900, 900]);
    expect(delayAfter(60, loginThrottlePolicy.rules.account) / 1000).toBe(300);
  });

  it('counts an allowed attempt in every scope before the password is checked', () => {
    const { result, writes } = decideAttempt(states({ pair: { failures: 4, lastFailureAt: minutesAgo(1) } }), now);
    expect(result).toEqual({ allowed: true });
    expect(writes.pair).toEqual({ failures: 5, lastFailureAt: now, nextAttemptAt: new Date(now.getTime() + 1000) });
    expect(writes.address).toMatchObject({ failures: 1, nextAttemptAt: null });
    expect(writes.account).toMatchObject({ failures: 1, nextAttemptAt: null });
  });

  it('refuses without counting while any scope waits, and says how long', () => {
    const waiting = { failures: 25, lastFailureAt: now, nextAttemptAt: new Date(now.getTime() + 2500) };
    expect(decideAttempt(states({ address: waiting }), now)).toEqual({ result: { allowed: false, retryAfterMs: 2500 }, writes: {} });
    expect(retryAfterSeconds(2500)).toBe(3);
    expect(retryAfterSeconds(1)).toBe(1);
  });

  it('forgets failures an hour after the last one', () => {
    const old = { failures: 9, lastFailureAt: minutesAgo(60), nextAttemptAt: minutesAgo(50) };
    expect(decideAttempt(states({ pair: old }), now).writes.pair).toMatchObject({ failures: 1 });
  });

  it('exempts an address the account signed in from within 30 days from the address and account waits only', () => {
    const waiting = { failures: 60, lastFailureAt: now, nextAttemptAt: new Date(now.getTime() + 60_000) };
    const trusted = { lastSuccessAt: minutesAgo(60 * 24 * 29) };
    expect(decideAttempt(states({ pair: trusted, account: waiting, address: waiting }), now).result).toEqual({ allowed: true });
    const expired = { lastSuccessAt: minutesAgo(60 * 24 * 30) };
    expect(decideAttempt(states({ pair: expired, account: waiting }), now).result).toEqual({ allowed: false, retryAfterMs: 60_000 });
    expect(decideAttempt(states({ pair: { ...trusted, ...waiting } }), now).result).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });

  it('a success clears the pair and refunds the one failure counted in the other scopes', () => {
    const writes = settleSuccess(states({ pair: { failures: 3 }, address: { failures: 21, nextAttemptAt: now }, account: { failures: 1 } }), now);
    expect(writes).toEqual({
      pair: { failures: 0, nextAttemptAt: null, lastSuccessAt: now },
      address: { failures: 20 },
      account: { failures: 0, nextAttemptAt: null },
    });
  });
});
