import { randomUUID } from 'node:crypto';
import type { InvoiceStatus } from '#shared/enums.ts';
import { invoiceMessages } from '#shared/invoice.ts';
import { invoiceSendMessages, type DocumentDelivery, type InvoiceSendResponse } from '#shared/invoice-link.ts';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { queueDocumentMessages } from '#server/modules/messaging/index.ts';
import { createInvoiceRepository, type InvoiceRow } from './invoice.repository.ts';
import type { InvoiceService } from './invoice.service.ts';
import { isUuid } from '#server/lib/uuid.ts';

const sendableStatuses: readonly InvoiceStatus[] = ['sent', 'partially_paid', 'paid'];

/**
 * Sending an invoice to its customer (issue 20, decision 024-h): an `invoice_sent` message per
 * channel through the messaging layer (queueDocumentMessages, decision 024-c), in the transaction
 * that issues the invoice or asks for another send, with a new send key each time (the dispatcher
 * makes a new customer link per send). The answer says which channels were used or skipped, and
 * the send is in the invoice's history.
 */
export function createInvoiceSending(options: { db: Database; timeZone: string; now?: () => Date; onQueued?: () => void }) {
  const { db, timeZone, now = () => new Date() } = options;

  /** Queues one send of an issued invoice in `tx`, audited. Credit notes are not sent. */
  async function queueSend(tx: DbExecutor, row: InvoiceRow, actor: AuditActor, sendKey: string): Promise<DocumentDelivery> {
    const delivery = await queueDocumentMessages(tx, {
      type: 'invoice_sent',
      documentType: 'invoice',
      documentId: row.id,
      customerId: row.customerId,
      workOrderId: row.workOrderId,
      sendKey,
      timeZone,
      now: now(),
    });
    await recordAudit(tx, {
      actor,
      entityType: 'invoice',
      entityId: row.id,
      entityLabel: row.invoiceNumber ?? `Draft for ${row.billingName}`,
      action: 'send_queued',
      changes: {
        channels: [null, delivery.queued.join(', ') || 'none'],
        ...(delivery.skipped.length > 0
          ? {
              skipped: [null, delivery.skipped.map((skip) => `${skip.channel}: ${skip.reason}`).join('; ')],
            }
          : {}),
      },
    });
    return {
      queued: [...delivery.queued],
      skipped: delivery.skipped.map((skip) => ({ ...skip })),
    };
  }

  return {
    /** The invoices service's issue step calls this in its transaction (invoices only). */
    async onIssued(tx: DbExecutor, row: InvoiceRow, actor: AuditActor): Promise<DocumentDelivery | undefined> {
      if (row.kind !== 'invoice') return undefined;
      return queueSend(tx, row, actor, `issue-${randomUUID()}`);
    },

    /** After the issuing transaction commits: the messaging runner sends at once. */
    afterQueued(): void {
      options.onQueued?.();
    },

    /** "Send again": another message (and a new link) for an issued invoice that is not void. */
    async sendAgain(invoiceId: string, actor: AuditActor, invoices: InvoiceService): Promise<InvoiceSendResponse> {
      if (!isUuid(invoiceId)) throw new AppError('NOT_FOUND', invoiceMessages.notFound);
      const id = invoiceId.toLowerCase();
      const delivery = await withTransaction(db, async (tx) => {
        const row = await createInvoiceRepository(tx).lock(id);
        if (!row) throw new AppError('NOT_FOUND', invoiceMessages.notFound);
        if (row.kind !== 'invoice' || !sendableStatuses.includes(row.status as InvoiceStatus)) throw new AppError('CONFLICT', invoiceSendMessages.notSendable);
        return queueSend(tx, row, actor, `resend-${randomUUID()}`);
      });
      options.onQueued?.();
      const detail = await invoices.detail(id);
      return { invoice: detail.invoice, delivery };
    },
  };
}

export type InvoiceSending = ReturnType<typeof createInvoiceSending>;
