import { and, asc, eq, gt, gte, inArray, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { activeWorkOrderStatuses } from '#shared/enums.ts';
import type { DbExecutor } from '#server/db/client.ts';
import { customers, technicians, workOrders } from '#server/db/schema/index.ts';
import { customerPlaceColumns, serviceAddressColumns } from '#server/modules/work-orders/index.ts';

/** The calendar's reads: the visible range, and the technician's lock and overlaps of the double-booking rule (decision 015). */
export function createCalendarRepository(db: DbExecutor) {
  /**
   * The appointment's customer, read by its primary key: a lateral with `limit 1` keeps the planner
   * from hashing every customer for a range's few hundred (decision 020-h).
   */
  const customerOf = () =>
    db
      .select(customerPlaceColumns)
      .from(customers)
      .where(eq(customers.id, workOrders.customerId))
      .limit(1)
      .as('customer');

  /** An appointment: a work order with a date and both times. */
  const isAppointment = and(isNotNull(workOrders.scheduledStartTime), isNotNull(workOrders.scheduledEndTime));
  /** What the grid draws of an appointment, and its version and step times. */
  const block = {
    id: workOrders.id,
    workOrderNumber: workOrders.workOrderNumber,
    title: workOrders.title,
    serviceDate: workOrders.serviceDate,
    startTime: workOrders.scheduledStartTime,
    endTime: workOrders.scheduledEndTime,
    status: workOrders.status,
    priority: workOrders.priority,
    serviceType: workOrders.serviceType,
    enRouteAt: workOrders.enRouteAt,
    startedAt: workOrders.startedAt,
    completedAt: workOrders.completedAt,
    updatedAt: workOrders.updatedAt,
    technician: { id: technicians.id, name: technicians.name, color: technicians.color },
    /** A maintenance plan member (issue 22): priority service, marked on the calendar. */
    isMember: sql<boolean>`exists (select 1 from maintenance_agreements a where a.customer_id = ${workOrders.customerId} and a.status = 'active')`,
  };

  /**
   * Appointments with the grid's block, the customer (read through the lateral) and the technician
   * joined, filtered by `conditions`; `fields` adds what the caller reads beyond the block.
   */
  const appointments = <Fields extends SelectedFields>(fields: (customer: ReturnType<typeof customerOf>) => Fields, conditions: SQL[]) => {
    const customer = customerOf();
    return db
      .select({ ...block, ...fields(customer) })
      .from(workOrders)
      .innerJoinLateral(customer, sql`true`)
      .leftJoin(technicians, eq(technicians.id, workOrders.technicianId))
      .where(and(...conditions, isAppointment));
  };

  const queries = {
    /**
     * The visible range as the grid draws it: appointments by day and start
     * (work_orders_service_date_idx), each with its customer's name by primary key.
     */
    range: (start: string, end: string) =>
      appointments((customer) => ({ customer: { name: customer.name } }), [gte(workOrders.serviceDate, start), lt(workOrders.serviceDate, end)]).orderBy(
        asc(workOrders.serviceDate),
        asc(workOrders.scheduledStartTime),
        asc(workOrders.id),
      ),
    /** One appointment in full, for its dialog: the customer's contact and the service address too. */
    event: (id: string) =>
      appointments(
        (customer) => ({ ...serviceAddressColumns, customer: { id: customer.id, name: customer.name, phone: customer.phone, address: customer.address } }),
        [eq(workOrders.id, id)],
      ),
  };

  return {
    queries,

    /**
     * The technician's other open appointments that day which the times would overlap (touching
     * ends do not). Call inside a transaction after lockTechnician, so two dispatchers cannot both
     * find the slot free.
     */
    async overlappingAppointments(technicianId: string, serviceDate: string, startTime: string, endTime: string, exceptId: string) {
      return db
        .select({
          id: workOrders.id,
          workOrderNumber: workOrders.workOrderNumber,
          title: workOrders.title,
          serviceDate: workOrders.serviceDate,
          startTime: workOrders.scheduledStartTime,
          endTime: workOrders.scheduledEndTime,
        })
        .from(workOrders)
        .where(
          and(
            eq(workOrders.technicianId, technicianId),
            eq(workOrders.serviceDate, serviceDate),
            inArray(workOrders.status, [...activeWorkOrderStatuses]),
            ne(workOrders.id, exceptId),
            lt(workOrders.scheduledStartTime, endTime),
            gt(workOrders.scheduledEndTime, startTime),
          ),
        )
        .orderBy(asc(workOrders.scheduledStartTime), asc(workOrders.id));
    },

    /** Holds the technician's row until the transaction ends: bookings for one technician take turns. */
    async lockTechnician(technicianId: string): Promise<{ id: string; name: string; active: boolean } | undefined> {
      const rows = await db
        .select({ id: technicians.id, name: technicians.name, active: technicians.active })
        .from(technicians)
        .where(eq(technicians.id, technicianId))
        .for('update');
      return rows[0];
    },
  };
}

export type CalendarRepository = ReturnType<typeof createCalendarRepository>;
export type OverlapRow = Awaited<ReturnType<CalendarRepository['overlappingAppointments']>>[number];
