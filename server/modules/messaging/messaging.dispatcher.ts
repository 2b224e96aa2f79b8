import type { FastifyBaseLogger } from 'fastify';
import { SmsRejectedError, type SmsSender } from '#server/adapters/sms/sms-sender.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { retryDelaysMinutes, type EmailOutbox } from '#server/modules/email/index.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import {
  defaultMessageTemplates,
  firstNameOf,
  formatAppointmentDate,
  formatAppointmentWindow,
  renderMessage,
  type MessageTemplate,
  type MessageType,
  type MessageVariables,
} from '#shared/messaging.ts';
import { appointmentVersionOf, parseAppointmentVersion, phoneToE164 } from './messaging.planner.ts';
import type { ClaimedMessage, MessagingRepository, SendingContext } from './messaging.repository.ts';

/** A claimed message is another sender's for this long; far longer than one send lasts (the SMS sender's timeouts end a hung send in seconds). */
export const messageLeaseMinutes = 10;

/** An "on my way" not sent within this long of being planned is skipped. */
export const onMyWayUsefulMinutes = 120;

export type DispatchOutcome = 'sent' | 'retry' | 'failed' | 'skipped' | 'cancelled' | 'lost';

export type Dispatcher = {
  /** Sends one claimed message to its end state (or back to the schedule for a retry). */
  dispatch: (message: ClaimedMessage, now: Date) => Promise<DispatchOutcome>;
};

const appointmentTypes = new Set<MessageType>(['appointment_confirmed', 'appointment_rescheduled', 'appointment_reminder']);

export function messageVariablesFor(message: Pick<ClaimedMessage, 'appointmentVersion'>, context: SendingContext, company: CompanyProfile): MessageVariables {
  const appointment = parseAppointmentVersion(message.appointmentVersion) ?? parseAppointmentVersion(appointmentVersionOf(context));
  return {
    'company.name': company.name,
    'company.phone': company.phone,
    'company.site': company.siteUrl,
    'customer.firstName': context.customerName ? firstNameOf(context.customerName) : 'there',
    'appointment.date': appointment ? formatAppointmentDate(appointment.date) : '',
    'appointment.window': appointment ? formatAppointmentWindow(appointment.start, appointment.end) : '',
    'appointment.address': context.address ?? '',
    'technician.firstName': context.technicianName ? firstNameOf(context.technicianName) : 'Your technician',
    'workOrder.number': context.workOrderNumber ?? '',
    'workOrder.title': context.workOrderTitle ?? '',
    'visit.summary': context.summary ?? '',
  };
}

/**
 * Sends claimed messages: re-checks consent (an opt-out after planning skips the message) and
 * that an appointment message still matches the work order, renders the template (an admin's edit
 * or the default) with the current data, then sends. E-mail: queued in the outbox in the same
 * transaction that marks the message sent (the outbox delivers it once, with its own retries).
 * Text: through the SMS sender, then marked sent. A failure is retried with the outbox's backoff;
 * a permanent refusal fails at once, and a number that cannot take texts is marked on the consent.
 */
