import { sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import type { MessageChannel } from '#shared/messaging.ts';
import { messageChannels } from '#shared/messaging.ts';
import { recipientFor } from './messaging.planner.ts';
import { createMessagingRepository, type DocumentType } from './messaging.repository.ts';

export type DocumentMessageType = 'quote_sent' | 'invoice_sent' | 'invoice_overdue';

export type QueuedDocumentMessages = {
  /** The channels a message was queued on. */
  queued: MessageChannel[];
  /** The channels that were not used, and why (no address, not agreed to texts, ...). */
  skipped: { channel: MessageChannel; reason: string }[];
};

/**
 * Queues a quote's or an invoice's message to its customer (issue 20): an e-mail unless the
 * customer has no address or opted out, a text when they agreed to texts (decision 021-a's
 * consent rule), in the caller's transaction. The dispatcher renders it when it sends, with the
 * document as it is then and a customer link made for that send (never stored in the message).
 * `sendKey` tells sends apart (the same key twice queues nothing more); texts wait out the quiet
 * hours. The runner picks them up on the quotes / invoices change (or its next sweep).
 */
export async function queueDocumentMessages(
  executor: DbExecutor,
  input: {
    type: DocumentMessageType;
    documentType: DocumentType;
    documentId: string;
    customerId: string;
    workOrderId?: string | null;
    sendKey: string;
    channels?: readonly MessageChannel[];
    timeZone: string;
    now: Date;
  },
): Promise<QueuedDocumentMessages> {
  const repository = createMessagingRepository(executor);
  const contact = await executor.execute<{ email: string | null; phone: string | null }>(sql`select email, phone from customers where id = ${input.customerId}::uuid`);
  const customer = contact.rows[0];
  if (!customer) throw new Error(`customer ${input.customerId} not found`);
  const consents = await repository.consentsOf([input.customerId]);
  const result: QueuedDocumentMessages = { queued: [], skipped: [] };
  const rows = [];
  for (const channel of input.channels ?? messageChannels) {
    const consent = consents.find((row) => row.channel === channel);
    const recipient = recipientFor(channel, customer, consent);
    if (!recipient) {
      result.skipped.push({
        channel,
        reason:
          channel === 'email'
            ? consent?.status === 'opted_out'
              ? 'the customer opted out of e-mail'
              : 'the customer has no e-mail address'
            : consent?.status !== 'opted_in'
              ? 'the customer has not agreed to texts'
              : 'the customer has no number that takes texts',
      });
      continue;
    }
    rows.push({
      type: input.type,
      channel,
      customerId: input.customerId,
      workOrderId: input.workOrderId ?? null,
      recipient,
      dedupeKey: `${input.type}:${input.documentId}:${input.sendKey}:${channel}`,
      appointmentVersion: null,
      sendAt: input.now,
      respectsQuietHours: channel === 'sms',
      documentType: input.documentType,
      documentId: input.documentId,
    });
    result.queued.push(channel);
  }
  await repository.insertMessages(rows, await repository.settings(), input.timeZone, input.now);
  return result;
}
