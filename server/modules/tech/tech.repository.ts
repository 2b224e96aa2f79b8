import { and, asc, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import {
  customerPhotos,
  customers,
  equipment,
  inspectionReports,
  invoices,
  staffUsers,
  techActions,
  technicians,
  timePreferenceRank,
  visitCompletions,
  workOrderNotes,
  workOrderTasks,
  workOrders,
} from '#server/db/schema/index.ts';
import { equipmentColumns } from '#server/modules/customers/index.ts';

export type VisitRow = Awaited<ReturnType<ReturnType<typeof createTechRepository>['visitRows']>>[number];
export type CompletionRow = typeof visitCompletions.$inferSelect;
export type NoteRow = typeof workOrderNotes.$inferSelect;
export type InvoiceSummaryRow = Awaited<ReturnType<ReturnType<typeof createTechRepository>['invoicesOf']>>[number];
export type PhotoRow = Pick<typeof customerPhotos.$inferSelect, 'id' | 'customerId' | 'objectKey' | 'contentType' | 'workOrderId' | 'createdAt'>;

/** The newest photos of a customer a visit carries (the device keeps their thumbnails offline). */
export const visitPhotoLimit = 40;
/** The customer's other work orders a visit lists, newest first. */
export const visitHistoryLimit = 10;

const visitColumns = {
  workOrder: workOrders,
  customer: {
    id: customers.id,
    name: customers.name,
    phone: customers.phone,
    email: customers.email,
    address: customers.address,
    city: customers.city,
    state: customers.state,
    zip: customers.zip,
    latitude: customers.latitude,
    longitude: customers.longitude,
  },
};

const photoColumns = {
  id: customerPhotos.id,
  customerId: customerPhotos.customerId,
  objectKey: customerPhotos.objectKey,
  contentType: customerPhotos.contentType,
  workOrderId: customerPhotos.workOrderId,
  createdAt: customerPhotos.createdAt,
};

/**
 * The technician app's reads and writes (issue 19). Every read of a visit is scoped to the
 * technician in SQL; a visit's parts (tasks, reports, equipment, photos, notes, history,
 * completion) are read for all the visits at once, one query each.
 */
export function createTechRepository(db: DbExecutor) {
  return {
    async technician(id: string) {
      const rows = await db.select({ id: technicians.id, name: technicians.name, color: technicians.color }).from(technicians).where(eq(technicians.id, id));
      return rows[0];
    },

    /**
     * Work orders assigned to the technician: one (by id) or those of a date range (not cancelled),
     * in day and time order: service date, scheduled start, then the time preference.
     */
    async visitRows(technicianId: string, filter: { id: string } | { from: string; to: string }) {
      return db
        .select(visitColumns)
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .where(
          and(
            eq(workOrders.technicianId, technicianId),
            'id' in filter
              ? eq(workOrders.id, filter.id)
              : and(gte(workOrders.serviceDate, filter.from), lte(workOrders.serviceDate, filter.to), ne(workOrders.status, 'cancelled')),
          ),
        )
        .orderBy(
          asc(workOrders.serviceDate),
          sql`${workOrders.scheduledStartTime} asc nulls last`,
          timePreferenceRank(workOrders.timePreference),
          asc(workOrders.createdAt),
          asc(workOrders.id),
        );
    },

    /** The work order if it is assigned to the technician (read in the caller's transaction, not locked). */
    async assignedWorkOrder(technicianId: string, id: string) {
      const rows = await db
        .select({ id: workOrders.id, workOrderNumber: workOrders.workOrderNumber })
        .from(workOrders)
        .where(and(eq(workOrders.id, id), eq(workOrders.technicianId, technicianId)));
      return rows[0];
    },

    /** The work order if it is assigned to the technician, locked until the transaction ends. */
    async lockAssigned(technicianId: string, id: string) {
      const rows = await db
        .select()
        .from(workOrders)
        .where(and(eq(workOrders.id, id), eq(workOrders.technicianId, technicianId)))
        .for('update');
      return rows[0];
    },

    async tasksOf(workOrderIds: string[]) {
      if (workOrderIds.length === 0) return [];
      return db
        .select()
        .from(workOrderTasks)
        .where(inArray(workOrderTasks.workOrderId, workOrderIds))
        .orderBy(asc(workOrderTasks.createdAt), asc(workOrderTasks.id));
    },

    /** Each work order's latest inspection report. */
    async latestInspectionsOf(workOrderIds: string[]) {
      if (workOrderIds.length === 0) return [];
      return db
        .selectDistinctOn([inspectionReports.workOrderId])
        .from(inspectionReports)
        .where(inArray(inspectionReports.workOrderId, workOrderIds))
        .orderBy(inspectionReports.workOrderId, desc(inspectionReports.createdAt), desc(inspectionReports.id));
    },

    async equipmentOf(customerIds: string[]) {
      if (customerIds.length === 0) return [];
      return db
        .select({ ...equipmentColumns, customerId: equipment.customerId })
        .from(equipment)
        .where(inArray(equipment.customerId, customerIds))
        .orderBy(asc(equipment.createdAt), asc(equipment.id));
    },

    /** Each customer's newest photos, at most visitPhotoLimit each. */
    async photosOf(customerIds: string[]): Promise<PhotoRow[]> {
      if (customerIds.length === 0) return [];
      const ranked = db
        .select({
          ...photoColumns,
          rank: sql<number>`row_number() over (partition by ${customerPhotos.customerId} order by ${customerPhotos.createdAt} desc, ${customerPhotos.id} desc)`.as('rank'),
        })
        .from(customerPhotos)
        .where(inArray(customerPhotos.customerId, customerIds))
        .as('ranked');
      const rows = await db
        .select({
          id: ranked.id,
          customerId: ranked.customerId,
          objectKey: ranked.objectKey,
          contentType: ranked.contentType,
          workOrderId: ranked.workOrderId,
          createdAt: ranked.createdAt,
        })
        .from(ranked)
        .where(lte(ranked.rank, visitPhotoLimit))
        .orderBy(desc(ranked.createdAt), desc(ranked.id));
      return rows;
    },

    async notesOf(workOrderIds: string[]): Promise<NoteRow[]> {
      if (workOrderIds.length === 0) return [];
      return db
        .select()
        .from(workOrderNotes)
        .where(inArray(workOrderNotes.workOrderId, workOrderIds))
        .orderBy(asc(workOrderNotes.createdAt), asc(workOrderNotes.id));
    },

    async completionsOf(workOrderIds: string[]): Promise<CompletionRow[]> {
      if (workOrderIds.length === 0) return [];
      return db.select().from(visitCompletions).where(inArray(visitCompletions.workOrderId, workOrderIds));
    },

    /**
     * Each visit's history: the customer's other work orders up to the visit's day (the site's
     * earlier visits, the same day's others too), newest first, visitHistoryLimit each, with the
     * completion summary when there is one. One query for all the visits (a lateral join).
     */
    async historyOf(workOrderIds: string[]) {
      if (workOrderIds.length === 0) return [];
      const ids = sql.join(workOrderIds.map((id) => sql`${id}::uuid`), sql`, `);
      const result = await db.execute<{
        visit_id: string;
        id: string;
        work_order_number: string;
        title: string;
        service_date: string;
        status: string;
        summary: string | null;
      }>(sql`
        select v.id as visit_id, h.id, h.work_order_number, h.title, h.service_date::text as service_date, h.status, c.summary
          from ${workOrders} v
          cross join lateral (
            select w.id, w.work_order_number, w.title, w.service_date, w.status, w.created_at
              from ${workOrders} w
             where w.customer_id = v.customer_id and w.id <> v.id and w.service_date <= v.service_date
             order by w.service_date desc, w.created_at desc, w.id desc
             limit ${visitHistoryLimit}
          ) h
          left join ${visitCompletions} c on c.work_order_id = h.id
         where v.id in (${ids})
         order by v.id, h.service_date desc, h.created_at desc, h.id desc`);
      return result.rows.map((row) => ({
        visitId: row.visit_id,
        id: row.id,
        workOrderNumber: row.work_order_number,
        title: row.title,
        serviceDate: row.service_date,
        status: row.status,
        summary: row.summary,
      }));
    },

    /**
     * The work orders' issued invoices (sent, partially paid, paid; not drafts, void ones or credit
     * notes), oldest first: what the technician may collect on site (decision 025-a).
     * Through invoices_work_order_id_idx.
     */
    async invoicesOf(workOrderIds: string[]) {
      if (workOrderIds.length === 0) return [];
      return db
        .select({
          id: invoices.id,
          workOrderId: invoices.workOrderId,
          invoiceNumber: invoices.invoiceNumber,
          status: invoices.status,
          totalCents: invoices.totalCents,
          paidCents: invoices.paidCents,
          dueOn: invoices.dueOn,
          issuedOn: invoices.issuedOn,
        })
        .from(invoices)
        .where(and(inArray(invoices.workOrderId, workOrderIds), eq(invoices.kind, 'invoice'), inArray(invoices.status, ['sent', 'partially_paid', 'paid'])))
        .orderBy(asc(invoices.issuedOn), asc(invoices.invoiceNumber));
    },

    /** Whether this idempotency key was applied already (to any visit). */
    async findAction(idempotencyKey: string) {
      const rows = await db.select().from(techActions).where(eq(techActions.idempotencyKey, idempotencyKey));
      return rows[0];
    },

    async insertAction(values: typeof techActions.$inferInsert): Promise<void> {
      await db.insert(techActions).values(values);
    },

    async insertNote(values: typeof workOrderNotes.$inferInsert): Promise<NoteRow> {
      return (await db.insert(workOrderNotes).values(values).returning())[0]!;
    },

    async insertCompletion(values: typeof visitCompletions.$inferInsert): Promise<void> {
      await db
        .insert(visitCompletions)
        .values(values)
        .onConflictDoUpdate({ target: visitCompletions.workOrderId, set: { ...values, workOrderId: undefined } });
    },

    async completion(workOrderId: string): Promise<CompletionRow | undefined> {
      return (await db.select().from(visitCompletions).where(eq(visitCompletions.workOrderId, workOrderId)))[0];
    },

    async taskOf(workOrderId: string, taskId: string) {
      const rows = await db
        .select()
        .from(workOrderTasks)
        .where(and(eq(workOrderTasks.id, taskId), eq(workOrderTasks.workOrderId, workOrderId)))
        .for('update');
      return rows[0];
    },

    async setTaskStatus(taskId: string, status: string) {
      return (await db.update(workOrderTasks).set({ status }).where(eq(workOrderTasks.id, taskId)).returning())[0]!;
    },

    async insertInspection(values: typeof inspectionReports.$inferInsert) {
      return (await db.insert(inspectionReports).values(values).returning())[0]!;
    },

    /** The work order's new values and a new version (updated_at). */
    async updateWorkOrder(id: string, values: Partial<typeof workOrders.$inferInsert>) {
      return (await db.update(workOrders).set({ ...values, updatedAt: sql`now()` }).where(eq(workOrders.id, id)).returning())[0]!;
    },

    /** Photos stored by an earlier upload with this key, in their upload order. */
    async photosByKey(idempotencyKey: string): Promise<PhotoRow[]> {
      return db
        .select(photoColumns)
        .from(customerPhotos)
        .where(eq(customerPhotos.idempotencyKey, idempotencyKey))
        .orderBy(asc(customerPhotos.idempotencyIndex));
    },

    /** A photo whose customer has a work order assigned to the technician. */
    async photoForTechnician(technicianId: string, photoId: string): Promise<PhotoRow | undefined> {
      const rows = await db
        .select(photoColumns)
        .from(customerPhotos)
        .where(
          and(
            eq(customerPhotos.id, photoId),
            sql`exists (select 1 from ${workOrders} where ${workOrders.customerId} = ${customerPhotos.customerId} and ${workOrders.technicianId} = ${technicianId})`,
          ),
        );
      return rows[0];
    },

    /** The work order's completion, if the work order exists (and, for a technician, is theirs). */
    async signatureKey(workOrderId: string, technicianId?: string): Promise<string | null | undefined> {
      const rows = await db
        .select({ key: visitCompletions.signatureKey })
        .from(visitCompletions)
        .innerJoin(workOrders, eq(workOrders.id, visitCompletions.workOrderId))
        .where(and(eq(visitCompletions.workOrderId, workOrderId), technicianId ? eq(workOrders.technicianId, technicianId) : undefined));
      return rows[0]?.key;
    },

    async staffName(id: string): Promise<string | undefined> {
      return (await db.select({ name: staffUsers.name }).from(staffUsers).where(eq(staffUsers.id, id)))[0]?.name;
    },
  };
}

export type TechRepository = ReturnType<typeof createTechRepository>;
