import { and, asc, eq, gte, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { activeWorkOrderStatuses } from '#shared/enums.ts';
import type { DbExecutor } from '#server/db/client.ts';
import { jsonColumns, jsonRows } from '#server/db/json-rows.ts';
import { bookingSettings, technicians, technicianTimeOff, workOrders } from '#server/db/schema/index.ts';

export type BookingSettingsRow = typeof bookingSettings.$inferSelect;
export type BookingSettingsValues = Omit<BookingSettingsRow, 'id' | 'updatedAt'>;
export type TimeOffRow = typeof technicianTimeOff.$inferSelect;
export type NewTimeOff = Omit<typeof technicianTimeOff.$inferInsert, 'id' | 'createdAt'>;

const technicianColumns = {
  id: technicians.id,
  name: technicians.name,
  active: technicians.active,
  workingHours: technicians.workingHours,
  serviceTypes: technicians.serviceTypes,
};
export type TechnicianAvailabilityRow = { id: string; name: string; active: boolean; workingHours: Record<string, { start: string; end: string }[]>; serviceTypes: string[] };

export function createAvailabilityRepository(db: DbExecutor) {
  return {
    /** The one row, or undefined while the defaults are in force (the migration makes no row). */
    async readSettings(): Promise<BookingSettingsRow | undefined> {
      return (await db.select().from(bookingSettings).where(eq(bookingSettings.id, 1)))[0];
    },

    async lockSettings(): Promise<BookingSettingsRow | undefined> {
      return (await db.select().from(bookingSettings).where(eq(bookingSettings.id, 1)).for('update'))[0];
    },

    async saveSettings(values: BookingSettingsValues): Promise<BookingSettingsRow> {
      const rows = await db
        .insert(bookingSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: bookingSettings.id, set: { ...values, updatedAt: sql`now()` } })
        .returning();
      return rows[0]!;
    },

    /** Every technician (active first, then by name) with the hours and service types online booking uses. */
    async listTechnicians(): Promise<TechnicianAvailabilityRow[]> {
      return db.select(technicianColumns).from(technicians).orderBy(sql`${technicians.active} desc`, sql`lower(${technicians.name})`, asc(technicians.id));
    },

    async lockTechnician(id: string): Promise<TechnicianAvailabilityRow | undefined> {
      return (await db.select(technicianColumns).from(technicians).where(eq(technicians.id, id)).for('update'))[0];
    },

    /** Holds these technicians' rows until the transaction ends, in id order (no two lockers wait on each other). */
    async lockTechnicians(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.select({ id: technicians.id }).from(technicians).where(inArray(technicians.id, ids)).orderBy(asc(technicians.id)).for('update');
    },

    async updateTechnician(id: string, values: Pick<TechnicianAvailabilityRow, 'workingHours' | 'serviceTypes'>): Promise<TechnicianAvailabilityRow> {
      return (await db.update(technicians).set({ ...values, updatedAt: sql`now()` }).where(eq(technicians.id, id)).returning(technicianColumns))[0]!;
    },

    /** Time off that ends on or after `from`, by technician, soonest first. */
    async timeOffFrom(from: string, technicianId?: string): Promise<TimeOffRow[]> {
      return db
        .select()
        .from(technicianTimeOff)
        .where(and(gte(technicianTimeOff.endsOn, from), technicianId ? eq(technicianTimeOff.technicianId, technicianId) : undefined))
        .orderBy(asc(technicianTimeOff.startsOn), asc(technicianTimeOff.startTime), asc(technicianTimeOff.id));
    },

    /** Time off of any technician that overlaps the dates from `from` to `to`. */
    async timeOffBetween(from: string, to: string): Promise<TimeOffRow[]> {
      return db
        .select()
        .from(technicianTimeOff)
        .where(and(gte(technicianTimeOff.endsOn, from), lte(technicianTimeOff.startsOn, to)));
    },

    /**
     * The open visits with a technician and times from `from` to `to` (work_orders_service_date_idx):
     * what keeps a technician busy. As one JSON text (server/db/json-rows.ts): hundreds of rows.
     */
    /** Visits that keep technicians busy on those dates; `exceptId`'s own visit left out (a visit being moved). */
    async visitsBetween(from: string, to: string, exceptId?: string): Promise<{ technicianId: string; date: string; startTime: string; endTime: string }[]> {
      const { rows } = await jsonRows<{ technicianId: string; date: string; startTime: string; endTime: string }>(
        db,
        db
          .select(jsonColumns({ technicianId: workOrders.technicianId, date: workOrders.serviceDate, startTime: workOrders.scheduledStartTime, endTime: workOrders.scheduledEndTime }))
          .from(workOrders)
          .where(
            and(
              gte(workOrders.serviceDate, from),
              lte(workOrders.serviceDate, to),
              isNotNull(workOrders.technicianId),
              isNotNull(workOrders.scheduledStartTime),
              isNotNull(workOrders.scheduledEndTime),
              inArray(workOrders.status, [...activeWorkOrderStatuses]),
              exceptId ? ne(workOrders.id, exceptId) : undefined,
            ),
          ),
      );
      return rows;
    },

    async insertTimeOff(values: NewTimeOff): Promise<TimeOffRow> {
      return (await db.insert(technicianTimeOff).values(values).returning())[0]!;
    },

    async deleteTimeOff(id: string): Promise<TimeOffRow | undefined> {
      return (await db.delete(technicianTimeOff).where(eq(technicianTimeOff.id, id)).returning())[0];
    },
  };
}
