import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { activeWorkOrderStatuses } from '#shared/enums.ts';
import type { DbExecutor } from '#server/db/client.ts';
import { staffUsers, technicians, workOrders } from '#server/db/schema/index.ts';

export type TechnicianRow = typeof technicians.$inferSelect;

export function createTechnicianRepository(db: DbExecutor) {
  return {
    /** The pickers' and the calendar's list (GET /api/admin/technicians): by name, active ones only if asked. */
    async listForPickers(activeOnly: boolean) {
      return db
        .select({ id: technicians.id, name: technicians.name, color: technicians.color, active: technicians.active })
        .from(technicians)
        .where(activeOnly ? eq(technicians.active, true) : undefined)
        .orderBy(asc(technicians.name), asc(technicians.id));
    },

    /** Every technician, active first then by name, with the open work orders each has. */
    async listWithOpenWork(): Promise<(TechnicianRow & { openWorkOrders: number; accountEmail: string | null })[]> {
      const open = db
        .select({ technicianId: workOrders.technicianId, count: sql<number>`count(*)::int`.as('count') })
        .from(workOrders)
        .where(inArray(workOrders.status, [...activeWorkOrderStatuses]))
        .groupBy(workOrders.technicianId)
        .as('open');
      const rows = await db
        .select({ technician: technicians, openWorkOrders: sql<number>`coalesce(${open.count}, 0)::int`, accountEmail: staffUsers.email })
        .from(technicians)
        .leftJoin(open, eq(open.technicianId, technicians.id))
        // At most one account per technician (staff_users' unique index on technician_id).
        .leftJoin(staffUsers, eq(staffUsers.technicianId, technicians.id))
        .orderBy(desc(technicians.active), sql`lower(${technicians.name})`, asc(technicians.id));
      return rows.map((row) => ({ ...row.technician, openWorkOrders: Number(row.openWorkOrders), accountEmail: row.accountEmail }));
    },

    async openWorkOrders(id: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(workOrders)
        .where(and(eq(workOrders.technicianId, id), inArray(workOrders.status, [...activeWorkOrderStatuses])));
      return Number(row?.count ?? 0);
    },

    /** The e-mail of the staff account linked to the technician (its sign-in to the technician app), if any. */
    async accountEmail(id: string): Promise<string | null> {
      const [row] = await db.select({ email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.technicianId, id)).limit(1);
      return row?.email ?? null;
    },

    async lockById(id: string): Promise<TechnicianRow | undefined> {
      return (await db.select().from(technicians).where(eq(technicians.id, id)).for('update'))[0];
    },

    async insert(values: { name: string; color: string }): Promise<TechnicianRow> {
      return (await db.insert(technicians).values(values).returning())[0]!;
    },

    async update(id: string, values: Partial<Pick<TechnicianRow, 'name' | 'color' | 'active'>>): Promise<TechnicianRow | undefined> {
      const rows = await db
        .update(technicians)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(technicians.id, id))
        .returning();
      return rows[0];
    },
  };
}
