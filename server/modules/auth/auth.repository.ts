import { and, asc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { withTransaction, type Database } from '#server/db/client.ts';
import { loginAttempts, loginThrottles, sessions, staffUsers, technicians } from '#server/db/schema/index.ts';
import { throttleScopes, type ThrottleScope, type ThrottleStates, type ThrottleWrites } from './login-throttle.ts';

export type StaffUserRow = typeof staffUsers.$inferSelect;

export function createAuthRepository(db: Database) {
  const findLiveSessionStatement = db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      user: { id: staffUsers.id, email: staffUsers.email, name: staffUsers.name, role: staffUsers.role, technicianId: staffUsers.technicianId },
    })
    .from(sessions)
    .innerJoin(staffUsers, eq(staffUsers.id, sessions.staffUserId))
    // A technician account works only while its technician is active (decision 022-a, "Later"):
    // deactivating the technician deletes the sessions too; this is the second lock.
    .leftJoin(technicians, eq(technicians.id, staffUsers.technicianId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        eq(staffUsers.active, true),
        or(isNull(staffUsers.technicianId), eq(technicians.active, true)),
      ),
    )
    .limit(1)
    .prepare('find_live_session');

  return {
    async findStaffByEmail(email: string): Promise<StaffUserRow | undefined> {
      const rows = await db.select().from(staffUsers).where(eq(staffUsers.email, email)).limit(1);
      return rows[0];
    },

    /** Whether the technician an account is linked to is active (an unlinked account: true). */
    async isLinkedTechnicianActive(technicianId: string | null): Promise<boolean> {
      if (!technicianId) return true;
      const rows = await db.select({ active: technicians.active }).from(technicians).where(eq(technicians.id, technicianId)).limit(1);
      return rows[0]?.active ?? true;
    },

    /** Ends every session of the accounts linked to a technician (the technician was deactivated); the ended sessions' ids. */
    async deleteSessionsOfTechnician(technicianId: string, executor: Database = db): Promise<string[]> {
      const rows = await executor
        .delete(sessions)
        .where(inArray(sessions.staffUserId, db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.technicianId, technicianId))))
        .returning({ id: sessions.id });
      return rows.map((row) => row.id);
    },

    /** Active technicians no staff account is linked to (the demo's technician sign-ins, issue 19). */
    async techniciansWithoutAccount(): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: technicians.id, name: technicians.name })
        .from(technicians)
        .where(and(eq(technicians.active, true), sql`not exists (select 1 from ${staffUsers} where ${staffUsers.technicianId} = ${technicians.id})`))
        .orderBy(asc(technicians.name));
    },

    async countStaff(): Promise<number> {
      const rows = await db.select({ count: sql<number>`count(*)::int` }).from(staffUsers);
      return rows[0]?.count ?? 0;
    },

    async insertStaff(values: typeof staffUsers.$inferInsert): Promise<StaffUserRow> {
      const rows = await db.insert(staffUsers).values(values).returning();
      return rows[0]!;
    },

    async findStaffById(id: string): Promise<StaffUserRow | undefined> {
      const rows = await db.select().from(staffUsers).where(eq(staffUsers.id, id)).limit(1);
      return rows[0];
    },

    async updateStaffPassword(id: string, passwordHash: string, executor: Database = db): Promise<void> {
      await executor.update(staffUsers).set({ passwordHash, updatedAt: new Date() }).where(eq(staffUsers.id, id));
    },

    async recordSignIn(id: string, at: Date): Promise<void> {
      await db.update(staffUsers).set({ lastSignInAt: at }).where(eq(staffUsers.id, id));
    },

    /** Ends every session of a user (or all but one); returns the ended sessions' ids. */
    async deleteSessionsOfUser(staffUserId: string, options: { except?: string; executor?: Database } = {}): Promise<string[]> {
      const rows = await (options.executor ?? db)
        .delete(sessions)
        .where(and(eq(sessions.staffUserId, staffUserId), options.except ? ne(sessions.id, options.except) : undefined))
        .returning({ id: sessions.id });
      return rows.map((row) => row.id);
    },

    async insertSession(values: typeof sessions.$inferInsert): Promise<void> {
      await db.insert(sessions).values(values);
    },

    /** Runs on every staff request: a prepared statement, built once. */
    async findLiveSession(tokenHash: string, now: Date) {
      const rows = await findLiveSessionStatement.execute({ tokenHash, now: now.toISOString() });
      return rows[0];
    },

    async touchSession(sessionId: string, now: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
    },

    async deleteSessionByTokenHash(tokenHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },

    async deleteSession(sessionId: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.id, sessionId));
    },

    async deleteExpiredSessions(now: Date): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, now));
    },

    async recordLoginAttempt(values: { email: string; ipAddress: string; succeeded: boolean }): Promise<void> {
      await db.insert(loginAttempts).values(values);
    },

    /**
     * Runs `decide` on the throttle rows of one login (its pair, address and account), created if
     * missing and locked for the transaction, then writes what it decided. Rows are always locked
     * in the same order (scope, then key), so concurrent logins cannot deadlock.
     */
    async withLockedThrottles<T>(
      login: { email: string; ipAddress: string },
      now: Date,
      decide: (states: ThrottleStates) => { result: T; writes: ThrottleWrites },
    ): Promise<T> {
      const keyOf = (scope: ThrottleScope) => ({
        scope,
        email: scope === 'address' ? '' : login.email,
        ipAddress: scope === 'account' ? '' : login.ipAddress,
      });
      const matches = (scope: ThrottleScope) => {
        const key = keyOf(scope);
        return and(eq(loginThrottles.scope, scope), eq(loginThrottles.email, key.email), eq(loginThrottles.ipAddress, key.ipAddress));
      };
      return withTransaction(db, async (tx) => {
        await tx
          .insert(loginThrottles)
          .values(throttleScopes.map((scope) => ({ ...keyOf(scope), updatedAt: now })))
          .onConflictDoNothing();
        const rows = await tx
          .select()
          .from(loginThrottles)
          .where(or(...throttleScopes.map(matches)))
          .orderBy(asc(loginThrottles.scope), asc(loginThrottles.email), asc(loginThrottles.ipAddress))
          .for('update');
        const stateOf = (scope: ThrottleScope) => {
          const row = rows.find((candidate) => candidate.scope === scope);
          if (!row) throw new Error(`login throttle row missing: ${scope}`);
          return row;
        };
        const states: ThrottleStates = { account: stateOf('account'), address: stateOf('address'), pair: stateOf('pair') };
        const { result, writes } = decide(states);
        for (const scope of throttleScopes) {
          const values = writes[scope];
          if (values) await tx.update(loginThrottles).set({ ...values, updatedAt: now }).where(matches(scope));
        }
        return result;
      });
    },

    /** Throttle rows with nothing left to remember: no failure to count and no sign-in to trust. */
    async deleteStaleThrottles(forgottenBefore: Date, untrustedBefore: Date): Promise<void> {
      await db
        .delete(loginThrottles)
        .where(
          or(
            lt(loginThrottles.updatedAt, untrustedBefore),
            and(lt(loginThrottles.updatedAt, forgottenBefore), isNull(loginThrottles.lastSuccessAt)),
          ),
        );
    },

    async deleteLoginAttemptsBefore(cutoff: Date): Promise<void> {
      await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, cutoff));
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
