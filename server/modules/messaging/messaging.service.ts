import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { SmsSender } from '#server/adapters/sms/index.ts';
import { withTransaction, type Database, type RepositoryFactory } from '#server/db/client.ts';
import { workOrders as workOrdersTable } from '#server/db/schema/index.ts';
import { AppError } from '#server/errors.ts';
import { recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import type { EmailOutbox } from '#server/modules/email/index.ts';
import { changeWorkOrderAudited, workOrderId, type WorkOrderRepository } from '#server/modules/work-orders/index.ts';
import type { WorkOrder } from '#shared/work-order.ts';
import { toE164 } from '#shared/phone.ts';
import {
  defaultMessageTemplates,
  messageChannels,
  renderMessage,
  sampleMessageVariables,
  messageTypes,
  messageVariableNames,
  messageVariables,
  type Consent,
  type ConsentStatus,
  type CustomerMessagingResponse,
  type Message,
  type MessageChannel,
  type MessageTemplateTest,
  type MessageTemplateTestResponse,
  type MessageTemplateUpdate,
  type MessageType,
  type MessagingSettings,
  type StoredMessageTemplate,
} from '#shared/messaging.ts';
import { recipientFor } from './messaging.planner.ts';
import type { ConsentRow, HistoryRow, MessagingRepository } from './messaging.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';


const customerNotFound = () => new AppError('NOT_FOUND', 'That customer does not exist (it may have been deleted).');
const messageNotFound = () => new AppError('NOT_FOUND', 'That message does not exist.');
const testNumberMessage = 'Enter a mobile number that can take texts, such as (843) 555-0142.';
const testEmailMessage = 'Enter the e-mail address to send the test to.';

/** Statuses a work order may be marked en route in: a visit still to happen or under way. */
const enRouteStatuses = new Set(['pending', 'scheduled', 'in-progress']);

/** Whether a work order in this status may be marked en route (the office's button and the technician app's step). */
export function canMarkEnRoute(status: string): boolean {
  return enRouteStatuses.has(status);
}
/** Messages that may be sent again: finished ones (a resend of a scheduled one would be a duplicate). */
const resendableStatuses = new Set(['sent', 'failed', 'skipped']);

function toMessage(row: HistoryRow): Message {
  return {
    ...row,
    sendAt: row.sendAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function toConsent(channel: MessageChannel, row: ConsentRow | undefined, contact: { email: string | null; phone: string | null }): Consent {
  return {
    channel,
    status: row?.status ?? 'default',
    source: row?.source ?? null,
    changedAt: row?.changedAt.toISOString() ?? null,
    changedByName: row?.changedByName ?? null,
    isSending: recipientFor(channel, contact, row) !== null,
    undeliverableAt: row?.undeliverableAt?.toISOString() ?? null,
    undeliverableNumber: row?.undeliverableNumber ?? null,
  };
}

/**
 * What staff do with messaging: a work order's and a customer's message history, consents, a
 * resend, the en-route mark, templates and settings. Sending is the runner's (`onQueued` pokes it).
 */
export function createMessagingService(options: {
  db: Database;
  messagingRepository: RepositoryFactory<MessagingRepository>;
  workOrderRepository: RepositoryFactory<WorkOrderRepository>;
  /** Told after a commit that queued something (the runner's kick). */
  onQueued: () => void;
  /** The company's time zone: a resent text respects the quiet hours too. */
  timeZone: string;
  /** Where "send me a test" e-mails go out. */
  outbox: Pick<EmailOutbox, 'enqueue' | 'kick'>;
  /** Where "send me a test" texts go out. */
  sms: SmsSender;
  now?: () => Date;
}) {
  const { db, messagingRepository, workOrderRepository, onQueued, timeZone, outbox, sms } = options;
  const now = options.now ?? (() => new Date());
  const repository = messagingRepository(db);

  async function contactOf(customerId: string): Promise<{ email: string | null; phone: string | null }> {
    const result = await db.execute<{ email: string | null; phone: string | null }>(sql`select email, phone from customers where id = ${customerId}::uuid`);
    return result.rows[0] ?? { email: null, phone: null };
  }

  async function consentsOf(customerId: string): Promise<Consent[]> {
    const rows = await repository.consentsOf([customerId]);
    const contact = await contactOf(customerId);
    return messageChannels.map((channel) => toConsent(channel, rows.find((row) => row.channel === channel), contact));
  }

  function customerKey(id: string): string {
    if (!isUuid(id)) throw customerNotFound();
    return id.toLowerCase();
  }

  async function templatesList(): Promise<StoredMessageTemplate[]> {
    const edits = await repository.templates();
    return messageTypes.map((type) => {
      const edit = edits.find((template) => template.type === type);
      const template = edit ?? defaultMessageTemplates[type];
      return {
        type,
        subject: template.subject,
        emailBody: template.emailBody,
        smsBody: template.smsBody,
        isDefault: !edit,
        updatedAt: edit?.updatedAt.toISOString() ?? null,
      };
    });
  }

  return {
    async workOrderMessages(id: string): Promise<{ messages: Message[] }> {
      const key = workOrderId(id);
      if (!(await repository.workOrderExists(key))) throw new AppError('NOT_FOUND', 'That work order does not exist (it may have been deleted).');
      return { messages: (await repository.historyOfWorkOrder(key)).map(toMessage) };
    },

    async customerMessaging(id: string): Promise<CustomerMessagingResponse> {
      const key = customerKey(id);
      if (!(await repository.customerExists(key))) throw customerNotFound();
      return { consents: await consentsOf(key), messages: (await repository.historyOfCustomer(key)).map(toMessage) };
    },

    /** Staff set a customer's consent for a channel (source 'staff'), recorded in the activity log. */
    async setConsent(id: string, channel: MessageChannel, status: ConsentStatus, actor: AuditActor): Promise<{ consent: Consent }> {
      const key = customerKey(id);
      await withTransaction(db, async (tx) => {
        const messaging = messagingRepository(tx);
        const name = await messaging.customerName(key);
        if (name === undefined) throw customerNotFound();
        const before = (await messaging.consentsOf([key])).find((row) => row.channel === channel);
        await messaging.upsertConsent(key, channel, status, 'staff', actor.id, now());
        if (before?.status !== status) {
          await recordAudit(tx, {
            actor,
            entityType: 'customer',
            entityId: key,
            entityLabel: name,
            action: 'message_consent_changed',
            changes: { [channel === 'sms' ? 'textMessages' : 'emailMessages']: [before?.status ?? 'default', status] },
          });
        }
      });
      const consent = (await consentsOf(key)).find((row) => row.channel === channel)!;
      return { consent };
    },

    /** A new message copying a finished one, due now (its own dedupe key: a resend is a new send). */
    async resend(id: string, actor: AuditActor): Promise<{ message: Message }> {
      if (!isUuid(id)) throw messageNotFound();
      const original = await repository.findMessage(id.toLowerCase());
      if (!original) throw messageNotFound();
      if (!resendableStatuses.has(original.status)) {
        throw new AppError('CONFLICT', `This message is ${original.status}; only a sent, failed or skipped message can be sent again.`);
      }
      const at = now();
      const newId = await withTransaction(db, async (tx) => {
        const messaging = messagingRepository(tx);
        const [inserted] = await messaging.insertMessages(
          [
            {
              type: original.type,
              channel: original.channel,
              customerId: original.customerId,
              workOrderId: original.workOrderId,
              recipient: original.recipient,
              dedupeKey: `${original.dedupeKey}:resend:${randomUUID()}`,
              appointmentVersion: original.appointmentVersion,
              sendAt: at,
              respectsQuietHours: original.channel === 'sms',
            },
          ],
          await messaging.settings(),
          timeZone,
          at,
        );
        if (original.customerId) {
          await recordAudit(tx, {
            actor,
            entityType: 'customer',
            entityId: original.customerId,
            action: 'message_resent',
            changes: { message: [null, `${original.type} by ${original.channel}`] },
          });
        }
        return inserted!;
      });
      onQueued();
      return { message: toMessage((await repository.fetchById(newId))!) };
    },

    /** The dispatcher (or the technician) marks the job en route: "on my way" goes to the customer. */
    async markEnRoute(id: string, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      const at = now();
      const workOrder = await changeWorkOrderAudited(db, workOrderRepository, key, actor, 'en_route', async (_workOrders, before, tx) => {
        if (!enRouteStatuses.has(before.status)) throw new AppError('CONFLICT', `A ${before.status} work order cannot be marked en route.`);
        const [row] = await tx.update(workOrdersTable).set({ enRouteAt: at, updatedAt: sql`now()` }).where(eq(workOrdersTable.id, key)).returning();
        return row!;
      });
      onQueued();
      return workOrder;
    },

    templates: async () => ({
      templates: await templatesList(),
      variables: messageVariableNames.map((name) => ({ name, label: messageVariables[name].label, sample: messageVariables[name].sample })),
    }),

    async saveTemplate(type: MessageType, template: MessageTemplateUpdate, actor: AuditActor): Promise<{ template: StoredMessageTemplate }> {
      await withTransaction(db, async (tx) => {
        await messagingRepository(tx).saveTemplate(type, template, actor.id, now());
        await recordAudit(tx, { actor, entityType: 'settings', entityId: `message_template:${type}`, entityLabel: `Message template: ${type}`, action: 'updated' });
      });
      return { template: (await templatesList()).find((stored) => stored.type === type)! };
    },

    /** Back to the built-in template: the admin's edit is removed (audited). */
    async restoreTemplate(type: MessageType, actor: AuditActor): Promise<{ template: StoredMessageTemplate }> {
      await withTransaction(db, async (tx) => {
        const removed = await messagingRepository(tx).deleteTemplate(type);
        if (removed) await recordAudit(tx, { actor, entityType: 'settings', entityId: `message_template:${type}`, entityLabel: `Message template: ${type}`, action: 'deleted' });
      });
      return { template: (await templatesList()).find((stored) => stored.type === type)! };
    },

    /**
     * "Send me a test": the edited template with the sample values. By e-mail (to `to`, else the
     * admin who asks; the text's body is added below the e-mail's) through the outbox, or as a text
     * to `to` straight through the SMS sender (a refusal is the answer's error, nothing is kept).
     */
    async sendTest(type: MessageType, test: MessageTemplateTest, adminEmail: string): Promise<MessageTemplateTestResponse> {
      const rendered = renderMessage(test, sampleMessageVariables);
      const subject = `[Test] ${rendered.subject}`;
      if (test.channel === 'sms') {
        const number = test.to ? toE164(test.to) : null;
        if (!number) throw new AppError('VALIDATION_FAILED', testNumberMessage, [{ path: 'to', message: testNumberMessage }]);
        try {
          await sms.send({ to: number, body: rendered.smsBody });
        } catch (error) {
          throw new AppError('UPSTREAM_FAILED', `The text could not be sent: ${error instanceof Error ? error.message : String(error)}`);
        }
        return { channel: 'sms', sentTo: number, subject };
      }
      const to = test.to ?? adminEmail;
      if (!z.email().safeParse(to).success) throw new AppError('VALIDATION_FAILED', testEmailMessage, [{ path: 'to', message: testEmailMessage }]);
      const text = `${rendered.emailBody}\n\n---\nThe text message of this template, with the sample values:\n\n${rendered.smsBody}\n`;
      await outbox.enqueue(db, [{ recipients: [to], subject, text, relatedType: 'message_template', kind: `message_test_${type}` }]);
      outbox.kick();
      return { channel: 'email', sentTo: to, subject };
    },

    settings: async (): Promise<{ settings: MessagingSettings }> => ({ settings: await repository.settings() }),

    async saveSettings(settings: MessagingSettings, actor: AuditActor): Promise<{ settings: MessagingSettings }> {
      await withTransaction(db, async (tx) => {
        const messaging = messagingRepository(tx);
        const before = await messaging.settings();
        await messaging.saveSettings(settings, now());
        const changes = Object.fromEntries(
          (Object.keys(settings) as (keyof MessagingSettings)[]).filter((field) => before[field] !== settings[field]).map((field): [string, [unknown, unknown]] => [field, [before[field], settings[field]]]),
        );
        await recordAudit(tx, { actor, entityType: 'settings', entityId: 'messaging', entityLabel: 'Messaging', action: 'updated', changes });
      });
      return { settings: await repository.settings() };
    },
  };
}

export type MessagingService = ReturnType<typeof createMessagingService>;
