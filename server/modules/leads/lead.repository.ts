import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { leadWorkflowStages } from '#shared/enums.ts';
import type { LeadFilter } from '#shared/lead.ts';
import type { Database } from '#server/db/client.ts';
import { keysetAfter, localMinute, type KeysetCursor } from '#server/db/keyset.ts';
import { aiConversations, estimateRequests } from '#server/db/schema/index.ts';
import { cappedTotal, countCap } from '#server/db/count-cap.ts';
import { containsPattern } from '#server/db/like-pattern.ts';

export type EstimateRequestRow = typeof estimateRequests.$inferSelect;

/** One lead of either kind, as the unified query returns it (timestamps as the driver gives them). */
export type LeadRow = {
  kind: 'estimate' | 'chat';
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  serviceType: string | null;
  description: string | null;
  preferredDate: string | null;
  preferredTime: string | null;
  status: string;
  priority: string;
  source: string;
  workflowStage: string | null;
  leadScore: number | null;
  urgency: string | null;
  conversationId: string | null;
  respondedAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  customerId: string | null;
  customerName: string | null;
  customerPhone: string | null;
  customerEmail: string | null;
  customerAddress: string | null;
  workOrderId: string | null;
  workOrderNumber: string | null;
  workOrderStatus: string | null;
  /** Chat leads: the stored customer the booking's phone or e-mail matched, until staff decide (decision 018-a). */
  possibleCustomerId: string | null;
  possibleCustomerName: string | null;
  possibleCustomerPhone: string | null;
  possibleCustomerEmail: string | null;
  possibleCustomerAddress: string | null;
  possibleCustomerCity: string | null;
  possibleCustomerState: string | null;
  possibleCustomerZip: string | null;
};

/** A lead as the CSV export reads it (`LeadRow`'s fields), with its customer and work order by name and times as the company's wall clock. */
export type LeadExportRow = KeysetCursor &
  Pick<
    LeadRow,
    | 'kind'
    | 'name'
    | 'phone'
    | 'email'
    | 'address'
    | 'serviceType'
    | 'description'
    | 'preferredDate'
    | 'preferredTime'
    | 'status'
    | 'priority'
    | 'source'
    | 'workflowStage'
    | 'leadScore'
    | 'urgency'
  > & {
    received: string;
    customer: string | null;
    workOrderNumber: string | null;
    workOrderStatus: string | null;
    responded: string | null;
  };

const convertedStage = leadWorkflowStages[0];

/**
 * Estimate requests and chat leads as one relation with the same columns. A chat lead has no
 * contact fields of its own: they are its customer's. It counts as converted once it has a work
 * order or its status says so (decision 012).
 */
const unifiedLeads = sql`(
  select 'estimate' as kind, er.id, er.name, er.email, er.phone, er.address, er.service_type, er.description,
         er.preferred_date::text as preferred_date, er.preferred_time, er.status, er.priority, er.source, er.workflow_stage,
         null::integer as lead_score, null::text as urgency, null::text as conversation_id, er.responded_at,
         er.created_at, er.updated_at, er.customer_id, er.work_order_id, null::uuid as possible_customer_id
    from estimate_requests er
  union all
  select 'chat' as kind, al.id, c.name, c.email, c.phone,
         c.address || ', ' || c.city || ', ' || c.state || coalesce(' ' || c.zip, '') as address,
         al.service_type, al.notes, null::text, null::text, al.status,
         case when al.urgency in ('emergency', 'high') then 'urgent' else 'normal' end, al.source,
         case when al.status = 'converted' or al.work_order_id is not null then ${convertedStage} end,
         al.lead_score, al.urgency, al.conversation_id, null::timestamptz,
         al.created_at, al.updated_at, al.customer_id, al.work_order_id, al.possible_customer_id
    from ai_leads al left join customers c on c.id = al.customer_id
) as lead`;

