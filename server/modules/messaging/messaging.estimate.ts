import { sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { renderMessage } from '#shared/messaging.ts';
import { toE164 } from '#shared/phone.ts';
import { createMessagingRepository } from './messaging.repository.ts';
import { messageTemplateFor } from './messaging.templates.ts';

/** At most this many estimate texts go to one number in 24 hours (like the e-mail's cap): the form cannot be used to flood a phone. */
export const estimateTextsPerNumberPerDay = 3;

/**
 * The estimate request's "received" text, when the visitor ticked the form's box (issue 18): queued
 * as a message in the transaction that stores the request, written now from the template (its
 * reference and service; never the visitor's typed words, decision 018-d), sent by the dispatcher
 * outside the quiet hours. Nothing is queued for a number that cannot take texts or past the
 * per-number cap. Answers whether it was queued.
 */
export async function queueEstimateReceivedText(
  executor: DbExecutor,
  input: { requestId: string; phone: string; reference: string; service: string; company: CompanyProfile; timeZone: string; now: Date },
): Promise<boolean> {
  const number = toE164(input.phone);
  if (!number) return false;
  // Counted under a lock on the number, so parallel requests (and other instances) count each other.
  await executor.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`estimate-text:${number}`}, 0))`);
  const counted = await executor.execute<{ sent: number }>(sql`
    select count(*)::int as sent from messages
     where type = 'estimate_received' and channel = 'sms' and recipient = ${number}
       and created_at > ${input.now.toISOString()}::timestamptz - interval '24 hours'`);
  if ((counted.rows[0]?.sent ?? 0) >= estimateTextsPerNumberPerDay) return false;
  const template = await messageTemplateFor(executor, 'estimate_received');
  const { smsBody } = renderMessage(template, {
    'company.name': input.company.name,
    'company.phone': input.company.phone,
    'company.site': input.company.siteUrl,
    'customer.firstName': 'there',
    'request.reference': input.reference,
    'request.service': input.service,
  });
  const repository = createMessagingRepository(executor);
  const ids = await repository.insertMessages(
    [
      {
        type: 'estimate_received',
        channel: 'sms',
        customerId: null,
        workOrderId: null,
        recipient: number,
        dedupeKey: `estimate_received:${input.requestId}:sms`,
        appointmentVersion: null,
        sendAt: input.now,
        respectsQuietHours: true,
        body: smsBody,
      },
    ],
    await repository.settings(),
    input.timeZone,
    input.now,
  );
  return ids.length > 0;
}
