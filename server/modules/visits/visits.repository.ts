import { eq, sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import { adminNotifications, customers, technicians, workOrders } from '#server/db/schema/index.ts';

export type VisitRow = {
  id: string;
  workOrderNumber: string;
  status: string;
  serviceType: string;
  serviceDate: string;
  scheduledStartTime: string | null;
  scheduledEndTime: string | null;
  arrivalWindowStart: string | null;
  arrivalWindowEnd: string | null;
  scheduledDate: Date | null;
  serviceAddress: string | null;
  serviceCity: string | null;
  serviceZip: string | null;
  customerAddress: string | null;
  customerCity: string | null;
  customerZip: string | null;
  technicianName: string | null;
  updatedAt: Date;
};

const visitColumns = {
  id: workOrders.id,
  workOrderNumber: workOrders.workOrderNumber,
  status: workOrders.status,
  serviceType: workOrders.serviceType,
  serviceDate: workOrders.serviceDate,
  scheduledStartTime: workOrders.scheduledStartTime,
  scheduledEndTime: workOrders.scheduledEndTime,
  arrivalWindowStart: workOrders.arrivalWindowStart,
  arrivalWindowEnd: workOrders.arrivalWindowEnd,
  scheduledDate: workOrders.scheduledDate,
  serviceAddress: workOrders.serviceAddress,
  serviceCity: workOrders.serviceCity,
  serviceZip: workOrders.serviceZip,
  customerAddress: customers.address,
  customerCity: customers.city,
  customerZip: customers.zip,
  technicianName: technicians.name,
  updatedAt: workOrders.updatedAt,
};

/** A work order as its customer's visit link shows it (issue 21). */
export function createVisitRepository(db: DbExecutor) {
  return {
    /** The visit, its row locked when `forUpdate` (a change from the link). */
    async find(id: string, options: { forUpdate?: boolean } = {}): Promise<VisitRow | undefined> {
      const query = db
        .select(visitColumns)
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .leftJoin(technicians, eq(technicians.id, workOrders.technicianId))
        .where(eq(workOrders.id, id));
      const rows = options.forUpdate ? await query.for('update', { of: workOrders }) : await query;
      return rows[0] as VisitRow | undefined;
    },

    async exists(id: string): Promise<boolean> {
      const rows = await db.select({ id: workOrders.id }).from(workOrders).where(eq(workOrders.id, id)).limit(1);
      return rows.length > 0;
    },

    async move(id: string, values: { technicianId: string; serviceDate: string; scheduledDate: ReturnType<typeof sql>; startTime: string; endTime: string; windowStart: string; windowEnd: string; estimatedDuration: number }): Promise<void> {
      await db
        .update(workOrders)
        .set({
          technicianId: values.technicianId,
          serviceDate: values.serviceDate,
          scheduledDate: values.scheduledDate,
          scheduledStartTime: values.startTime,
          scheduledEndTime: values.endTime,
          arrivalWindowStart: values.windowStart,
          arrivalWindowEnd: values.windowEnd,
          estimatedDuration: values.estimatedDuration,
          updatedAt: sql`now()`,
        })
        .where(eq(workOrders.id, id));
    },

    async cancel(id: string): Promise<void> {
      await db.update(workOrders).set({ status: 'cancelled', updatedAt: sql`now()` }).where(eq(workOrders.id, id));
    },

    async notify(values: typeof adminNotifications.$inferInsert): Promise<void> {
      await db.insert(adminNotifications).values(values);
    },
  };
}
