/**
 * Login throttling rules (issue 15, decision 018-c). Pure: the repository locks the rows and writes
 * what these functions decide, so every instance and every parallel request sees one count.
 *
 * An attempt is counted as a failure when it starts (before the password is checked) and refunded
 * when it succeeds. Each scope allows some failures, then each further failure doubles the wait
 * before the next attempt is checked, up to a ceiling. Failures are forgotten after a quiet period.
 * - pair (account, address): the main guard; a stranger's failures stay on the stranger's address.
 * - address (any account): one address trying many accounts.
 * - account (any address): many addresses guessing one account; looser, and an address that signed
 *   in to that account recently is exempt from it and from the address scope, so neither can be
 *   used to keep the real user out.
 * The e-mail is the normalised text typed, whether or not an account has it: unknown e-mails are
 * throttled exactly like known ones.
 */
export const throttleScopes = ['account', 'address', 'pair'] as const;
export type ThrottleScope = (typeof throttleScopes)[number];

export type ThrottleRule = { freeFailures: number; maxDelaySeconds: number };

export const loginThrottlePolicy = {
  forgetAfterMinutes: 60,
  trustedAddressDays: 30,
  rules: {
    pair: { freeFailures: 5, maxDelaySeconds: 15 * 60 },
    address: { freeFailures: 20, maxDelaySeconds: 15 * 60 },
    account: { freeFailures: 50, maxDelaySeconds: 5 * 60 },
  } satisfies Record<ThrottleScope, ThrottleRule>,
} as const;

export type ThrottleState = {
  failures: number;
  lastFailureAt: Date | null;
  nextAttemptAt: Date | null;
  lastSuccessAt: Date | null;
};
export type ThrottleStates = Record<ThrottleScope, ThrottleState>;
export type ThrottleWrites = Partial<Record<ThrottleScope, Partial<ThrottleState>>>;

const minuteMs = 60_000;

/** The wait (ms) after `failures` failures: none up to the free ones, then 1 s, 2 s, 4 s ... to the ceiling. */
export function delayAfter(failures: number, rule: ThrottleRule): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(2 ** (failures - rule.freeFailures), rule.maxDelaySeconds) * 1000;
}

function currentFailures(state: ThrottleState, now: Date): number {
  const isForgotten =
    !state.lastFailureAt || now.getTime() - state.lastFailureAt.getTime() >= loginThrottlePolicy.forgetAfterMinutes * minuteMs;
  return isForgotten ? 0 : state.failures;
}

function isTrustedAddress(pair: ThrottleState, now: Date): boolean {
  return Boolean(pair.lastSuccessAt) && now.getTime() - pair.lastSuccessAt!.getTime() < loginThrottlePolicy.trustedAddressDays * 24 * 60 * minuteMs;
}

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Whether an attempt may be checked now; if so, it is counted (as a failure until it succeeds). */
export function decideAttempt(states: ThrottleStates, now: Date): { result: AttemptDecision; writes: ThrottleWrites } {
  const applicable: ThrottleScope[] = isTrustedAddress(states.pair, now) ? ['pair'] : [...throttleScopes];
  const waitMs = Math.max(
    0,
    ...applicable.map((scope) => {
      const next = states[scope].nextAttemptAt;
      return currentFailures(states[scope], now) > 0 && next ? next.getTime() - now.getTime() : 0;
    }),
  );
  if (waitMs > 0) return { result: { allowed: false, retryAfterMs: waitMs }, writes: {} };

  const writes: ThrottleWrites = {};
  for (const scope of throttleScopes) {
    const failures = currentFailures(states[scope], now) + 1;
    const delay = delayAfter(failures, loginThrottlePolicy.rules[scope]);
    writes[scope] = { failures, lastFailureAt: now, nextAttemptAt: delay > 0 ? new Date(now.getTime() + delay) : null };
  }
  return { result: { allowed: true }, writes };
}

/**
 * A counted attempt succeeded: the pair's failures are cleared and the address marked as one this
 * account signs in from; the address and account scopes get back the one failure counted for it.
 */
export function settleSuccess(states: ThrottleStates, now: Date): ThrottleWrites {
  const refund = (scope: Exclude<ThrottleScope, 'pair'>): Partial<ThrottleState> => {
    const failures = Math.max(states[scope].failures - 1, 0);
    return failures < loginThrottlePolicy.rules[scope].freeFailures ? { failures, nextAttemptAt: null } : { failures };
  };
  return {
    pair: { failures: 0, nextAttemptAt: null, lastSuccessAt: now },
    address: refund('address'),
    account: refund('account'),
  };
}

/** Whole seconds to announce for a wait (Retry-After and the message), at least 1. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