const estimate = sql`lead.kind = 'estimate'`;
/** A chat lead the assistant has not booked yet. */
const openChat = sql`(lead.kind = 'chat' and lead.workflow_stage is null)`;

/** Spec 000 section 4, word for word for estimate requests; chat leads as decision 012 reads them. */
const filterRules: Record<LeadFilter, SQL | undefined> = {
  active: sql`((${estimate} and lead.status in ('pending', 'contacted', 'quoted')) or ${openChat})`,
  urgent: sql`((${estimate} and lead.priority = 'urgent' and lead.status in ('pending', 'contacted')) or (${openChat} and lead.urgency in ('emergency', 'high')))`,
  new: sql`((${estimate} and lead.status = 'pending') or ${openChat})`,
  contacted: sql`(${estimate} and lead.status = 'contacted')`,
  quoted: sql`(${estimate} and lead.status = 'quoted')`,
  converted: sql`lead.workflow_stage = ${convertedStage}`,
  all: undefined,
};

/** Case-insensitive substring over the contact fields, the description, the service type and the customer's name. */
function searchRule(search: string): SQL | undefined {
  if (!search) return undefined;
  const pattern = containsPattern(search.toLowerCase());
  const digits = search.replace(/\D/g, '');
  const text = sql`lower(coalesce(lead.name, '') || ' ' || coalesce(lead.email, '') || ' ' || coalesce(lead.phone, '') || ' ' || coalesce(lead.address, '') || ' ' || coalesce(lead.description, '') || ' ' || coalesce(lead.service_type, '') || ' ' || coalesce(customer.name, ''))`;
  // "8435550100" finds "(843) 555-0100": phone numbers are also compared by their digits.
  const byDigits = digits.length >= 4 ? sql` or regexp_replace(coalesce(lead.phone, ''), '[^0-9]', '', 'g') like ${`%${digits}%`}` : sql``;
  return sql`(${text} like ${pattern}${byDigits})`;
}

const where = (...rules: (SQL | undefined)[]) => {
  const present = rules.filter((rule): rule is SQL => rule !== undefined);
  return present.length === 0 ? sql`` : sql`where ${sql.join(present, sql` and `)}`;
};

/** The unified leads (both kinds) with their customer and work order: the screen's list and the CSV export read it. */
const fromLeads = sql`from ${unifiedLeads}
  left join customers customer on customer.id = lead.customer_id
  left join work_orders work_order on work_order.id = lead.work_order_id
  left join customers possible_customer on possible_customer.id = lead.possible_customer_id`;

type Executor = Pick<Database, 'execute'>;

async function rowsOf<Row extends Record<string, unknown>>(db: Executor, query: SQL): Promise<Row[]> {
  const result = await db.execute<Row>(query);
  return result.rows;
}

/** The stored updated_at to the millisecond: what the client saw (JSON dates carry milliseconds). */
const versionMatches = (expectedUpdatedAt: string) =>
  sql`date_trunc('milliseconds', ${estimateRequests.updatedAt}) = ${expectedUpdatedAt}::timestamptz`;

/** Every column of a LeadRow, from the union of both kinds with their customer and work order. */
const selectLeads = sql`select lead.kind, lead.id, lead.name, lead.email, lead.phone, lead.address, lead.service_type as "serviceType",
    lead.description, lead.preferred_date as "preferredDate", lead.preferred_time as "preferredTime", lead.status,
    lead.priority, lead.source, lead.workflow_stage as "workflowStage", lead.lead_score as "leadScore", lead.urgency,
    lead.conversation_id as "conversationId", lead.responded_at as "respondedAt", lead.created_at as "createdAt",
    lead.updated_at as "updatedAt", customer.id as "customerId", customer.name as "customerName",
    customer.phone as "customerPhone", customer.email as "customerEmail", customer.address as "customerAddress",
    work_order.id as "workOrderId", work_order.work_order_number as "workOrderNumber", work_order.status as "workOrderStatus",
    possible_customer.id as "possibleCustomerId", possible_customer.name as "possibleCustomerName",
    possible_customer.phone as "possibleCustomerPhone", possible_customer.email as "possibleCustomerEmail",
    possible_customer.address as "possibleCustomerAddress", possible_customer.city as "possibleCustomerCity",
    possible_customer.state as "possibleCustomerState", possible_customer.zip as "possibleCustomerZip"
  ${fromLeads}`;

