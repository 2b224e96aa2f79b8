import { and, desc, eq, isNotNull, type SQL } from 'drizzle-orm';
import { adminNotifications, aiConversations, aiLeads, customers, workOrders } from '#server/db/schema/index.ts';
import type { ChatTurn } from '#server/adapters/chat/chat-responder.ts';
import type { Database, RepositoryFactory } from '#server/db/client.ts';
import type { CustomerRepository } from '#server/modules/customers/index.ts';


/** `customerRepository` is the customers module's factory, given by app.ts through the chat service. */
export function createChatRepository(db: Database, customerRepository: RepositoryFactory<CustomerRepository>) {
  return {
    /** The customer this chat session booked as, if it did (the server's record, not the browser's word). */
    async customerForSession(sessionId: string): Promise<string | undefined> {
      const rows = await db
        .select({ customerId: aiConversations.customerId })
        .from(aiConversations)
        .where(and(eq(aiConversations.conversationId, sessionId), isNotNull(aiConversations.customerId)))
        .limit(1);
      return rows[0]?.customerId ?? undefined;
    },

    /** The conversation so far (last `limit` exchanges), oldest first, for the model's context. */
    async recentTurns(sessionId: string, limit = 5): Promise<ChatTurn[]> {
      const rows = await db
        .select({ userMessage: aiConversations.userMessage, aiResponse: aiConversations.aiResponse })
        .from(aiConversations)
        .where(eq(aiConversations.conversationId, sessionId))
        .orderBy(desc(aiConversations.createdAt))
        .limit(limit);
      return rows.reverse().flatMap((row) => [
        { role: 'user' as const, content: row.userMessage },
        { role: 'assistant' as const, content: row.aiResponse },
      ]);
    },

    /** For each contact, in order, the oldest stored customer with its phone or e-mail (decision 018-a), or null. */
    async findCustomerIdsByContacts(executor: Database, contacts: { phone: string; email: string | null }[]): Promise<(string | null)[]> {
      return customerRepository(executor).findIdsByContacts(contacts);
    },

    /** The customers of a group of bookings, ids made by the caller (decision 024-a). */
    async insertCustomers(executor: Database, values: (typeof customers.$inferInsert & { id: string })[]): Promise<void> {
      await executor.insert(customers).values(values);
    },

    /** The work orders of a group of bookings, ids made by the caller: each one's number, by id. */
    async insertWorkOrders(executor: Database, values: (Omit<typeof workOrders.$inferInsert, 'scheduledDate'> & { id: string; scheduledDate?: SQL })[]): Promise<Map<string, string>> {
      const rows = await executor.insert(workOrders).values(values).returning({ id: workOrders.id, workOrderNumber: workOrders.workOrderNumber });
      return new Map(rows.map((row) => [row.id, row.workOrderNumber]));
    },

    async insertLeads(executor: Database, values: (typeof aiLeads.$inferInsert & { id: string })[]): Promise<void> {
      await executor.insert(aiLeads).values(values);
    },

    async insertConversations(executor: Database, values: (typeof aiConversations.$inferInsert)[]): Promise<void> {
      if (values.length > 0) await executor.insert(aiConversations).values(values);
    },

    async insertNotifications(executor: Database, values: (typeof adminNotifications.$inferInsert)[]): Promise<void> {
      await executor.insert(adminNotifications).values(values);
    },

    /** The booking a retried submission already made, if any: its number, and the date and window of one booked online (all the public answer carries). */
    async findBookingByKey(idempotencyKey: string) {
      const rows = await db
        .select({
          workOrderNumber: workOrders.workOrderNumber,
          serviceDate: workOrders.serviceDate,
          arrivalWindowStart: workOrders.arrivalWindowStart,
          arrivalWindowEnd: workOrders.arrivalWindowEnd,
        })
        .from(workOrders)
        .where(eq(workOrders.idempotencyKey, idempotencyKey))
        .limit(1);
      return rows[0];
    },
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
