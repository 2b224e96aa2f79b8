import type { FastifyBaseLogger } from 'fastify';
import { SmsRejectedError, type SmsSender } from '#server/adapters/sms/sms-sender.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { retryDelaysMinutes, type EmailOutbox } from '#server/modules/email/index.ts';
import { customerDocumentPath } from '#shared/billing-document.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { formatCents } from '#shared/money.ts';
import { addDays } from '#shared/dates.ts';
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
import type { ClaimedMessage, ConsentRow, DocumentType as MessageDocumentType, MessagingRepository, SendingContext } from './messaging.repository.ts';

/** What a sent link opens: a message's quote or invoice, or an appointment message's visit (issue 21). */
type DocumentType = MessageDocumentType | 'visit';

/** A claimed message is another sender's for this long; far longer than one send lasts (the SMS sender's timeouts end a hung send in seconds). */
export const messageLeaseMinutes = 10;

/** An "on my way" not sent within this long of being planned is skipped. */
export const onMyWayUsefulMinutes = 120;

export type DispatchOutcome = 'sent' | 'retry' | 'failed' | 'skipped' | 'cancelled' | 'lost';

/** What a claimed batch's messages are rendered and checked with, read once for the batch (three queries, not three per message). */
export type DispatchBatch = {
  contextOf: (message: ClaimedMessage) => SendingContext | undefined;
  consentsOf: (customerId: string) => ConsentRow[];
  templateOf: (type: MessageType) => MessageTemplate;
};

export type Dispatcher = {
  /** Sends one claimed message to its end state (or back to the schedule for a retry). */
  dispatch: (message: ClaimedMessage, now: Date) => Promise<DispatchOutcome>;
  /**
   * Sends a claimed batch (decision 021-b): what it needs is read once; its e-mails go into the
   * outbox together, in one transaction that marks them sent; up to `concurrency` texts are sent at
   * once. Once `isStopping` answers true nothing more starts: `unstarted` lists what did not.
   */
  dispatchBatch: (
    messages: ClaimedMessage[],
    now: () => Date,
    options: { concurrency: number; isStopping: () => boolean },
  ) => Promise<{ outcomes: Record<string, number>; unstarted: string[] }>;
};

const appointmentTypes = new Set<MessageType>(['appointment_confirmed', 'appointment_rescheduled', 'appointment_reminder']);

/** Messages that send a quote's or an invoice's customer link (issue 20). */
export const documentMessageTypes = new Set<MessageType>(['quote_sent', 'invoice_sent', 'invoice_overdue']);

/**
 * Makes a customer link to a quote or an invoice in the caller's transaction and answers its token
 * (the document-links module, passed in by app.ts).
 */
export type CreateDocumentLink = (
  executor: Database,
  link: { documentType: DocumentType; documentId: string; linkVersion: number; validDays: number },
) => Promise<{ token: string }>;

/** Stands in for the link while a document message is rendered; replaced by the link to send, and by `linkNotKept` in what is stored. */
const linkSentinel = '\u0001document-link\u0001';
/** What the message history shows where the link was: links are not kept (decision 024-c). */
export const linkNotKept = '(your personal link; not kept in our records)';

/** How long a sent link opens its document: a quote until the day after it expires (30 days without a date), a visit until the day after `validUntil` (30 days after it), an invoice 180 days. */
export function documentLinkValidDays(documentType: DocumentType, validUntil: string | null, now: Date): number {
  if (documentType === 'invoice') return 180;
  if (!validUntil) return 30;
  const [year, month, day] = validUntil.split('-').map(Number) as [number, number, number];
  const days = Math.ceil((Date.UTC(year, month - 1, day + 2) - now.getTime()) / 86_400_000);
  return Math.min(366, Math.max(1, days));
}

