import { and, asc, desc, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { WorkOrderStatus } from '#shared/enums.ts';
import { workOrderStepsCap } from '#shared/work-order.ts';
import type { DbExecutor } from '#server/db/client.ts';
import {
  aiLeads,
  auditLog,
  customers,
  equipment,
  estimateRequests,
  inspectionReports,
  technicians,
  visitCompletions,
  workOrderNotes,
  workOrderSearch,
  workOrderStatusCounts,
  workOrderTasks,
  workOrders,
} from '#server/db/schema/index.ts';
import { countCap } from '#server/db/count-cap.ts';
import { jsonColumns, jsonRows } from '#server/db/json-rows.ts';
import { containsPattern } from '#server/db/like-pattern.ts';
import { equipmentColumns } from '#server/modules/customers/index.ts';

export type WorkOrderRow = typeof workOrders.$inferSelect;

/** A chat booking's possibly-same stored customer (decision 018-a), joined beside the work order's own. */
const possibleCustomer = alias(customers, 'possible_customer');
export type CustomerRow = typeof customers.$inferSelect;
export type TaskRow = typeof workOrderTasks.$inferSelect;
export type InspectionReportRow = typeof inspectionReports.$inferSelect;
export type NewWorkOrder = Pick<
  typeof workOrders.$inferInsert,
  'customerId' | 'title' | 'serviceType' | 'priority' | 'serviceDate' | 'timePreference' | 'description' | 'notes' | 'technicianId' | 'estimateRequestId'
> &
  Partial<Pick<typeof workOrders.$inferInsert, 'serviceAddress' | 'serviceCity' | 'serviceState' | 'serviceZip'>> &
  Partial<Pick<typeof workOrders.$inferInsert, 'scheduledStartTime' | 'scheduledEndTime' | 'estimatedDuration'>> & { scheduledDate?: SQL };

/** Where the job is (shared/work-order-place.ts): the work order's own service address and the customer's. */
export const serviceAddressColumns = {
  serviceAddress: workOrders.serviceAddress,
  serviceCity: workOrders.serviceCity,
  serviceState: workOrders.serviceState,
  serviceZip: workOrders.serviceZip,
};
/** The customer as the list and the calendar show them: the street is their address's line there, as before. */
export const customerPlaceColumns = { id: customers.id, name: customers.name, phone: customers.phone, address: customers.address };

/** The list's columns, its page read as one JSON text (`jsonRows`, decision 026-a). */
const listColumns = jsonColumns({
  id: workOrders.id,
  workOrderNumber: workOrders.workOrderNumber,
  title: workOrders.title,
  description: workOrders.description,
  status: workOrders.status,
  priority: workOrders.priority,
  serviceType: workOrders.serviceType,
  serviceDate: workOrders.serviceDate,
  updatedAt: workOrders.updatedAt,
  ...serviceAddressColumns,
  customer: customerPlaceColumns,
});
/** A row of the list's page as JSON gives it: `updatedAt` is ISO 8601 text, `serviceDate` YYYY-MM-DD. */
export type WorkOrderListRow = Pick<
  WorkOrderRow,
  'id' | 'workOrderNumber' | 'title' | 'description' | 'status' | 'priority' | 'serviceType' | 'serviceDate' | keyof typeof serviceAddressColumns
> & { updatedAt: string; customer: Pick<CustomerRow, keyof typeof customerPlaceColumns> };

/** Newest service date first, then newest created: work_orders_list_order_idx (and its per-status twin) in index order. */
const newestFirst = [desc(workOrders.serviceDate), desc(workOrders.createdAt), desc(workOrders.id)];

/**
 * A search for a common word (more than searchCountCap matches) looks for the page among this
 * many of the newest work orders first, in index order, stopping at the page's end; should they
 * hold too few matches, it sorts all matches as a rarer word does.
 */
export const searchRecentWindow = 2_000;
/** Search totals are counted up to this many matches; beyond it the list says "1,000+" (server/db/count-cap.ts). */
export const searchCountCap = countCap;

/**
 * Title, description, number, customer name or customer phone contains the text, any case: one
 * `like` on work_order_search's text (those five lower-cased, joined by U+001F; migration
 * 0028_search_tables, decision 023-a), served by its one trigram index. `ilike` lower-cases both
 * sides with lower(), so `lower(pattern)` on the lower-cased text matches the same rows; only a
 * search that itself contains U+001F could match across two fields.
 */
function textMatch(search: string, column: SQL | typeof workOrderSearch.searchText = workOrderSearch.searchText): SQL {
  return sql`${column} like lower(${containsPattern(search)})`;
}

const searchStatusFilter = (status: WorkOrderStatus | 'all') => (status === 'all' ? undefined : eq(workOrderSearch.status, status));
/** The list's order on work_order_search: work_order_search_order_idx (and its per-status twin). */
const searchNewestFirst = sql`${workOrderSearch.serviceDate} desc, ${workOrderSearch.createdAt} desc, ${workOrderSearch.workOrderId} desc`;

/**
 * A common word is counted only this far (decision 024-b): "100+" rather than "1,000+", since
 * counting 1,001 matches was half of its statement. Rarer words are still counted to searchCountCap.
 */
export const searchCommonCount = 100;
/**
 * A word is common when its first searchCommonCount + 1 matches, taken in the table's physical
 * order, all lie in the first 1/searchCommonSpread of work_order_search's pages: about
 * searchCommonCount x searchCommonSpread matches or more if they are spread evenly. This only picks
 * the cheaper plan; what the answer says is counted either way.
 */
export const searchCommonSpread = 20;

/**
 * The CTEs `matching`, `sampled` and `counted` (see searchPageWithCount): `counted` is one row, the
 * matches counted (searchCommonCount + 1 for a common word, else up to searchCountCap + 1) and
 * whether the word is common.
 */
function countedMatches(status: WorkOrderStatus | 'all', search: string): SQL {
  const matchWhere = and(searchStatusFilter(status), textMatch(search));
  return sql.join(
    [
      sql`"matching" as (select ${workOrderSearch.workOrderId}, ${workOrderSearch.serviceDate}, ${workOrderSearch.createdAt}, ${workOrderSearch}.ctid from ${workOrderSearch}`,
      sql`where ${matchWhere} limit ${searchCountCap + 1}),`,
      // The CTE is read only as far as asked: a common word's scan stops at its first few matches.
      sql`"sampled" as materialized (select coalesce((select (("beyond".ctid::text::point)[0] + 1) * ${searchCommonSpread} <= "pages".relpages`,
      sql`from (select "matching".ctid from "matching" offset ${searchCommonCount} limit 1) as "beyond", pg_class as "pages" where "pages".oid = 'work_order_search'::regclass), false) as "common"),`,
      sql`"counted" as materialized (select case when "sampled"."common" then ${searchCommonCount + 1} else (select count(*)::int from "matching") end as "matches", "sampled"."common" from "sampled")`,
    ],
    sql` `,
  );
}

/**
 * One statement for a search's page and its matches counted (decisions 023-a, 024-b). `matching`
 * reads the matches from the trigram index (a bitmap scan: in the table's physical order) only as
 * far as it is asked; `sampled` asks for the first searchCommonCount + 1 and looks at the heap page
 * the last of them came from, against the table's size as the planner knows it (pg_class.relpages,
 * set by the last vacuum or analyze; 0 before any, which never calls a word common). A common word (more than searchCommonCount of them, from the first twentieth of the
 * table) is counted no further, and its page is read from the newest `searchRecentWindow` work
 * orders in index order, stopping at the page's end (exact whenever it fills the page, since every
 * work order outside the window comes later). Any other word's matches are counted up to
 * searchCountCap + 1 (`matching`, as before): under the cap its page is those matches sorted, past
 * it the page is read from the window as for a common word. Only the branch the counts pick runs;
 * `withRecent` false (a page past the window) leaves the window out, and an empty answer tells
 * nothing about the count.
 */
function searchPageWithCount(status: WorkOrderStatus | 'all', search: string, page: number, pageSize: number, withRecent: boolean): SQL {
  const offset = (page - 1) * pageSize;
  const statusWhere = status === 'all' ? undefined : sql`where ${searchStatusFilter(status)}`;
  const parts = [
    sql`(with ${countedMatches(status, search)}`,
    sql`select "ids"."work_order_id", "counted"."matches", "counted"."common" from "counted" cross join lateral (`,
    sql`(select "matching"."work_order_id" from "matching" where not "counted"."common" and "counted"."matches" <= ${searchCountCap}`,
    sql`order by "matching"."service_date" desc, "matching"."created_at" desc, "matching"."work_order_id" desc limit ${pageSize} offset ${offset})`,
    ...(withRecent
      ? [
          sql`union all (select "recent"."work_order_id" from (select ${workOrderSearch.workOrderId}, ${workOrderSearch.searchText} from ${workOrderSearch}`,
          ...(statusWhere ? [statusWhere] : []),
          sql`order by ${searchNewestFirst} limit ${searchRecentWindow}) as "recent"`,
          sql`where ("counted"."common" or "counted"."matches" > ${searchCountCap}) and ${textMatch(search, sql`"recent"."search_text"`)} limit ${pageSize} offset ${offset})`,
        ]
      : []),
    sql`) as "ids") as "page"`,
  ];
  return sql.join(parts, sql` `);
}

/** A page of all matches, sorted (a common word whose newest work orders hold too few of them). */
function searchPageOfAll(status: WorkOrderStatus | 'all', search: string, page: number, pageSize: number): SQL {
  return sql`(select ${workOrderSearch.workOrderId}, 0 as "matches", false as "common" from ${workOrderSearch} where ${and(searchStatusFilter(status), textMatch(search))} order by ${searchNewestFirst} limit ${pageSize} offset ${(page - 1) * pageSize}) as "page"`;
}

const statusFilter = (status: WorkOrderStatus | 'all') => (status === 'all' ? undefined : eq(workOrders.status, status));

/** The stored updated_at to the millisecond: what the client saw (JSON dates carry milliseconds, PostgreSQL keeps microseconds). */
const versionMatches = (expectedUpdatedAt: string) =>
  sql`date_trunc('milliseconds', ${workOrders.updatedAt}) = ${expectedUpdatedAt}::timestamptz`;

export function createWorkOrderRepository(db: DbExecutor) {
  const queries = {
    listPage: (status: WorkOrderStatus | 'all', page: number, pageSize: number) =>
      db
        .select(listColumns)
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .where(statusFilter(status))
        .orderBy(...newestFirst)
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    /**
     * A page of matches with `matches`, their number counted up to searchCountCap + 1 (`first`: one
     * statement, see searchPageWithCount), or a page of all matches sorted (`all`).
     */
    searchPage: (from: 'first' | 'all', status: WorkOrderStatus | 'all', search: string, page: number, pageSize: number) => {
      const ids = from === 'first' ? searchPageWithCount(status, search, page, pageSize, page * pageSize <= searchRecentWindow) : searchPageOfAll(status, search, page, pageSize);
      return db
        .select({ ...listColumns, ...jsonColumns({ matches: sql`"page"."matches"`, common: sql`"page"."common"` }) })
        .from(ids)
        .innerJoin(workOrders, eq(workOrders.id, sql`"page"."work_order_id"`))
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .orderBy(...newestFirst);
    },
    /** Without a search, the kept per-status counts (work_order_status_counts: five rows at most). */
    listTotal: (status: WorkOrderStatus | 'all') =>
      db
        .select({ total: sql<number>`coalesce(sum(${workOrderStatusCounts.count}), 0)::int` })
        .from(workOrderStatusCounts)
        .where(status === 'all' ? undefined : eq(workOrderStatusCounts.status, status)),
    /** With one, the matches counted as the page's statement counts them (without the page), and whether the word is common. */
    searchTotal: (status: WorkOrderStatus | 'all', search: string) =>
      db.execute<{ matches: number; common: boolean }>(sql`with ${countedMatches(status, search)} select "counted"."matches", "counted"."common" from "counted"`),
    // The detail's three reads take a value or a placeholder: they are also prepared once, below.
    detail: (id: string | Placeholder) =>
      db
        .select({
          workOrder: workOrders,
          customer: customers,
          technician: { id: technicians.id, name: technicians.name, color: technicians.color },
          equipment: equipmentColumns,
          possibleMatch: {
            id: possibleCustomer.id,
            name: possibleCustomer.name,
            phone: possibleCustomer.phone,
            email: possibleCustomer.email,
            address: possibleCustomer.address,
            city: possibleCustomer.city,
            state: possibleCustomer.state,
            zip: possibleCustomer.zip,
          },
        })
        .from(workOrders)
        .innerJoin(customers, eq(customers.id, workOrders.customerId))
        .leftJoin(technicians, eq(technicians.id, workOrders.technicianId))
        .leftJoin(equipment, eq(equipment.id, workOrders.equipmentId))
        .leftJoin(possibleCustomer, eq(possibleCustomer.id, workOrders.possibleCustomerId))
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
    // The technician app's record (issue 19): the completion and the technician's notes.
    completion: (workOrderId: string) => db.select().from(visitCompletions).where(eq(visitCompletions.workOrderId, workOrderId)),
    techNotes: (workOrderId: string) =>
      db.select().from(workOrderNotes).where(eq(workOrderNotes.workOrderId, workOrderId)).orderBy(asc(workOrderNotes.createdAt), asc(workOrderNotes.id)),
    // Its own history (the timeline's steps): the newest entries, by audit_log_entity_idx.
    history: (workOrderId: string) =>
      db
        .select({ action: auditLog.action, actorName: auditLog.actorName, occurredAt: auditLog.occurredAt, changes: auditLog.changes })
        .from(auditLog)
        .where(and(eq(auditLog.entityType, 'work_order'), eq(auditLog.entityId, workOrderId)))
        .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
        .limit(workOrderStepsCap),
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

    /**
     * A page and the number of all matches. Without a search: the page in index order and `total`,
     * told the page's snapshot (the kept counts, listTotal, or an answer kept for that snapshot;
     * skipped when a partly filled page already tells the total). With one: one statement
     * counts the matches up to the cap and reads the page: under the cap the few matches sorted on
     * their own, past it (a common word) the newest work orders in index order (decision 023-a).
     */
    async list(status: WorkOrderStatus | 'all', search: string, page: number, pageSize: number, total: (snapshot: string) => Promise<number>) {
      if (!search) {
        const { rows, snapshot } = await jsonRows<WorkOrderListRow>(db, queries.listPage(status, page, pageSize));
        if (rows.length > 0 && rows.length < pageSize) return { rows, total: (page - 1) * pageSize + rows.length, totalCapped: false };
        return { rows, total: await total(snapshot), totalCapped: false };
      }
      const searchPage = async (from: 'first' | 'all') =>
        (await jsonRows<WorkOrderListRow & { matches: number; common: boolean }>(db, queries.searchPage(from, status, search, page, pageSize))).rows;
      const first = await searchPage('first');
      // An empty page (no match, or past the end or the window) carries no count: count alone.
      const counted = first[0] ?? (await queries.searchTotal(status, search)).rows[0];
      const matches = Number(counted?.matches ?? 0);
      const cap = counted?.common ? searchCommonCount : searchCountCap;
      const totalCapped = matches > cap;
      // Past the cap the window may hold too few matches for the page: all matches sorted then.
      const found = first.length < pageSize && totalCapped ? await searchPage('all') : first;
      const rows = found.map(({ matches: _matches, common: _common, ...row }) => row);
      // Past the cap the total is a lower bound: the cap, or the matches up to the end of this page.
      const seen = rows.length > 0 ? (page - 1) * pageSize + rows.length : 0;
      return { rows, total: totalCapped ? Math.max(cap, seen) : matches, totalCapped };
    },

    /** The work orders of a status, or all, from the kept per-status counts. */
    async listTotal(status: WorkOrderStatus | 'all'): Promise<number> {
      const [counted] = await queries.listTotal(status);
      return counted?.total ?? 0;
    },

    async detail(id: string) {
      const prepared = statements();
      const [rows, reports, tasks, completions, techNotes, history] = await Promise.all([
        prepared.detail.execute({ id }),
        prepared.latestInspection.execute({ id }),
        prepared.tasks.execute({ id }),
        queries.completion(id),
        queries.techNotes(id),
        queries.history(id),
      ]);
      const row = rows[0];
      return row && { ...row, inspectionReport: reports[0], tasks, completion: completions[0], techNotes, history: history.reverse() };
    },

    async findById(id: string): Promise<WorkOrderRow | undefined> {
      return (await db.select().from(workOrders).where(eq(workOrders.id, id)))[0];
    },

    /** The work order, locked until the transaction ends (what a change is compared against). */
    async lockById(id: string): Promise<WorkOrderRow | undefined> {
      return (await db.select().from(workOrders).where(eq(workOrders.id, id)).for('update'))[0];
    },

    async insert(values: NewWorkOrder): Promise<WorkOrderRow> {
      return (await db.insert(workOrders).values({ ...values, status: 'pending' }).returning())[0]!;
    },

    async isActiveTechnician(id: string): Promise<boolean> {
      const rows = await db.select({ id: technicians.id }).from(technicians).where(and(eq(technicians.id, id), eq(technicians.active, true)));
      return rows.length > 0;
    },

    /** Whether the equipment belongs to the work order's customer. */
    async isCustomersEquipment(workOrderId: string, equipmentId: string): Promise<boolean> {
      const rows = await db
        .select({ id: equipment.id })
        .from(equipment)
        .innerJoin(workOrders, eq(workOrders.customerId, equipment.customerId))
        .where(and(eq(workOrders.id, workOrderId), eq(equipment.id, equipmentId)));
      return rows.length > 0;
    },

    /** A lead (estimate request or chat lead) that became this work order forgets it. */
    async unlinkLeads(workOrderId: string): Promise<void> {
      await db.update(estimateRequests).set({ workOrderId: null, updatedAt: sql`now()` }).where(eq(estimateRequests.workOrderId, workOrderId));
      await db.update(aiLeads).set({ workOrderId: null, updatedAt: sql`now()` }).where(eq(aiLeads.workOrderId, workOrderId));
    },

    /** Deletes the work order if it is still the version the user saw and in one of the statuses. */
    async deleteIfCurrent(id: string, expectedUpdatedAt: string, fromStatuses: readonly WorkOrderStatus[]): Promise<boolean> {
      const rows = await db
        .delete(workOrders)
        .where(and(eq(workOrders.id, id), versionMatches(expectedUpdatedAt), inArray(workOrders.status, [...fromStatuses])))
        .returning({ id: workOrders.id });
      return rows.length > 0;
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

    async lockTask(workOrderId: string, taskId: string): Promise<TaskRow | undefined> {
      const rows = await db
        .select()
        .from(workOrderTasks)
        .where(and(eq(workOrderTasks.id, taskId), eq(workOrderTasks.workOrderId, workOrderId)))
        .for('update');
      return rows[0];
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
