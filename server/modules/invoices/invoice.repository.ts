import { and, asc, desc, eq, gte, inArray, lt, lte, ne, sql, type SQL } from 'drizzle-orm';
import { addDays } from '#shared/dates.ts';
import { statusForPaid, type InvoiceListQuery } from '#shared/invoice.ts';
import type { DbExecutor } from '#server/db/client.ts';
import { cappedTotal, countCap } from '#server/db/count-cap.ts';
import { nextDocumentNumber } from '#server/db/document-counters.ts';
import { readBillingSettings, readDefaultTaxRatePpm } from '#server/modules/billing-settings/index.ts';
import { containsPattern } from '#server/db/like-pattern.ts';
import { jsonColumns, jsonRows } from '#server/db/json-rows.ts';
import {
  auditLog,
  customers,
  invoiceLines,
  invoices,
  payments,
  visitCompletions,
  workOrders,
} from '#server/db/schema/index.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type NewInvoiceLine = typeof invoiceLines.$inferInsert;
export type PaymentRow = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;

/** A row of the Invoices screen's page (`jsonRows`: `createdAt` is ISO 8601 text). */
export type InvoiceListRow = {
  id: string;
  kind: string;
  invoiceNumber: string | null;
  status: string;
  customerId: string;
  billingName: string;
  issuedOn: string | null;
  dueOn: string | null;
  totalCents: number;
  paidCents: number;
  balanceCents: number | null;
  createdAt: string;
};

const listColumns = {
  id: invoices.id,
  kind: invoices.kind,
  invoiceNumber: invoices.invoiceNumber,
  status: invoices.status,
  customerId: invoices.customerId,
  billingName: invoices.billingName,
  issuedOn: invoices.issuedOn,
  dueOn: invoices.dueOn,
  totalCents: invoices.totalCents,
  paidCents: invoices.paidCents,
  balanceCents: invoices.balanceCents,
  createdAt: invoices.createdAt,
};

const openStatuses = ['sent', 'partially_paid'];

/** The conditions and order of an Invoices screen list (its page and its count share them). */
function listFilter(query: InvoiceListQuery, today: string) {
  const conditions: SQL[] = [];
  if (query.status === 'overdue') {
    conditions.push(inArray(invoices.status, openStatuses), lt(invoices.dueOn, today));
  } else if (query.status !== 'all') {
    conditions.push(eq(invoices.status, query.status));
  }
  if (query.kind) conditions.push(eq(invoices.kind, query.kind));
  if (query.customerId) conditions.push(eq(invoices.customerId, query.customerId));
  if (query.search) {
    // The stored column of invoices_search_trgm_idx, so the trigram index can serve it.
    conditions.push(sql`${invoices.searchText} like ${containsPattern(query.search.toLowerCase())}`);
  }
  if (query.issuedFrom) conditions.push(gte(invoices.issuedOn, query.issuedFrom));
  if (query.issuedTo) conditions.push(lte(invoices.issuedOn, query.issuedTo));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const order =
    query.status === 'overdue'
      ? // Most overdue first, through invoices_open_due_idx (the office chases the oldest first).
        [asc(invoices.dueOn), asc(invoices.id)]
      : // "desc nulls last": the order of invoices_list_order_idx and its per-status twin exactly, or the planner sorts all rows.
        [sql`${invoices.createdAt} desc nulls last`, sql`${invoices.id} desc nulls last`];
  return { where, order };
}

