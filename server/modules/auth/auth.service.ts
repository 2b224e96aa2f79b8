import { createHash, randomBytes } from 'node:crypto';
import { loginMessages, type PasswordContext, type StaffUser } from '#shared/auth.ts';
import { passwordProblem } from '#shared/password-policy.ts';
import type { StaffRole } from '#shared/enums.ts';
import { AppError } from '#server/errors.ts';
import type { AuthRepository } from './auth.repository.ts';
import { decideAttempt, loginThrottlePolicy, retryAfterSeconds, settleSuccess } from './login-throttle.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password.ts';

/** lastSeenAt is written at most this often, so reads do not each cost a write. */
const touchIntervalMs = 60_000;

export type SessionPolicy = { idleMinutes: number; absoluteHours: number };
export type AuthenticatedSession = { sessionId: string; user: StaffUser };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createAuthService(repository: AuthRepository, policy: SessionPolicy, now: () => Date = () => new Date()) {
  const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', loginMessages.invalidCredentials);

  return {
    /**
     * Checks the password and opens a new session. The attempt is counted (in the database, under a
     * row lock) before the password is checked, so parallel attempts cannot pass the throttle; a
     * throttled attempt is refused with 429 and the wait, without checking the password. Unknown
     * accounts are counted, checked (against a decoy hash) and answered exactly like known ones.
     */
    async login(input: {
      email: string;
      password: string;
      ipAddress: string;
      userAgent: string | undefined;
      previousToken: string | undefined;
    }): Promise<{ token: string; user: StaffUser; expiresAt: Date }> {
      const email = input.email.trim().toLowerCase();
      const throttleKey = { email, ipAddress: input.ipAddress };
      const startedAt = now();
      const attempt = await repository.withLockedThrottles(throttleKey, startedAt, (states) => decideAttempt(states, startedAt));
      if (!attempt.allowed) {
        const seconds = retryAfterSeconds(attempt.retryAfterMs);
        throw new AppError('RATE_LIMITED', loginMessages.throttled(seconds), undefined, { retryAfterSeconds: seconds });
      }
      const user = await repository.findStaffByEmail(email);
      // Verify even for unknown accounts: the answer takes the same time either way.
      const isPasswordValid = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), input.password);
      // A technician account signs in only while its technician is active (decision 022-a, "Later"),
      // refused like a deactivated account: the same answer as a wrong password.
      const succeeded = Boolean(user?.active) && isPasswordValid && (await repository.isLinkedTechnicianActive(user!.technicianId));
      await repository.recordLoginAttempt({ email, ipAddress: input.ipAddress, succeeded });
      if (!succeeded || !user) throw invalidCredentials();
      const succeededAt = now();
      await repository.withLockedThrottles(throttleKey, succeededAt, (states) => ({ result: undefined, writes: settleSuccess(states, succeededAt) }));
      await repository.recordSignIn(user.id, now());

      // Rotation: whatever session the browser held before is ended; a new token is issued.
      if (input.previousToken) await repository.deleteSessionByTokenHash(hashToken(input.previousToken));
      const token = randomBytes(32).toString('base64url');
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + policy.absoluteHours * 3_600_000);
      await repository.insertSession({
        tokenHash: hashToken(token),
        staffUserId: user.id,
        createdAt,
        lastSeenAt: createdAt,
        expiresAt,
        userAgent: input.userAgent?.slice(0, 512),
        ipAddress: input.ipAddress,
      });
      return { token, user: { id: user.id, email: user.email, name: user.name, role: user.role, technicianId: user.technicianId }, expiresAt };
    },

    /** The session behind a cookie token, or undefined when it is unknown, idle too long or expired. */
    async authenticate(token: string | undefined): Promise<AuthenticatedSession | undefined> {
      if (!token || token.length > 128) return undefined;
      const current = now();
      const session = await repository.findLiveSession(hashToken(token), current);
      if (!session) return undefined;
      const idleMs = current.getTime() - session.lastSeenAt.getTime();
      if (idleMs > policy.idleMinutes * 60_000) {
        await repository.deleteSession(session.sessionId);
        return undefined;
      }
      if (idleMs > touchIntervalMs) await repository.touchSession(session.sessionId, current);
      return { sessionId: session.sessionId, user: session.user };
    },

    /**
     * Whether a cookie token still names a live session, without counting as activity: a live-update
     * stream re-checks its session with this, and an open stream must not keep a session alive.
     */
    async isSessionLive(token: string | undefined): Promise<boolean> {
      if (!token || token.length > 128) return false;
      const current = now();
      const session = await repository.findLiveSession(hashToken(token), current);
      return Boolean(session) && current.getTime() - session!.lastSeenAt.getTime() <= policy.idleMinutes * 60_000;
    },

    async logout(token: string | undefined): Promise<void> {
      if (token && token.length <= 128) await repository.deleteSessionByTokenHash(hashToken(token));
    },

    /** Housekeeping: expired sessions and old login attempts. */
    async purgeExpired(): Promise<void> {
      const current = now();
      await repository.deleteExpiredSessions(current);
      await repository.deleteLoginAttemptsBefore(new Date(current.getTime() - 24 * 3_600_000));
      await repository.deleteStaleThrottles(
        new Date(current.getTime() - loginThrottlePolicy.forgetAfterMinutes * 60_000),
        new Date(current.getTime() - loginThrottlePolicy.trustedAddressDays * 24 * 3_600_000),
      );
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Throws VALIDATION_FAILED with the policy's message (shared/password-policy.ts) for a password it refuses. */
export function assertAcceptablePassword(password: string, context: PasswordContext, field = 'password'): void {
  const problem = passwordProblem(password, context);
  if (problem) throw new AppError('VALIDATION_FAILED', problem, [{ path: field, message: problem }]);
}

/**
 * Creating a staff user outside the settings screen: scripts/create-admin.ts and the start-up admin.
 * The same password policy as everywhere (the company name comes from the caller's configuration).
 */
export function createStaffService(repository: AuthRepository, options: { companyName?: string } = {}) {
  return {
    async createStaffUser(input: { email: string; name: string; password: string; role?: StaffRole; technicianId?: string | null }): Promise<StaffUser> {
      const email = input.email.trim().toLowerCase();
      assertAcceptablePassword(input.password, { email, name: input.name, companyName: options.companyName });
      if (await repository.findStaffByEmail(email)) {
        throw new AppError('CONFLICT', `A staff user with the email ${email} already exists.`);
      }
      const row = await repository.insertStaff({
        email,
        name: input.name.trim(),
        role: input.role ?? 'admin',
        technicianId: input.role === 'technician' ? (input.technicianId ?? null) : null,
        passwordHash: await hashPassword(input.password),
      });
      return { id: row.id, email: row.email, name: row.name, role: row.role, technicianId: row.technicianId };
    },

    /**
     * Demo data (issue 19): a technician sign-in for each active technician without one,
     * `firstname.tech@domain` with a generated password, which the caller prints once.
     */
    async ensureTechnicianAccounts(domain: string): Promise<{ created: StaffUser; generatedPassword: string }[]> {
      const made: { created: StaffUser; generatedPassword: string }[] = [];
      for (const technician of await repository.techniciansWithoutAccount()) {
        const words = technician.name.toLowerCase().normalize('NFKD').replace(/[^a-z ]/g, '').split(/\s+/).filter(Boolean);
        const candidates = [`${words[0] ?? 'technician'}.tech@${domain}`, `${words.join('.') || 'technician'}.tech@${domain}`];
        const email = (await Promise.all(candidates.map(async (candidate) => ((await repository.findStaffByEmail(candidate)) ? undefined : candidate)))).find(Boolean);
        if (!email) continue;
        const generatedPassword = randomBytes(18).toString('base64url');
        const created = await this.createStaffUser({ email, name: technician.name, password: generatedPassword, role: 'technician', technicianId: technician.id });
        made.push({ created, generatedPassword });
      }
      return made;
    },

    /**
     * Start-up rule: the configured admin exists (created when missing; an existing account keeps the
     * password staff may have changed since). With no admin configured and no staff at all, one is
     * created with a generated password, which the caller prints once.
     */
    async ensureAdmin(
      configured: { email: string; password: string } | undefined,
      fallbackEmail: string,
    ): Promise<{ created: StaffUser; generatedPassword?: string } | undefined> {
      if (configured) {
        if (await repository.findStaffByEmail(configured.email)) return undefined;
        return { created: await this.createStaffUser({ ...configured, name: 'Administrator' }) };
      }
      if ((await repository.countStaff()) > 0) return undefined;
      const generatedPassword = randomBytes(18).toString('base64url');
      const created = await this.createStaffUser({ email: fallbackEmail, name: 'Administrator', password: generatedPassword });
      return { created, generatedPassword };
    },
  };
}