export function createLeadRepository(db: Database) {
  return {
    /**
     * A page of leads of both kinds, newest first, and the number of matches: exact from a last
     * page that is neither full nor empty, else counted up to countCap + 1 (past it `totalCapped`).
     */
    async list(
      filter: LeadFilter,
      search: string,
      page: number,
      pageSize: number,
    ): Promise<{ rows: LeadRow[]; total: number; totalCapped: boolean }> {
      const conditions = where(filterRules[filter], searchRule(search));
      const rows = await rowsOf<LeadRow>(
        db,
        sql`${selectLeads} ${conditions}
             order by lead.created_at desc, lead.id desc
             limit ${pageSize} offset ${(page - 1) * pageSize}`,
      );
      if (rows.length > 0 && rows.length < pageSize) return { rows, total: (page - 1) * pageSize + rows.length, totalCapped: false };
      const [counted] = await rowsOf<{ total: number | string }>(
        db,
        sql`select count(*) as total from (select 1 ${fromLeads} ${conditions} limit ${countCap + 1}) as matching`,
      );
      return { rows, ...cappedTotal(Number(counted?.total ?? 0), rows.length === 0 ? 0 : (page - 1) * pageSize + rows.length) };
    },

    async findLead(kind: 'estimate' | 'chat', id: string): Promise<LeadRow | undefined> {
      const rows = await rowsOf<LeadRow>(
        db,
        sql`${selectLeads} where lead.kind = ${kind} and lead.id = ${id}`,
      );
      return rows[0];
    },

    /**
     * A page of the CSV export (decision 017-e): newest first as the screen, in keyset order
     * ((created_at, id) before the cursor), timestamps as the company's wall clock.
     */
    exportPage(timeZone: string, cursor: KeysetCursor | undefined, limit: number): Promise<LeadExportRow[]> {
      return rowsOf(
        db,
        sql`select lead.kind, lead.id, lead.created_at::text as cursor, ${localMinute(sql`lead.created_at`, timeZone)} as received,
                   lead.name, lead.phone, lead.email, lead.address, lead.service_type as "serviceType", lead.description,
                   lead.preferred_date as "preferredDate", lead.preferred_time as "preferredTime", lead.status, lead.priority,
                   lead.source, lead.workflow_stage as "workflowStage", lead.lead_score as "leadScore", lead.urgency,
                   customer.name as customer, work_order.work_order_number as "workOrderNumber", work_order.status as "workOrderStatus",
                   ${localMinute(sql`lead.responded_at`, timeZone)} as responded
              ${fromLeads}
              ${keysetAfter(sql`lead.created_at`, sql`lead.id`, cursor, '<')}
             order by lead.created_at desc, lead.id desc
             limit ${limit}`,
      );
    },

    /** The last `limit` exchanges of a chat session, oldest first. */
    async conversation(conversationId: string, limit: number) {
      const rows = await db
        .select({ userMessage: aiConversations.userMessage, aiResponse: aiConversations.aiResponse, intent: aiConversations.intent, createdAt: aiConversations.createdAt })
        .from(aiConversations)
        .where(eq(aiConversations.conversationId, conversationId))
        .orderBy(desc(aiConversations.createdAt), desc(aiConversations.id))
        .limit(limit);
      return rows.reverse();
    },

    /** Every tab's count and the metrics' raw figures, in one pass over each table. */
    async stats() {
      const countOf = (filter: LeadFilter) => {
        const rule = filterRules[filter];
        return rule ? sql`count(*) filter (where ${rule})` : sql`count(*)`;
      };
      const [counts] = await rowsOf<Record<LeadFilter, number | string>>(
        db,
        sql`select ${countOf('active')} as active, ${countOf('urgent')} as urgent, ${countOf('new')} as new,
                   ${countOf('contacted')} as contacted, ${countOf('quoted')} as quoted, ${countOf('converted')} as converted,
                   ${countOf('all')} as "all"
              from ${unifiedLeads}`,
      );
      const [metrics] = await rowsOf<{
        estimateRequests: number | string;
        converted: number | string;
        responded: number | string;
        averageResponseSeconds: number | string | null;
      }>(
        db,
        sql`select count(*) as "estimateRequests",
                   count(*) filter (where workflow_stage = ${convertedStage}) as converted,
                   count(responded_at) as responded,
                   avg(extract(epoch from (responded_at - created_at))) as "averageResponseSeconds"
              from estimate_requests`,
      );
      const [chat] = await rowsOf<{ total: number | string }>(db, sql`select count(*) as total from ai_leads`);
      return { counts: counts!, metrics: metrics!, chatLeads: Number(chat?.total ?? 0) };
    },

    async findEstimateRequest(id: string): Promise<EstimateRequestRow | undefined> {
      return (await db.select().from(estimateRequests).where(eq(estimateRequests.id, id)))[0];
    },

    /** The request, locked until the transaction ends: a second conversion waits here, then sees the first. */
    async lockEstimateRequest(id: string): Promise<EstimateRequestRow | undefined> {
      return (await db.select().from(estimateRequests).where(eq(estimateRequests.id, id)).for('update'))[0];
    },

    /**
     * Check and update in one statement: only the version the client saw changes. The first move
     * away from pending is remembered (responded_at) and never moved later.
     */
    async updateStatusIfCurrent(id: string, status: string, expectedUpdatedAt: string): Promise<EstimateRequestRow | undefined> {
      const rows = await db
        .update(estimateRequests)
        .set({
          status,
          respondedAt: status === 'pending' ? sql`${estimateRequests.respondedAt}` : sql`coalesce(${estimateRequests.respondedAt}, now())`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(estimateRequests.id, id), versionMatches(expectedUpdatedAt)))
        .returning();
      return rows[0];
    },

    /**
     * A lead another module makes for the office (a plan sign-up from the site, decision 027-b): an
     * estimate request from the website, listed on the Leads screen and its live updates like one.
     */
    async insertWebsiteLead(values: Pick<typeof estimateRequests.$inferInsert, 'name' | 'email' | 'phone' | 'address' | 'serviceType' | 'description' | 'priority'>): Promise<EstimateRequestRow> {
      return (await db.insert(estimateRequests).values({ ...values, status: 'pending', source: 'website' }).returning())[0]!;
    },

    /** The office settled such a lead elsewhere (a sign-up confirmed or declined): its status, and the customer it became. */
    async settleLead(id: string, values: { status: string; customerId?: string | null }): Promise<EstimateRequestRow | undefined> {
      const rows = await db
        .update(estimateRequests)
        .set({ ...values, respondedAt: sql`coalesce(${estimateRequests.respondedAt}, now())`, updatedAt: sql`now()` })
        .where(eq(estimateRequests.id, id))
        .returning();
      return rows[0];
    },

    /** Marks the request converted, unless it already is (the conditional update is the last guard). */
    async markConverted(id: string, values: Pick<PgUpdateSetSource<typeof estimateRequests>, 'customerId' | 'workOrderId' | 'status'>) {
      const rows = await db
        .update(estimateRequests)
        .set({
          ...values,
          workflowStage: convertedStage,
          respondedAt: sql`coalesce(${estimateRequests.respondedAt}, now())`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(estimateRequests.id, id), isNull(estimateRequests.workflowStage)))
        .returning();
      return rows[0];
    },
  };
}

export type LeadRepository = ReturnType<typeof createLeadRepository>;