export function createInvoiceRepository(db: DbExecutor) {
  return {
    async find(id: string): Promise<InvoiceRow | undefined> {
      return (await db.select().from(invoices).where(eq(invoices.id, id)))[0];
    },

    /** The invoice's row, locked until the transaction ends: payments, refunds and state changes queue on it. */
    async lock(id: string): Promise<InvoiceRow | undefined> {
      return (await db.select().from(invoices).where(eq(invoices.id, id)).for('update'))[0];
    },

    async insert(values: NewInvoice): Promise<InvoiceRow> {
      return (await db.insert(invoices).values(values).returning())[0]!;
    },

    async update(id: string, values: Partial<NewInvoice>): Promise<InvoiceRow> {
      return (
        await db
          .update(invoices)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(invoices.id, id))
          .returning()
      )[0]!;
    },

    /**
     * Moves an invoice's paid figure by `delta` and its status by the balance, in the payment's
     * transaction (decision 024-c: paid_cents is kept here, never recomputed apart). A void invoice
     * stays void (money that arrives after a void is on record for the office to refund).
     */
    async movePaid(row: InvoiceRow, delta: number, at: Date): Promise<InvoiceRow> {
      const paidCents = row.paidCents + delta;
      const status = statusForPaid(row.totalCents, paidCents);
      const values: Partial<NewInvoice> = row.status === 'void' || row.status === 'draft' ? { paidCents } : { paidCents, status, paidAt: status === 'paid' ? (row.paidAt ?? at) : null };
      return (
        await db
          .update(invoices)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(invoices.id, row.id))
          .returning()
      )[0]!;
    },

    async lines(invoiceId: string): Promise<InvoiceLineRow[]> {
      return db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId)).orderBy(asc(invoiceLines.position));
    },

    async replaceLines(invoiceId: string, lines: Omit<NewInvoiceLine, 'invoiceId'>[]): Promise<void> {
      await db.delete(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId));
      if (lines.length > 0) await db.insert(invoiceLines).values(lines.map((line) => ({ ...line, invoiceId })));
    },

    /** The next gapless number of a kind (server/db/document-counters.ts). */
    nextNumber: (kind: 'invoice' | 'credit_note'): Promise<number> => nextDocumentNumber(db, kind),

    async customer(id: string) {
      return (await db.select().from(customers).where(eq(customers.id, id)))[0];
    },

    async workOrder(id: string) {
      const rows = await db
        .select({ workOrder: workOrders, materials: visitCompletions.materials, summary: visitCompletions.summary })
        .from(workOrders)
        .leftJoin(visitCompletions, eq(visitCompletions.workOrderId, workOrders.id))
        .where(eq(workOrders.id, id));
      return rows[0];
    },

    async workOrderNumber(id: string | null) {
      if (!id) return undefined;
      return (await db.select({ number: workOrders.workOrderNumber, status: workOrders.status, customerId: workOrders.customerId }).from(workOrders).where(eq(workOrders.id, id)))[0];
    },

    async numberOf(id: string | null): Promise<string | null> {
      if (!id) return null;
      return (await db.select({ number: invoices.invoiceNumber }).from(invoices).where(eq(invoices.id, id)))[0]?.number ?? null;
    },

    /** Terms, footer and the default tax rate, from Settings -> Billing (the defaults while none were saved). */
    async settings() {
      const [settings, defaultTaxRatePpm] = await Promise.all([readBillingSettings(db), readDefaultTaxRatePpm(db)]);
      return { paymentTermsDays: settings.paymentTermsDays, invoiceFooter: settings.invoiceFooter, defaultTaxRatePpm };
    },

    async payments(invoiceId: string) {
      return db
        .select({ payment: payments, creditNoteNumber: invoices.invoiceNumber })
        .from(payments)
        .leftJoin(invoices, eq(invoices.id, payments.creditNoteId))
        .where(eq(payments.invoiceId, invoiceId))
        .orderBy(asc(payments.createdAt), asc(payments.id));
    },

    async payment(id: string): Promise<PaymentRow | undefined> {
      return (await db.select().from(payments).where(eq(payments.id, id)))[0];
    },

    async paymentByIdempotencyKey(key: string): Promise<PaymentRow | undefined> {
      return (await db.select().from(payments).where(eq(payments.idempotencyKey, key)))[0];
    },

    async refundedOf(paymentId: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<number>`coalesce(sum(${payments.amountCents}), 0)`.mapWith(Number) })
        .from(payments)
        .where(and(eq(payments.refundOfPaymentId, paymentId), eq(payments.kind, 'refund')));
      return row?.total ?? 0;
    },

    async insertPayment(values: NewPayment): Promise<PaymentRow> {
      return (await db.insert(payments).values(values).returning())[0]!;
    },

    /** The credit notes issued against an invoice (void ones included, for the record). */
    async creditNotesOf(invoiceId: string): Promise<InvoiceRow[]> {
      return db
        .select()
        .from(invoices)
        .where(and(eq(invoices.creditedInvoiceId, invoiceId), eq(invoices.kind, 'credit_note')))
        .orderBy(asc(invoices.createdAt));
    },

    /** What the non-void credit notes of an invoice add up to. */
    async creditedTotal(invoiceId: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<number>`coalesce(sum(${invoices.totalCents}), 0)`.mapWith(Number) })
        .from(invoices)
        .where(and(eq(invoices.creditedInvoiceId, invoiceId), ne(invoices.status, 'void')));
      return row?.total ?? 0;
    },

    async history(invoiceId: string) {
      return db
        .select({ action: auditLog.action, actorName: auditLog.actorName, occurredAt: auditLog.occurredAt, changes: auditLog.changes })
        .from(auditLog)
        .where(and(eq(auditLog.entityType, 'invoice'), eq(auditLog.entityId, invoiceId)))
        .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
        .limit(200);
    },

    /**
     * A page of the Invoices screen, newest first (invoices_list_order_idx / its per-status twin;
     * overdue ones by due date, oldest first, through invoices_open_due_idx). The total, when the
     * page alone does not tell it, is `count`, told the page's snapshot (a kept count, or listCount).
     */
    async list(query: InvoiceListQuery, today: string, count: (snapshot: string) => Promise<number>) {
      const { where, order } = listFilter(query, today);
      const offset = (query.page - 1) * query.pageSize;
      const { rows, snapshot } = await jsonRows<InvoiceListRow>(
        db,
        db.select(jsonColumns(listColumns)).from(invoices).where(where).orderBy(...order).limit(query.pageSize).offset(offset),
      );
      if (rows.length > 0 && rows.length < query.pageSize) return { rows, total: offset + rows.length, totalCapped: false };
      return { rows, ...cappedTotal(await count(snapshot), rows.length === 0 ? 0 : offset + rows.length) };
    },

    /** The invoices a list's filters match, counted up to countCap + 1 (server/db/count-cap.ts). */
    async listCount(query: InvoiceListQuery, today: string): Promise<number> {
      const { where, order } = listFilter(query, today);
      const [counted] = await db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(
        db
          .select({ one: sql`1` })
          .from(invoices)
          .where(where)
          // In the page's order without a search: the count walks the page's index (an
          // index-only scan of the per-status index) instead of a bitmap over two indexes. With
          // one, any order: the trigram index's matches stop at the cap without a sort.
          .orderBy(...(query.search ? [] : order))
          .limit(countCap + 1)
          .as('matching'),
      );
      return counted?.total ?? 0;
    },

    /**
     * The A/R figures in one statement: the open invoices through invoices_open_due_idx (its
     * predicate is repeated so the planner uses it), money received this month by received date.
     */
    async receivables(today: string, monthStart: string, nextMonthStart: string) {
      const open = sql`${invoices.status} in ('sent', 'partially_paid')`;
      // Days past due d: due on today - d. A bucket [from, to] is due on or after today - to and before today - from + 1.
      const pastDue = (from: number, to: number | null) =>
        to === null
          ? sql`${invoices.dueOn} < ${addDays(today, -(from - 1))}`
          : sql`${invoices.dueOn} < ${addDays(today, -(from - 1))} and ${invoices.dueOn} >= ${addDays(today, -to)}`;
      const result = await db.execute<{
        unpaid: string | null;
        open_count: string;
        overdue: string | null;
        overdue_count: string;
        current: string | null;
        d0: string | null;
        d31: string | null;
        d61: string | null;
        d90: string | null;
        paid_month: string | null;
      }>(sql`
        select o.*, (
          select coalesce(sum(case when ${payments.kind} = 'payment' then ${payments.amountCents} else -${payments.amountCents} end), 0)
          from ${payments}
          where ${payments.receivedOn} >= ${monthStart} and ${payments.receivedOn} < ${nextMonthStart} and ${payments.method} <> 'credit_note'
        ) as paid_month
        from (
          select
            coalesce(sum(${invoices.balanceCents}), 0) as unpaid,
            count(*) as open_count,
            coalesce(sum(${invoices.balanceCents}) filter (where ${invoices.dueOn} < ${today}), 0) as overdue,
            count(*) filter (where ${invoices.dueOn} < ${today}) as overdue_count,
            coalesce(sum(${invoices.balanceCents}) filter (where ${invoices.dueOn} >= ${today}), 0) as current,
            coalesce(sum(${invoices.balanceCents}) filter (where ${pastDue(1, 30)}), 0) as d0,
            coalesce(sum(${invoices.balanceCents}) filter (where ${pastDue(31, 60)}), 0) as d31,
            coalesce(sum(${invoices.balanceCents}) filter (where ${pastDue(61, 90)}), 0) as d61,
            coalesce(sum(${invoices.balanceCents}) filter (where ${pastDue(91, null)}), 0) as d90
          from ${invoices}
          where ${open}
        ) as o`);
      const row = result.rows[0]!;
      const n = (value: string | number | null) => Number(value ?? 0);
      return {
        unpaidCents: n(row.unpaid),
        openCount: n(row.open_count),
        overdueCents: n(row.overdue),
        overdueCount: n(row.overdue_count),
        aging: { current: n(row.current), days0to30: n(row.d0), days31to60: n(row.d31), days61to90: n(row.d61), days90plus: n(row.d90) },
        paidThisMonthCents: n(row.paid_month),
      };
    },
  };
}

export type InvoiceRepository = ReturnType<typeof createInvoiceRepository>;
