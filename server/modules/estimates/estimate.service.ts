import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CompanyProfile } from '#shared/company-profile.ts';
import type { EstimateRequest } from '#shared/estimate.ts';
import type { EstimateSubmissionResponse } from '#shared/estimate-labels.ts';
import { estimatePriority } from '#shared/estimates.ts';
import type { Database } from '#server/db/client.ts';
import type { EmailOutbox } from '#server/modules/email/email-outbox.ts';
import { estimateRequestEmails } from './estimate-emails.ts';
import type { EstimateRequestRow } from './estimate.repository.ts';
import { createEstimateRepository } from './estimate.repository.ts';

export type SubmissionResult = EstimateSubmissionResponse & { isReplay: boolean };

function summary(row: Pick<EstimateRequestRow, 'id' | 'status' | 'priority' | 'createdAt'>): EstimateSubmissionResponse {
  return { request: { id: row.id, status: row.status, priority: row.priority, createdAt: row.createdAt.toISOString() } };
}

export function createEstimateService(options: { db: Database; outbox: EmailOutbox; company: CompanyProfile; log: FastifyBaseLogger }) {
  const { db, outbox, company, log } = options;
  const repository = createEstimateRepository(db);

  return {
    /**
     * Stores a request from the website (status pending, priority by the spec's rule, source
     * website) and queues its two e-mails in the same transaction. The same idempotency key again
     * returns the first result and changes nothing. A filled honeypot gets a normal-looking answer
     * and stores nothing.
     */
    async submit(input: EstimateRequest, context: { idempotencyKey: string | undefined }): Promise<SubmissionResult> {
      const priority = estimatePriority(input.serviceType);
      if (input.website && input.website.trim() !== '') {
        log.info('estimate request dropped: honeypot field filled');
        return { ...summary({ id: randomUUID(), status: 'pending', priority, createdAt: new Date() }), isReplay: false };
      }

      const { website: _honeypot, ...request } = input;
      const stored = await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database;
        const row = await repository.insertOnce(tx, {
          ...request,
          status: 'pending',
          priority,
          source: 'website',
          idempotencyKey: context.idempotencyKey,
        });
        if (row) await outbox.enqueue(tx, estimateRequestEmails({ ...request, id: row.id, priority }, company, `${company.siteUrl}/admin/estimates`));
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

export type EstimateService = ReturnType<typeof createEstimateService>;