export function createDispatcher(options: {
  db: Database;
  repository: (db: Database) => MessagingRepository;
  outbox: Pick<EmailOutbox, 'enqueue' | 'kick'>;
  sms: SmsSender;
  company: CompanyProfile;
  timeZone: string;
  log: FastifyBaseLogger;
}): Dispatcher {
  const { db, repository, outbox, sms, company, timeZone, log } = options;
  const messaging = repository(db);

  async function templateOf(type: MessageType): Promise<MessageTemplate> {
    const edited = (await messaging.templates()).find((template) => template.type === type);
    return edited ?? defaultMessageTemplates[type];
  }

  async function end(message: ClaimedMessage, status: 'skipped' | 'cancelled', reason: string, now: Date): Promise<DispatchOutcome> {
    const isOwn = await messaging.finish(message, { status, attempts: message.attempts, lastError: reason }, now);
    return isOwn ? status : 'lost';
  }

  async function dispatch(message: ClaimedMessage, now: Date): Promise<DispatchOutcome> {
    const context = await messaging.sendingContext(message, timeZone);
    if (message.customerId === null) return end(message, 'cancelled', 'the customer was deleted', now);
    if (appointmentTypes.has(message.type)) {
      if (context.workOrderStatus === null) return end(message, 'cancelled', 'the work order was deleted', now);
      const isOpen = context.workOrderStatus === 'pending' || context.workOrderStatus === 'scheduled';
      if (!isOpen || appointmentVersionOf(context) !== message.appointmentVersion) return end(message, 'cancelled', 'the appointment changed before this was sent', now);
    }
    // "On my way" that could not go soon after the mark (quiet hours, an outage) would only confuse.
    if (message.type === 'on_my_way' && now.getTime() - message.createdAt.getTime() > onMyWayUsefulMinutes * 60_000) {
      return end(message, 'skipped', 'too late to be useful (the technician was on the way long ago)', now);
    }
    const consents = await messaging.consentsOf([message.customerId]);
    const consent = consents.find((row) => row.channel === message.channel);
    if (consent?.status === 'opted_out') return end(message, 'skipped', `the customer opted out of ${message.channel === 'sms' ? 'texts' : 'e-mail'}`, now);
    const rendered = renderMessage(await templateOf(message.type), messageVariablesFor(message, context, company));

    if (message.channel === 'email') {
      const email = context.email?.trim();
      if (!email) return end(message, 'skipped', 'the customer has no e-mail address', now);
      const subject = rendered.subject;
      const body = rendered.emailBody;
      const isOwn = await withTransaction(db, async (tx) => {
        const [emailId] = await outbox.enqueue(tx, [{ recipients: [email], subject, text: body, relatedType: 'message', relatedId: message.id, kind: `message_${message.type}` }]);
        const finished = await repository(tx).finish(message, { status: 'sent', recipient: email, subject, body, emailId, attempts: message.attempts + 1, sentAt: now }, now);
        // Another sender took it after our lease ran out: roll the e-mail back, it sends its own.
        if (!finished) throw new LostClaimError();
        return true;
      }).catch((error: unknown) => {
        if (error instanceof LostClaimError) return false;
        throw error;
      });
      if (!isOwn) return 'lost';
      outbox.kick();
      return 'sent';
    }

    if (consent?.status !== 'opted_in') return end(message, 'skipped', 'the customer has not agreed to texts', now);
    const number = phoneToE164(context.phone);
    if (!number) return end(message, 'skipped', 'the customer has no number that takes texts', now);
    if (consent.undeliverableAt && consent.undeliverableNumber === number) return end(message, 'skipped', 'this number cannot take texts', now);
    const body = rendered.smsBody;
    try {
      const result = await sms.send({ to: number, body });
      const isOwn = await messaging.finish(message, { status: 'sent', recipient: number, body, providerId: result.providerId, attempts: message.attempts + 1, sentAt: now }, now);
      return isOwn ? 'sent' : 'lost';
    } catch (error) {
      const attempts = message.attempts + 1;
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      if (error instanceof SmsRejectedError && error.details.permanent) {
        if (error.details.recipientUnreachable) await messaging.markUndeliverable(message.customerId, number, now);
        log.warn({ messageId: message.id, code: error.details.code }, 'text refused for good; not retried');
        const isOwn = await messaging.finish(message, { status: 'failed', recipient: number, body, attempts, lastError: reason }, now);
        return isOwn ? 'failed' : 'lost';
      }
      const delay = retryDelaysMinutes[attempts - 1];
      log.warn({ messageId: message.id, attempts, err: error }, delay === undefined ? 'text failed for the last time' : 'text failed; retried later');
      const isOwn = await messaging.finish(
        message,
        delay === undefined
          ? { status: 'failed', recipient: number, body, attempts, lastError: reason }
          : { status: 'scheduled', recipient: number, body, attempts, lastError: reason, sendAt: new Date(now.getTime() + delay * 60_000) },
        now,
      );
      return !isOwn ? 'lost' : delay === undefined ? 'failed' : 'retry';
    }
  }

  return { dispatch };
}

class LostClaimError extends Error {
  constructor() {
    super('the claim on this message ran out and another sender took it');
  }
}