export function messageVariablesFor(message: Pick<ClaimedMessage, 'appointmentVersion' | 'type' | 'workOrderId'>, context: SendingContext, company: CompanyProfile): MessageVariables {
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
    // The visit's own page (issue 21): made when sent, like a document's link.
    ...(appointmentTypes.has(message.type) && message.workOrderId ? { 'visit.link': linkSentinel } : {}),
    ...(context.document
      ? {
          'document.number': context.document.number ?? '',
          'document.total': formatCents(context.document.totalCents),
          'document.balance': context.document.balanceCents === null ? '' : formatCents(context.document.balanceCents),
          'document.dueDate': context.document.dueOn ? formatAppointmentDate(context.document.dueOn) : '',
          'document.validUntil': context.document.validUntil ? formatAppointmentDate(context.document.validUntil) : '',
          'document.link': linkSentinel,
        }
      : {}),
  };
}

/** Why a document message should no longer go out, or undefined when it should. */
function documentRefusal(message: ClaimedMessage, context: SendingContext): string | undefined {
  const document = context.document;
  if (!document) return `the ${message.documentType ?? 'document'} was deleted`;
  if (message.type === 'quote_sent' && document.status !== 'sent') return 'the quote is no longer waiting for the customer';
  if (message.type === 'invoice_sent' && (document.status === 'void' || document.status === 'draft')) return 'the invoice was voided';
  if (message.type === 'invoice_overdue' && (!['sent', 'partially_paid'].includes(document.status) || (document.balanceCents ?? 0) <= 0)) {
    return 'the invoice is no longer open';
  }
  return undefined;
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
  /** Required to send quote and invoice messages (without it they fail). */
  createDocumentLink?: CreateDocumentLink;
}): Dispatcher {
  const { db, repository, outbox, sms, company, timeZone, log, createDocumentLink } = options;

  /** The link for a document message, made in `executor`'s transaction. */
  async function documentUrl(executor: Database, message: ClaimedMessage, document: DocumentLink, now: Date): Promise<string> {
    if (!createDocumentLink) throw new Error('no document links were configured for the messaging dispatcher');
    const { token } = await createDocumentLink(executor, {
      documentType: document.documentType,
      documentId: document.documentId,
      linkVersion: document.linkVersion,
      validDays: documentLinkValidDays(document.documentType, document.validUntil, now),
    });
    return `${company.siteUrl.replace(/\/+$/, '')}${customerDocumentPath(document.documentType, token)}`;
  }
  const messaging = repository(db);

  async function prepare(messages: ClaimedMessage[]): Promise<DispatchBatch> {
    const contexts = await messaging.sendingContexts(messages, timeZone);
    const customerIds = [...new Set(messages.flatMap((message) => (message.customerId === null ? [] : [message.customerId])))];
    const consents = await messaging.consentsOf(customerIds);
    const edited = await messaging.templates();
    return {
      contextOf: (message) => contexts.get(message.id),
      consentsOf: (customerId) => consents.filter((row) => row.customerId === customerId),
      templateOf: (type) => edited.find((template) => template.type === type) ?? defaultMessageTemplates[type],
    };
  }

  async function end(message: ClaimedMessage, status: 'skipped' | 'cancelled', reason: string, now: Date): Promise<DispatchOutcome> {
    const isOwn = await messaging.finish(message, { status, attempts: message.attempts, lastError: reason }, now);
    return isOwn ? status : 'lost';
  }

  type Decision =
    | { kind: 'end'; status: 'skipped' | 'cancelled'; reason: string }
    | { kind: 'email'; email: PendingEmail }
    | { kind: 'sms'; customerId: string | null; number: string; body: string; document?: DocumentLink };

  /** What to do with a claimed message, from the batch's data (no query). */
  function decide(message: ClaimedMessage, batch: DispatchBatch, now: Date): Decision {
    const skip = (reason: string): Decision => ({ kind: 'end', status: 'skipped', reason });
    const cancel = (reason: string): Decision => ({ kind: 'end', status: 'cancelled', reason });
    const context = batch.contextOf(message);
    if (!context) throw new Error(`no sending context was read for message ${message.id}`);
    // An estimate request's text (the form's box ticked): no customer yet, so it was written when
    // the form was sent, to the number the visitor gave (messaging.estimate.ts).
    if (message.type === 'estimate_received' && message.customerId === null && message.workOrderId === null) {
      if (message.channel !== 'sms' || !message.plannedBody) return cancel('nothing was written to send');
      return { kind: 'sms', customerId: null, number: message.recipient, body: message.plannedBody };
    }
    if (message.customerId === null) return cancel('the customer was deleted');
    let document: DocumentLink | undefined;
    if (documentMessageTypes.has(message.type)) {
      const refusal = documentRefusal(message, context);
      if (refusal) return cancel(refusal);
      document = { documentType: message.documentType!, documentId: message.documentId!, linkVersion: context.document!.linkVersion, validUntil: context.document!.validUntil };
    }
    if (appointmentTypes.has(message.type)) {
      if (context.workOrderStatus === null) return cancel('the work order was deleted');
      const isOpen = context.workOrderStatus === 'pending' || context.workOrderStatus === 'scheduled';
      if (!isOpen || appointmentVersionOf(context) !== message.appointmentVersion) return cancel('the appointment changed before this was sent');
    }
    // "On my way" that could not go soon after the mark (quiet hours, an outage) would only confuse.
    if (message.type === 'on_my_way' && now.getTime() - message.createdAt.getTime() > onMyWayUsefulMinutes * 60_000) {
      return skip('too late to be useful (the technician was on the way long ago)');
    }
    const consent = batch.consentsOf(message.customerId).find((row) => row.channel === message.channel);
    if (consent?.status === 'opted_out') return skip(`the customer opted out of ${message.channel === 'sms' ? 'texts' : 'e-mail'}`);
    const rendered = renderMessage(batch.templateOf(message.type), messageVariablesFor(message, context, company));
    // An appointment message whose template has the visit's link: the link is made when it is sent,
    // opening until 30 days after the visit (decision 027-a).
    const appointment = parseAppointmentVersion(message.appointmentVersion);
    if (!document && appointmentTypes.has(message.type) && message.workOrderId && appointment && `${rendered.emailBody}${rendered.smsBody}`.includes(linkSentinel)) {
      document = { documentType: 'visit', documentId: message.workOrderId, linkVersion: 1, validUntil: addDays(appointment.date, 30) };
    }

    if (message.channel === 'email') {
      const email = context.email?.trim();
      if (!email) return skip('the customer has no e-mail address');
      return { kind: 'email', email: { message, recipient: email, subject: rendered.subject, body: rendered.emailBody, ...(document ? { document } : {}) } };
    }
    if (consent?.status !== 'opted_in') return skip('the customer has not agreed to texts');
    const number = phoneToE164(context.phone);
    if (!number) return skip('the customer has no number that takes texts');
    if (consent.undeliverableAt && consent.undeliverableNumber === number) return skip('this number cannot take texts');
    return { kind: 'sms', customerId: message.customerId, number, body: rendered.smsBody, ...(document ? { document } : {}) };
  }

  /**
   * Queues the e-mails in the outbox in the transaction that marks their messages sent, one
   * statement each for the whole group. A message whose claim ran out (another sender took it) is
   * not marked and gets no e-mail: that sender sends its own. Answers the ids handed over.
   */
  async function handOverEmails(emails: PendingEmail[], now: Date): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const owned = await withTransaction(db, async (tx) => {
      const inTransaction = repository(tx);
      const finished = await inTransaction.finishSentEmails(
        emails.map(({ message, recipient, subject, body }) => ({ message, recipient, subject, body: body.replaceAll(linkSentinel, linkNotKept), attempts: message.attempts + 1 })),
        now,
      );
      const kept = emails.filter((email) => finished.has(email.message.id));
      const queued = [];
      for (const { message, recipient, subject, body, document } of kept) {
        // A document's link is made now, in this transaction, and goes only into the outbox's copy,
        // which is blanked once delivered and in every backup (carriesSecret, decision 018-d).
        const text = document ? body.replaceAll(linkSentinel, await documentUrl(tx, message, document, now)) : body;
        queued.push({ recipients: [recipient], subject, text, relatedType: 'message', relatedId: message.id, kind: `message_${message.type}`, carriesSecret: Boolean(document) });
      }
      const emailIds = await outbox.enqueue(tx, queued);
      await inTransaction.linkEmails(kept.map((email, index) => ({ messageId: email.message.id, emailId: emailIds[index]! })));
      return finished;
    });
    if (owned.size > 0) outbox.kick();
    return owned;
  }

  async function sendText(message: ClaimedMessage, customerId: string | null, number: string, text: string, now: Date, document?: DocumentLink): Promise<DispatchOutcome> {
    // What is stored of a document's text: without its link (made for this send only).
    const body = text.replaceAll(linkSentinel, linkNotKept);
    try {
      const toSend = document ? text.replaceAll(linkSentinel, await documentUrl(db, message, document, now)) : text;
      const result = await sms.send({ to: number, body: toSend });
      const isOwn = await messaging.finish(message, { status: 'sent', recipient: number, body, providerId: result.providerId, attempts: message.attempts + 1, sentAt: now }, now);
      return isOwn ? 'sent' : 'lost';
    } catch (error) {
      const attempts = message.attempts + 1;
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      if (error instanceof SmsRejectedError && error.details.permanent) {
        if (error.details.recipientUnreachable && customerId !== null) await messaging.markUndeliverable(customerId, number, now);
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

  async function dispatch(message: ClaimedMessage, now: Date): Promise<DispatchOutcome> {
    const decision = decide(message, await prepare([message]), now);
    if (decision.kind === 'end') return end(message, decision.status, decision.reason, now);
    if (decision.kind === 'email') return (await handOverEmails([decision.email], now)).has(message.id) ? 'sent' : 'lost';
    return sendText(message, decision.customerId, decision.number, decision.body, now, decision.document);
  }

  async function dispatchBatch(
    messages: ClaimedMessage[],
    now: () => Date,
    options: { concurrency: number; isStopping: () => boolean },
  ): Promise<{ outcomes: Record<string, number>; unstarted: string[] }> {
    const outcomes: Record<string, number> = {};
    const count = (outcome: string) => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);
    const unstarted: string[] = [];
    const failed = (message: ClaimedMessage) => (error: unknown) => {
      // Unexpected (the database, a bug): the claim runs out and the message is tried again then.
      log.error({ err: error, messageId: message.id }, 'message dispatch failed');
      return 'error' as const;
    };
    const batch = await prepare(messages);
    const emails: PendingEmail[] = [];
    const texts: { message: ClaimedMessage; customerId: string | null; number: string; body: string; document?: DocumentLink }[] = [];
    for (const message of messages) {
      if (options.isStopping()) {
        unstarted.push(message.id);
        continue;
      }
      let decision: Decision;
      try {
        decision = decide(message, batch, now());
      } catch (error) {
        count(failed(message)(error));
        continue;
      }
      if (decision.kind === 'end') count(await end(message, decision.status, decision.reason, now()).catch(failed(message)));
      else if (decision.kind === 'email') emails.push(decision.email);
      else texts.push({ message, ...decision });
    }
    if (emails.length > 0) {
      const owned = await handOverEmails(emails, now()).catch((error: unknown) => {
        failed(emails[0]!.message)(error);
        return undefined;
      });
      for (const email of emails) count(owned === undefined ? 'error' : owned.has(email.message.id) ? 'sent' : 'lost');
    }
    let next = 0;
    const sendNext = async (): Promise<void> => {
      while (next < texts.length) {
        const text = texts[next]!;
        next += 1;
        if (options.isStopping()) {
          unstarted.push(text.message.id);
          continue;
        }
        count(await sendText(text.message, text.customerId, text.number, text.body, now(), text.document).catch(failed(text.message)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, options.concurrency), texts.length) }, sendNext));
    return { outcomes, unstarted };
  }

  return { dispatch, dispatchBatch };
}

/** An e-mail ready to go into the outbox, rendered (a document's link still to be made). */
type PendingEmail = { message: ClaimedMessage; recipient: string; subject: string; body: string; document?: DocumentLink };

/** The quote or invoice a message links to, as it was when the message was decided. */
type DocumentLink = { documentType: DocumentType; documentId: string; linkVersion: number; validUntil: string | null };
