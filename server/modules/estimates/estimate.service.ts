import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CompanyProfile } from '#shared/company-profile.ts';
import type { EstimateRequest } from '#shared/estimate.ts';
import type { EstimateSubmissionResponse } from '#shared/estimate-labels.ts';
import { estimateServiceTypeLabels } from '#shared/estimate-labels.ts';
import { estimatePriority } from '#shared/estimates.ts';
import { notificationTypes } from '#shared/notifications.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { diffFields, recordAudit, systemActors } from '#server/modules/audit/index.ts';
import type { EmailOutbox } from '#server/modules/email/index.ts';
import { messageTemplateFor, queueEstimateReceivedText } from '#server/modules/messaging/index.ts';
import type { NotificationRepository } from '#server/modules/notifications/index.ts';
import { confirmationsPerRecipientPerDay, estimateReference, estimateRequestEmails } from './estimate-emails.ts';
import type { EstimateRequestRow } from './estimate.repository.ts';
import { createEstimateRepository } from './estimate.repository.ts';

export type SubmissionResult = EstimateSubmissionResponse & { isReplay: boolean };

function summary(row: Pick<EstimateRequestRow, 'id' | 'status' | 'priority' | 'createdAt'>): EstimateSubmissionResponse {
  return { request: { id: row.id, status: row.status, priority: row.priority, createdAt: row.createdAt.toISOString() } };
}

export function createEstimateService(options: {
  db: Database;
  outbox: EmailOutbox;
  company: CompanyProfile;
  log: FastifyBaseLogger;
  /** The notifications module's repository, built by app.ts (a module never builds another's). */
  notifications: NotificationRepository;
  /** The company's time zone: the form's text waits out the quiet hours. */
  timeZone: string;
  now?: () => Date;
}) {
  const { db, outbox, company, log, notifications, timeZone } = options;
  const now = options.now ?? (() => new Date());
  const repository = createEstimateRepository(db);

  return {
    /**
     * Stores a request from the website (status pending, priority by the spec's rule, source
     * website) and, in the same transaction, queues its two e-mails and notifies staff. The same idempotency key again
     * returns the first result and changes nothing. A filled honeypot gets a normal-looking answer
     * and stores nothing.
     */
    async submit(input: EstimateRequest, context: { idempotencyKey: string | undefined }): Promise<SubmissionResult> {
      const priority = estimatePriority(input.serviceType);
      if (input.website && input.website.trim() !== '') {
        log.info('estimate request dropped: honeypot field filled');
        return { ...summary({ id: randomUUID(), status: 'pending', priority, createdAt: new Date() }), isReplay: false };
      }

      const { website: _honeypot, smsConsent, ...request } = input;
      const stored = await withTransaction(db, async (tx) => {
        const row = await repository.insertOnce(tx, {
          ...request,
          status: 'pending',
          priority,
          source: 'website',
          idempotencyKey: context.idempotencyKey,
          // The "text me" box: kept with the request, becomes the customer's consent on conversion.
          smsConsentAt: smsConsent ? now() : null,
        });
        if (row) {
          const template = await messageTemplateFor(tx, 'estimate_received');
          const [notification, confirmation] = estimateRequestEmails({ ...request, id: row.id, priority }, company, `${company.siteUrl}/admin/estimates`, template);
          // Past the per-address cap the request is stored and staff are told as always; only the
          // visitor's confirmation is skipped, and the answer is the same (it reveals nothing).
          const isUnderCap = await repository.claimConfirmationSlot(tx, request.email, confirmationsPerRecipientPerDay);
          if (!isUnderCap) log.info({ estimateRequestId: row.id }, 'estimate confirmation skipped: this address had its daily number of confirmations');
          await outbox.enqueue(tx, isUnderCap ? [notification!, confirmation!] : [notification!]);
          // The form's "text me" box: the same confirmation by text, on the messaging layer (decision 021-a).
          if (smsConsent) {
            const reference = estimateReference(row.id);
            await queueEstimateReceivedText(tx, { requestId: row.id, phone: request.phone, reference, service: estimateServiceTypeLabels[request.serviceType], company, timeZone, now: now() });
          }
          await notifications.insert(tx, newEstimateNotification(row));
          await recordAudit(tx, {
            actor: systemActors.websiteVisitor,
            entityType: 'lead',
            entityId: row.id,
            entityLabel: row.name,
            action: 'created',
            changes: diffFields(undefined, row, { only: ['name', 'email', 'phone', 'address', 'serviceType', 'description', 'preferredDate', 'preferredTime', 'status', 'priority', 'source'] }),
          });
        }
        return row;
      });

      if (!stored) {
        const first = await repository.findByIdempotencyKey(context.idempotencyKey!);
        return { ...summary(first!), isReplay: true };
      }
      outbox.kick();
      return { ...summary(stored), isReplay: false };
    },
  };
}

/** The staff notification of a new website request (the bell in the admin header shows it). */
function newEstimateNotification(row: EstimateRequestRow) {
  const service = estimateServiceTypeLabels[row.serviceType as keyof typeof estimateServiceTypeLabels] ?? row.serviceType;
  const isUrgent = row.priority === 'urgent';
  return {
    type: notificationTypes.newEstimateRequest,
    title: `${isUrgent ? 'Urgent estimate request' : 'New estimate request'}: ${service}`,
    message: `${row.name} asked for ${service.toLowerCase()} at ${row.address} through the website.`,
    data: {
      estimate_request_id: row.id,
      service_type: row.serviceType,
      priority: row.priority,
      source: row.source,
      link: '/admin/estimates',
    },
  };
}

export type EstimateService = ReturnType<typeof createEstimateService>;
