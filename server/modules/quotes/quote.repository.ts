import { and, asc, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { QuoteListQuery } from '#shared/quote.ts';
import type { DbExecutor } from '#server/db/client.ts';
import { cappedTotal, countCap } from '#server/db/count-cap.ts';
import { nextDocumentNumber } from '#server/db/document-counters.ts';
import { containsPattern } from '#server/db/like-pattern.ts';
import { aiLeads, auditLog, customers, estimateRequests, quoteLines, quoteOptions, quotes, workOrders } from '#server/db/schema/index.ts';
import { readDefaultTaxRatePpm } from '#server/modules/billing-settings/index.ts';

export type QuoteRow = typeof quotes.$inferSelect;
export type NewQuote = typeof quotes.$inferInsert;
export type QuoteOptionRow = typeof quoteOptions.$inferSelect;
export type QuoteLineRow = typeof quoteLines.$inferSelect;
export type NewQuoteOption = Omit<typeof quoteOptions.$inferInsert, 'quoteId'> & { lines: Omit<typeof quoteLines.$inferInsert, 'optionId'>[] };

export function createQuoteRepository(db: DbExecutor) {
  return {
    async find(id: string): Promise<QuoteRow | undefined> {
      return (await db.select().from(quotes).where(eq(quotes.id, id)))[0];
    },

    /** The quote's row, locked until the transaction ends: edits, sends and the customer's answer queue on it. */
    async lock(id: string): Promise<QuoteRow | undefined> {
      return (await db.select().from(quotes).where(eq(quotes.id, id)).for('update'))[0];
    },

    async insert(values: NewQuote): Promise<QuoteRow> {
      return (await db.insert(quotes).values(values).returning())[0]!;
    },

    async update(id: string, values: Partial<NewQuote>): Promise<QuoteRow> {
      return (
        await db
          .update(quotes)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(quotes.id, id))
          .returning()
      )[0]!;
    },

    /** The options of a quote in order, each with its lines in order. */
    async options(quoteId: string): Promise<(QuoteOptionRow & { lines: QuoteLineRow[] })[]> {
      const options = await db.select().from(quoteOptions).where(eq(quoteOptions.quoteId, quoteId)).orderBy(asc(quoteOptions.position));
      if (options.length === 0) return [];
      const lines = await db
        .select()
        .from(quoteLines)
        .where(
          inArray(
            quoteLines.optionId,
            options.map((option) => option.id),
          ),
        )
        .orderBy(asc(quoteLines.optionId), asc(quoteLines.position));
      return options.map((option) => ({ ...option, lines: lines.filter((line) => line.optionId === option.id) }));
    },

    /** Replaces a draft's options and their lines (a draft's options have no approvals pointing at them). */
    async replaceOptions(quoteId: string, options: NewQuoteOption[]): Promise<void> {
      await db.delete(quoteOptions).where(eq(quoteOptions.quoteId, quoteId));
      for (const { lines, ...option } of options) {
        const [inserted] = await db
          .insert(quoteOptions)
          .values({ ...option, quoteId })
          .returning({ id: quoteOptions.id });
        if (lines.length > 0) await db.insert(quoteLines).values(lines.map((line) => ({ ...line, optionId: inserted!.id })));
      }
    },

    nextNumber: (): Promise<number> => nextDocumentNumber(db, 'quote'),

    async customer(id: string) {
      return (await db.select().from(customers).where(eq(customers.id, id)))[0];
    },

    async workOrder(id: string | null) {
      if (!id) return undefined;
      return (await db.select().from(workOrders).where(eq(workOrders.id, id)))[0];
    },

    async workOrderNumbers(ids: (string | null)[]): Promise<Map<string, string>> {
      const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
      if (wanted.length === 0) return new Map();
      const rows = await db.select({ id: workOrders.id, number: workOrders.workOrderNumber }).from(workOrders).where(inArray(workOrders.id, wanted));
      return new Map(rows.map((row) => [row.id, row.number]));
    },

    async estimateRequest(id: string) {
      return (await db.select({ id: estimateRequests.id, customerId: estimateRequests.customerId }).from(estimateRequests).where(eq(estimateRequests.id, id)))[0];
    },

    async aiLead(id: string) {
      return (await db.select({ id: aiLeads.id, customerId: aiLeads.customerId }).from(aiLeads).where(eq(aiLeads.id, id)))[0];
    },

    defaultTaxRatePpm: (): Promise<number> => readDefaultTaxRatePpm(db),

    async history(quoteId: string) {
      return db
        .select({ action: auditLog.action, actorName: auditLog.actorName, occurredAt: auditLog.occurredAt, changes: auditLog.changes })
        .from(auditLog)
        .where(and(eq(auditLog.entityType, 'quote'), eq(auditLog.entityId, quoteId)))
        .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
        .limit(200);
    },

    /** The approved quote whose work order this is (created by or linked at approval), newest first. */
    async approvedForWorkOrder(workOrderId: string): Promise<QuoteRow | undefined> {
      return (
        await db
          .select()
          .from(quotes)
          .where(and(eq(quotes.resultingWorkOrderId, workOrderId), eq(quotes.status, 'approved')))
          .orderBy(desc(quotes.approvedAt))
          .limit(1)
      )[0];
    },

    /** A page of the Quotes screen, newest first, with the matches counted up to countCap + 1. */
    async list(query: QuoteListQuery, today: string) {
      const conditions: SQL[] = [];
      if (query.status === 'expired') {
        conditions.push(eq(quotes.status, 'sent'), lt(quotes.validUntil, today));
      } else if (query.status !== 'all') {
        conditions.push(eq(quotes.status, query.status));
      }
      if (query.customerId) conditions.push(eq(quotes.customerId, query.customerId));
      if (query.workOrderId) conditions.push(sql`(${quotes.workOrderId} = ${query.workOrderId} or ${quotes.resultingWorkOrderId} = ${query.workOrderId})`);
      if (query.search) {
        conditions.push(sql`lower(coalesce(${quotes.quoteNumber}, '') || ' ' || ${quotes.title} || ' ' || ${customers.name}) like ${containsPattern(query.search.toLowerCase())}`);
      }
      const where = conditions.length > 0 ? and(...conditions) : undefined;
      const offset = (query.page - 1) * query.pageSize;
      const totals = db
        .select({
          quoteId: quoteOptions.quoteId,
          optionCount: sql<number>`count(*)`.mapWith(Number).as('option_count'),
          lowest: sql<number>`min(${quoteOptions.totalCents})`.mapWith(Number).as('lowest'),
          highest: sql<number>`max(${quoteOptions.totalCents})`.mapWith(Number).as('highest'),
        })
        .from(quoteOptions)
        .groupBy(quoteOptions.quoteId)
        .as('option_totals');
      const approved = db.select({ id: quoteOptions.id, total: sql<number>`${quoteOptions.totalCents}`.mapWith(Number).as('approved_total') }).from(quoteOptions).as('approved_option');
      const rows = await db
        .select({
          id: quotes.id,
          quoteNumber: quotes.quoteNumber,
          status: quotes.status,
          title: quotes.title,
          customerId: quotes.customerId,
          customerName: customers.name,
          validUntil: quotes.validUntil,
          sentAt: quotes.sentAt,
          createdAt: quotes.createdAt,
          optionCount: totals.optionCount,
          lowest: totals.lowest,
          highest: totals.highest,
          approvedTotal: approved.total,
        })
        .from(quotes)
        .innerJoin(customers, eq(customers.id, quotes.customerId))
        .leftJoin(totals, eq(totals.quoteId, quotes.id))
        .leftJoin(approved, eq(approved.id, quotes.approvedOptionId))
        .where(where)
        .orderBy(sql`${quotes.createdAt} desc nulls last`, sql`${quotes.id} desc nulls last`)
        .limit(query.pageSize)
        .offset(offset);
      if (rows.length > 0 && rows.length < query.pageSize) return { rows, total: offset + rows.length, totalCapped: false };
      const [counted] = await db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(
        db
          .select({ one: sql`1` })
          .from(quotes)
          .innerJoin(customers, eq(customers.id, quotes.customerId))
          .where(where)
          .limit(countCap + 1)
          .as('matching'),
      );
      return { rows, ...cappedTotal(counted?.total ?? 0, rows.length === 0 ? 0 : offset + rows.length) };
    },
  };
}

export type QuoteRepository = ReturnType<typeof createQuoteRepository>;
