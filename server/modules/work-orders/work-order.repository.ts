import { and, asc, count, desc, eq, ilike, inArray, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { WorkOrderStatus } from '#shared/enums.ts';
import type { Database } from '#server/db/client.ts';
import { customers, equipment, inspectionReports, technicians, workOrderTasks, workOrders } from '#server/db/schema/index.ts';
import { containsPattern } from '#server/modules/customers/customer.repository.ts';

export type WorkOrderRow = typeof workOrders.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
export type TaskRow = typeof workOrderTasks.$inferSelect;
export type InspectionReportRow = typeof inspectionReports.$inferSelect;
export type NewWorkOrder = Pick<
  typeof workOrders.$inferInsert,
  'customerId' | 'title' | 'serviceType' | 'priority' | 'serviceDate' | 'timePreference' | 'description' | 'notes' | 'technicianId' | 'estimateRequestId'
>;

const listColumns = {
  id: workOrders.id,
  workOrderNumber: workOrders.workOrderNumber,
  title: workOrders.title,
  description: workOrders.description,
  status: workOrders.status,
  priority: workOrders.priority,
  serviceType: workOrders.serviceType,
  serviceDate: workOrders.serviceDate,
  updatedAt: workOrders.updatedAt,
  customer: { id: customers.id, name: customers.name, phone: customers.phone, address: customers.address },
};

/** Newest service date first, then newest created: work_orders_service_date_idx (scanned backwards) serves the first key. */
const newestFirst = [desc(workOrders.serviceDate), desc(workOrders.createdAt), desc(workOrders.id)];

/**
 * The ids of the work orders whose title, description or number contains the text (a BitmapOr of
 * their three trigram indexes), united with those of the customers whose name or phone contains it
 * (customers' trigram indexes, then work_orders_customer_id_idx). A single OR across both tables
 * could use no index at all: every search would read all 100,000 rows.
 */
function matchingRows(db: Database, byStatus: SQL | undefined, search: string) {
  const pattern = containsPattern(search);
  const matchingCustomers = db
    .select({ id: customers.id })
    .from(customers)
    .where(or(ilike(customers.name, pattern), ilike(customers.phone, pattern)));
  const columns = { id: workOrders.id, serviceDate: workOrders.serviceDate, createdAt: workOrders.createdAt };
  return db
    .select(columns)
    .from(workOrders)
    .where(and(byStatus, or(ilike(workOrders.title, pattern), ilike(workOrders.description, pattern), ilike(workOrders.workOrderNumber, pattern))))
    .union(
      db
        .select(columns)
        .from(workOrders)
        .where(and(byStatus, inArray(workOrders.customerId, matchingCustomers))),
    );
}

const statusFilter = (status: WorkOrderStatus | 'all') => (status === 'all' ? undefined : eq(workOrders.status, status));

/**
 * A page of search matches: the matching ids are sorted and cut to the page on their own (with the
 * two sort keys), so only the page's rows are joined to their work order and customer.
 */
function searchPage(db: Database, status: WorkOrderStatus | 'all', search: string, page: number, pageSize: number) {
  const matching = matchingRows(db, statusFilter(status), search).as('matching');
  return db
    .select({ id: matching.id })
    .from(matching)
    .orderBy(desc(matching.serviceDate), desc(matching.createdAt), desc(matching.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .as('page');
}

/** The stored updated_at to the millisecond: what the client saw (JSON dates carry milliseconds, PostgreSQL keeps microseconds). */
const versionMatches = (expectedUpdatedAt: string) =>
  sql`date_trunc('milliseconds', ${workOrders.updatedAt}) = ${expectedUpdatedAt}::timestamptz`;

export function createWorkOrderRepository(db: Database) {
  const queries = {
    listPage: (status: WorkOrderStatus | 'all', search: string, page: number, pageSize: number) => {
      if (search) {
        const matches = searchPage(db, status, search, page, pageSize);
        return db
          .select(listColumns)
          .from(matches)
          .innerJoin(workOrders, eq(workOrders.id, matches.id))
          .innerJoin(customers, eq(customers.id, workOrders.customerId))
          .orderBy(...newestFirst);
      }
      return db
        .select(listColumns)
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .where(statusFilter(status))
        .orderBy(...newestFirst)
        .limit(pageSize)
        .offset((page - 1) * pageSize);
    },
    /** Without a search, a count over the status index; with one, the number of matching ids (no join back). */
    listTotal: (status: WorkOrderStatus | 'all', search: string) =>
      search
        ? db.select({ total: count() }).from(matchingRows(db, statusFilter(status), search).as('matching'))
        : db.select({ total: count() }).from(workOrders).where(statusFilter(status)),
    // The detail's three reads take a value or a placeholder: they are also prepared once, below.
    detail: (id: string | Placeholder) =>
      db
        .select({
          workOrder: workOrders,
          customer: customers,
          technician: { id: technicians.id, name: technicians.name, color: technicians.color },
          equipment: {
            id: equipment.id,
            equipmentType: equipment.equipmentType,
            location: equipment.location,
            brand: equipment.brand,
            model: equipment.model,
            serialNumber: equipment.serialNumber,
            warrantyStatus: equipment.warrantyStatus,
          },
        })
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .leftJoin(technicians, eq(technicians.id, workOrders.technicianId))
        .leftJoin(equipment, eq(equipment.id, workOrders.equipmentId))
        .where(eq(workOrders.id, id)),
    latestInspection: (workOrderId: string | Placeholder) =>
      db
        .select()
        .from(inspectionReports)
        .where(eq(inspectionReports.workOrderId, workOrderId))
        .orderBy(desc(inspectionReports.createdAt), desc(inspectionReports.id))
        .limit(1),
    tasks: (workOrderId: string | Placeholder) =>
      db
        .select()
        .from(workOrderTasks)
        .where(eq(workOrderTasks.workOrderId, workOrderId))
        .orderBy(asc(workOrderTasks.createdAt), asc(workOrderTasks.id)),
  };

  /**
   * The detail page's reads, built once on first use rather than per request (a repository made
   * inside a transaction never reads the detail, so it never builds them).
   */
  const detailId = sql.placeholder('id');
  let detailStatements:
    | { detail: ReturnType<typeof prepareDetail>; latestInspection: ReturnType<typeof prepareInspection>; tasks: ReturnType<typeof prepareTasks> }
    | undefined;
  const prepareDetail = () => queries.detail(detailId).prepare('work_order_detail');
  const prepareInspection = () => queries.latestInspection(detailId).prepare('work_order_detail_inspection');
  const prepareTasks = () => queries.tasks(detailId).prepare('work_order_detail_tasks');
  const statements = () => (detailStatements ??= { detail: prepareDetail(), latestInspection: prepareInspection(), tasks: prepareTasks() });

  return {
    queries,

    /** A page and the number of all matches (skipped when a partly filled page already tells it). */
    async list(status: WorkOrderStatus | 'all', search: string, page: number, pageSize: number) {
      const rows = await queries.listPage(status, search, page, pageSize);
      if (rows.length > 0 && rows.length < pageSize) return { rows, total: (page - 1) * pageSize + rows.length };
      const [counted] = await queries.listTotal(status, search);
      return { rows, total: counted?.total ?? 0 };
    },

    async detail(id: string) {
      const prepared = statements();
      const [rows, reports, tasks] = await Promise.all([
        prepared.detail.execute({ id }),
        prepared.latestInspection.execute({ id }),
        prepared.tasks.execute({ id }),
      ]);
      const row = rows[0];
      return row && { ...row, inspectionReport: reports[0], tasks };
    },

    async findById(id: string): Promise<WorkOrderRow | undefined> {
      return (await db.select().from(workOrders).where(eq(workOrders.id, id)))[0];
    },

    async insert(values: NewWorkOrder): Promise<WorkOrderRow> {
      return (await db.insert(workOrders).values({ ...values, status: 'pending' }).returning())[0]!;
    },

    async isActiveTechnician(id: string): Promise<boolean> {
      const rows = await db.select({ id: technicians.id }).from(technicians).where(and(eq(technicians.id, id), eq(technicians.active, true)));
      return rows.length > 0;
    },

    async activeTechnicians(activeOnly: boolean) {
      return db
        .select({ id: technicians.id, name: technicians.name, color: technicians.color, active: technicians.active })
        .from(technicians)
        .where(activeOnly ? eq(technicians.active, true) : undefined)
        .orderBy(asc(technicians.name), asc(technicians.id));
    },

    /**
     * Check and update in one statement: the row changes only if it is still the version the
     * client saw and its status is one the change may start from. No row: the caller finds out why.
     */
    async updateIfCurrent(
      id: string,
      expectedUpdatedAt: string,
      fromStatuses: readonly WorkOrderStatus[] | undefined,
      values: PgUpdateSetSource<typeof workOrders>,
    ): Promise<WorkOrderRow | undefined> {
      if (fromStatuses && fromStatuses.length === 0) return undefined;
      const rows = await db
        .update(workOrders)
        .set({ ...values, updatedAt: sql`now()` })
        .where(
          and(
            eq(workOrders.id, id),
            versionMatches(expectedUpdatedAt),
            fromStatuses ? inArray(workOrders.status, [...fromStatuses]) : undefined,
          ),
        )
        .returning();
      return rows[0];
    },

    async insertTask(values: typeof workOrderTasks.$inferInsert): Promise<TaskRow> {
      return (await db.insert(workOrderTasks).values(values).returning())[0]!;
    },

    async updateTask(workOrderId: string, taskId: string, values: Partial<Pick<TaskRow, 'status' | 'timeSpentMinutes'>>): Promise<TaskRow | undefined> {
      const rows = await db
        .update(workOrderTasks)
        .set(values)
        .where(and(eq(workOrderTasks.id, taskId), eq(workOrderTasks.workOrderId, workOrderId)))
        .returning();
      return rows[0];
    },

    async insertInspectionReport(values: typeof inspectionReports.$inferInsert): Promise<InspectionReportRow> {
      return (await db.insert(inspectionReports).values(values).returning())[0]!;
    },
  };
}

export type WorkOrderRepository = ReturnType<typeof createWorkOrderRepository>;
