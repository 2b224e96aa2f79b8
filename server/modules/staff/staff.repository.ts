import { and, asc, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { staffPasswordLinks, staffUsers, technicians } from '#server/db/schema/index.ts';

export type StaffRow = typeof staffUsers.$inferSelect;
export type LinkedTechnician = { id: string; name: string; color: string; active: boolean };

/** Staff accounts and their one-time set-password links (sessions stay in the auth repository). */
export function createStaffRepository(db: Database) {
  return {
    /** Every account with its linked technician (issue 19), in one query. */
    async list(): Promise<(StaffRow & { technician: LinkedTechnician | null })[]> {
      const rows = await db
        .select({ staff: staffUsers, technician: { id: technicians.id, name: technicians.name, color: technicians.color, active: technicians.active } })
        .from(staffUsers)
        .leftJoin(technicians, eq(technicians.id, staffUsers.technicianId))
        .orderBy(desc(staffUsers.active), asc(staffUsers.name), asc(staffUsers.email));
      return rows.map((row) => ({ ...row.staff, technician: row.technician }));
    },

    async findById(id: string, executor: Database = db): Promise<StaffRow | undefined> {
      const rows = await executor.select().from(staffUsers).where(eq(staffUsers.id, id)).limit(1);
      return rows[0];
    },

    async findByEmail(email: string, executor: Database = db): Promise<StaffRow | undefined> {
      const rows = await executor.select().from(staffUsers).where(eq(staffUsers.email, email)).limit(1);
      return rows[0];
    },

    async insert(executor: Database, values: typeof staffUsers.$inferInsert): Promise<StaffRow> {
      const rows = await executor.insert(staffUsers).values(values).returning();
      return rows[0]!;
    },

    async update(executor: Database, id: string, values: Partial<typeof staffUsers.$inferInsert>): Promise<StaffRow> {
      const rows = await executor
        .update(staffUsers)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(staffUsers.id, id))
        .returning();
      return rows[0]!;
    },

    /**
     * The active admins, their rows locked until the transaction ends: two admins demoting or
     * deactivating each other at once cannot leave none (the second waits and then counts again).
     */
    async lockActiveAdmins(executor: Database): Promise<string[]> {
      const rows = await executor
        .select({ id: staffUsers.id })
        .from(staffUsers)
        .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.active, true)))
        .for('update');
      return rows.map((row) => row.id);
    },

    /** Whether a technician record exists and is active (a technician account's link, issue 19). */
    async isActiveTechnician(id: string, executor: Database = db): Promise<boolean> {
      const rows = await executor.select({ id: technicians.id }).from(technicians).where(and(eq(technicians.id, id), eq(technicians.active, true))).limit(1);
      return rows.length > 0;
    },

    /** The account already linked to a technician, if any. */
    async findByTechnician(technicianId: string, executor: Database = db): Promise<StaffRow | undefined> {
      const rows = await executor.select().from(staffUsers).where(eq(staffUsers.technicianId, technicianId)).limit(1);
      return rows[0];
    },

    async insertLink(executor: Database, values: typeof staffPasswordLinks.$inferInsert): Promise<void> {
      await executor.insert(staffPasswordLinks).values(values);
    },

    /** Withdraws a user's unused links (a new link replaces them; deactivation and a new password end them). */
    async deleteLinksOf(executor: Database, staffUserId: string, options: { except?: string } = {}): Promise<void> {
      await executor
        .delete(staffPasswordLinks)
        .where(
          and(
            eq(staffPasswordLinks.staffUserId, staffUserId),
            options.except ? ne(staffPasswordLinks.id, options.except) : undefined,
          ),
        );
    },

    /** The unused, unexpired link of an active account, with its account. */
    async findLiveLink(tokenHash: string, now: Date) {
      const rows = await db
        .select({ linkId: staffPasswordLinks.id, purpose: staffPasswordLinks.purpose, user: staffUsers })
        .from(staffPasswordLinks)
        .innerJoin(staffUsers, eq(staffUsers.id, staffPasswordLinks.staffUserId))
        .where(
          and(
            eq(staffPasswordLinks.tokenHash, tokenHash),
            isNull(staffPasswordLinks.usedAt),
            gt(staffPasswordLinks.expiresAt, now),
            eq(staffUsers.active, true),
          ),
        )
        .limit(1);
      return rows[0];
    },

    /** Marks a link used, once: only the first of two concurrent uses gets its row back. */
    async consumeLink(executor: Database, linkId: string, now: Date): Promise<boolean> {
      const rows = await executor
        .update(staffPasswordLinks)
        .set({ usedAt: now })
        .where(and(eq(staffPasswordLinks.id, linkId), isNull(staffPasswordLinks.usedAt), gt(staffPasswordLinks.expiresAt, now)))
        .returning({ id: staffPasswordLinks.id });
      return rows.length === 1;
    },
  };
}

export type StaffRepository = ReturnType<typeof createStaffRepository>;
