import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { aiConversations, aiLeads, customers, workOrders } from '#server/db/schema/index.ts';

export type AiLeadRow = typeof aiLeads.$inferSelect;


/** The possible-match queries (decision 018-a). Pass the transaction the resolution runs in. */
export function createCustomerMatchRepository(db: Database) {
  return {
    async findLead(id: string): Promise<AiLeadRow | undefined> {
      return (await db.select().from(aiLeads).where(eq(aiLeads.id, id)))[0];
    },

    /** The chat leads of a work order, locked until the transaction ends (after the work order: one lock order). */
    async lockLeadsOfWorkOrder(workOrderId: string): Promise<AiLeadRow[]> {
      return db.select().from(aiLeads).where(eq(aiLeads.workOrderId, workOrderId)).orderBy(aiLeads.createdAt).for('update');
    },

    async lockLead(id: string): Promise<AiLeadRow | undefined> {
      return (await db.select().from(aiLeads).where(eq(aiLeads.id, id)).for('update'))[0];
    },

    async updateLead(id: string, values: Partial<Pick<AiLeadRow, 'customerId' | 'possibleCustomerId'>>): Promise<AiLeadRow> {
      const rows = await db.update(aiLeads).set({ ...values, updatedAt: sql`now()` }).where(eq(aiLeads.id, id)).returning();
      return rows[0]!;
    },

    /** The booking's conversation rows follow its customer, so later messages of the session stay linked. */
    async moveConversation(conversationId: string, fromCustomerId: string, toCustomerId: string): Promise<void> {
      await db
        .update(aiConversations)
        .set({ customerId: toCustomerId })
        .where(and(eq(aiConversations.conversationId, conversationId), eq(aiConversations.customerId, fromCustomerId)));
    },

    async lockCustomer(id: string) {
      return (await db.select().from(customers).where(eq(customers.id, id)).for('update'))[0];
    },

    /** Whether anything at all still refers to a customer (then it is kept). */
    async isReferenced(customerId: string): Promise<boolean> {
      const result = await db.execute<{ referenced: boolean }>(sql`select (
          exists (select 1 from work_orders where customer_id = ${customerId} or possible_customer_id = ${customerId})
          or exists (select 1 from ai_leads where customer_id = ${customerId} or possible_customer_id = ${customerId})
          or exists (select 1 from ai_conversations where customer_id = ${customerId})
          or exists (select 1 from estimate_requests where customer_id = ${customerId})
          or exists (select 1 from equipment where customer_id = ${customerId})
          or exists (select 1 from customer_photos where customer_id = ${customerId})
          or exists (select 1 from geocoding_batch_items where customer_id = ${customerId})
        ) as referenced`);
      return result.rows[0]?.referenced === true;
    },

    async deleteCustomer(id: string): Promise<void> {
      await db.delete(customers).where(eq(customers.id, id));
    },

    async setWorkOrderCustomer(id: string, values: { customerId?: string; possibleCustomerId: null }) {
      const rows = await db.update(workOrders).set({ ...values, updatedAt: sql`now()` }).where(eq(workOrders.id, id)).returning();
      return rows[0]!;
    },
  };
}
