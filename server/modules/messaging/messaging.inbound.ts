import { sql } from 'drizzle-orm';
import { classifyInboundText, twimlMessage, type InboundTextKind } from '#server/adapters/sms/inbound-keywords.ts';
import { withTransaction, type Database, type DbExecutor, type RepositoryFactory } from '#server/db/client.ts';
import { recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import type { NotificationRepository } from '#server/modules/notifications/index.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { firstNameOf, formatAppointmentDate, formatAppointmentWindow } from '#shared/messaging.ts';
import { notificationTypes } from '#shared/notifications.ts';
import { formatPhoneForDisplay, phoneLast10 } from '#shared/phone.ts';
import type { MessagingRepository } from './messaging.repository.ts';

/**
 * Texts customers send to the company's number (issue 18, decision 021-a): the provider's webhook
 * has been verified (messaging.inbound-routes.ts); this decides what the text means and does it, in
 * one transaction: STOP / START change the text consent of every customer with that number, HELP
 * only answers, C confirms the soonest upcoming visit, R and anything else become a staff
 * notification. The answer is TwiML (the provider texts it back). A text is handled once per
 * provider message id: a repeat (the provider retries a webhook it did not see answered) gets the
 * same kind of answer and changes nothing.
 */

/** Who the activity log names for a change a customer made by text. */
const customerByText: AuditActor = { id: null, name: 'Customer (text reply)' };

/** The longest part of a text a notification shows. */
const notificationTextLimit = 500;

type MatchedCustomer = { id: string; name: string };

/** The visit a C or R is about: the matched customers' soonest upcoming scheduled work order. */
type UpcomingVisit = {
  id: string;
  workOrderNumber: string;
  customerId: string;
  customerName: string;
  localDate: string | null;
  startTime: string | null;
  endTime: string | null;
};

export type InboundText = {
  /** The provider's id of the text (Twilio's MessageSid). */
  providerId: string;
  /** The sender's number as the provider gives it (E.164). */
  from: string;
  body: string;
};

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function inboundQueries(db: DbExecutor) {
  return {
    /** Every customer whose stored phone ends in the same ten digits, oldest first. */
    async customersWithNumber(last10: string): Promise<MatchedCustomer[]> {
      const result = await db.execute<MatchedCustomer>(sql`
        select id, name from customers where phone_last10 = ${last10} order by created_at, id`);
      return result.rows;
    },

    /**
     * The soonest scheduled visit of these customers that has not ended (company time: the end of
     * its window, or the end of its day when it has no times), locked for the confirmation.
     */
    async soonestUpcomingVisit(customerIds: string[], timeZone: string, now: Date): Promise<UpcomingVisit | undefined> {
      if (customerIds.length === 0) return undefined;
      const localDate = sql`(w.scheduled_date at time zone ${timeZone})::date`;
      const result = await db.execute<Record<string, unknown>>(sql`
        select w.id, w.work_order_number, w.customer_id, c.name as customer_name,
               to_char(${localDate}, 'YYYY-MM-DD') as local_date,
               to_char(w.scheduled_start_time, 'HH24:MI') as start_time, to_char(w.scheduled_end_time, 'HH24:MI') as end_time
        from work_orders w join customers c on c.id = w.customer_id
        where w.customer_id in (${sql.join(customerIds.map((id) => sql`${id}::uuid`), sql`, `)})
          and w.status = 'scheduled' and w.scheduled_date is not null
          and ((${localDate} + coalesce(w.scheduled_end_time, time '23:59:59')) at time zone ${timeZone}) > ${now.toISOString()}::timestamptz
        order by ${localDate}, w.scheduled_start_time nulls last, w.id
        limit 1
        for update of w`);
      const row = result.rows[0];
      return row ? toVisit(row) : undefined;
    },

    async visitById(id: string, timeZone: string): Promise<UpcomingVisit | undefined> {
      const result = await db.execute<Record<string, unknown>>(sql`
        select w.id, w.work_order_number, w.customer_id, c.name as customer_name,
               case when w.scheduled_date is not null then to_char(w.scheduled_date at time zone ${timeZone}, 'YYYY-MM-DD') end as local_date,
               to_char(w.scheduled_start_time, 'HH24:MI') as start_time, to_char(w.scheduled_end_time, 'HH24:MI') as end_time
        from work_orders w join customers c on c.id = w.customer_id
        where w.id = ${id}::uuid`);
      const row = result.rows[0];
      return row ? toVisit(row) : undefined;
    },

    async customerName(id: string): Promise<string | undefined> {
      const result = await db.execute<{ name: string }>(sql`select name from customers where id = ${id}::uuid`);
      return result.rows[0]?.name;
    },

    /** Stores the text; false when a text with this provider id is already stored (a repeat). */
    async insertText(values: { providerId: string; from: string; body: string; kind: InboundTextKind; customerId: string | null; workOrderId: string | null; now: Date }): Promise<boolean> {
      const result = await db.execute<{ id: string }>(sql`
        insert into inbound_texts (provider_id, from_number, body, kind, customer_id, work_order_id, created_at)
        values (${values.providerId}, ${values.from}, ${values.body}, ${values.kind}, ${values.customerId}::uuid, ${values.workOrderId}::uuid,
                ${values.now.toISOString()}::timestamptz)
        on conflict (provider_id) do nothing
        returning id`);
      return result.rows.length === 1;
    },

    async storedText(providerId: string): Promise<{ kind: InboundTextKind; customerId: string | null; workOrderId: string | null } | undefined> {
      const result = await db.execute<{ kind: InboundTextKind; customerId: string | null; workOrderId: string | null }>(sql`
        select kind, customer_id as "customerId", work_order_id as "workOrderId" from inbound_texts where provider_id = ${providerId}`);
      return result.rows[0];
    },

    /**
     * The customer's confirmation of the visit. Not an edit of the work order: `updated_at` stays
     * (a dispatcher's open form is not made stale by it) and the messaging trigger does not fire
     * on this column; the statement-level change notification still refreshes staff screens.
     */
    async markConfirmed(workOrderId: string, now: Date): Promise<void> {
      await db.execute(sql`update work_orders set customer_confirmed_at = ${now.toISOString()}::timestamptz where id = ${workOrderId}::uuid`);
    },
  };
}

function toVisit(row: Record<string, unknown>): UpcomingVisit {
  return {
    id: String(row.id),
    workOrderNumber: String(row.work_order_number),
    customerId: String(row.customer_id),
    customerName: String(row.customer_name),
    localDate: text(row.local_date),
    startTime: text(row.start_time),
    endTime: text(row.end_time),
  };
}

/** What the text was taken as and whom it concerns, decided before anything is stored. */
type Understanding = { kind: InboundTextKind; customers: MatchedCustomer[]; customer: MatchedCustomer | null; visit: UpcomingVisit | undefined };

export function createInboundTextService(options: {
  db: Database;
  messagingRepository: RepositoryFactory<MessagingRepository>;
  notifications: Pick<NotificationRepository, 'insert'>;
  company: Pick<CompanyProfile, 'name' | 'phone'>;
  timeZone: string;
  now?: () => Date;
}) {
  const { db, messagingRepository, notifications, company, timeZone } = options;
  const now = options.now ?? (() => new Date());

  const answers = {
    stop: () => `You're unsubscribed from ${company.name} texts. No more messages will be sent. Reply START to resubscribe.`,
    start: () => `You're resubscribed to ${company.name} texts. Reply STOP to opt out, HELP for help.`,
    help: () => `${company.name}: appointment texts. Call ${company.phone} for help. Msg&data rates may apply. Reply STOP to opt out.`,
    confirmed: (visit: UpcomingVisit) => {
      const when = visit.localDate ? formatAppointmentDate(visit.localDate) : 'your appointment';
      const window = visit.startTime && visit.endTime ? ` (${formatAppointmentWindow(visit.startTime, visit.endTime)})` : '';
      return `Thanks, ${firstNameOf(visit.customerName)}! Your visit on ${when}${window} is confirmed. — ${company.name}`;
    },
    noVisit: () => `We couldn't find an upcoming visit for this number. Call ${company.phone} and we'll help.`,
    reschedule: () => `Got it. We'll call you to find a new time. — ${company.name}`,
  };

  function answerFor(kind: InboundTextKind, visit: UpcomingVisit | undefined): string {
    switch (kind) {
      case 'stop':
        return answers.stop();
      case 'start':
        return answers.start();
      case 'help':
        return answers.help();
      case 'confirm':
        return visit ? answers.confirmed(visit) : answers.noVisit();
      case 'reschedule':
        return answers.reschedule();
      case 'other':
        return '';
    }
  }

  /** The staff notification a text becomes (C, R and anything else; none for STOP, START, HELP). */
  function notificationFor(input: InboundText, understood: Understanding, textBody: string) {
    const { kind, customer, visit } = understood;
    const number = formatPhoneForDisplay(input.from);
    const who = customer?.name ?? number;
    // Cut by characters (code points), never inside a surrogate pair: half an emoji is no valid JSON text for jsonb.
    const characters = Array.from(textBody);
    const shown = textBody === '' ? '(no text)' : characters.length > notificationTextLimit ? `${characters.slice(0, notificationTextLimit).join('')}…` : textBody;
    const link = visit ? `/admin/workorders/${visit.id}` : customer ? `/admin/customers/${customer.id}` : undefined;
    const data = {
      kind,
      from: input.from,
      ...(customer ? { customer_id: customer.id } : {}),
      ...(visit ? { work_order_id: visit.id } : {}),
      ...(link ? { link } : {}),
    };
    if (kind === 'confirm' && visit) {
      return { type: notificationTypes.customerText, title: 'Appointment confirmed by text', message: `${visit.customerName} confirmed their appointment ${visit.workOrderNumber} by text`, data };
    }
    if (kind === 'reschedule' && customer) {
      const what = visit ? ` ${visit.workOrderNumber}` : '';
      return { type: notificationTypes.customerText, title: 'Reschedule request by text', message: `${who} asks to reschedule${what} by text: call them`, data };
    }
    return { type: notificationTypes.customerText, title: `Text from ${who}`, message: `Text from ${who}: ${shown}`, data };
  }

  async function understand(tx: DbExecutor, kind: InboundTextKind, from: string, at: Date): Promise<Understanding> {
    const queries = inboundQueries(tx);
    const last10 = phoneLast10(from);
    const customers = last10 ? await queries.customersWithNumber(last10) : [];
    const ids = customers.map((customer) => customer.id);
    // A C or R is about a visit: several customers sharing a number are told apart by the soonest one.
    const visit = kind === 'confirm' || kind === 'reschedule' ? await queries.soonestUpcomingVisit(ids, timeZone, at) : undefined;
    const customer = (visit && customers.find((candidate) => candidate.id === visit.customerId)) ?? customers[0] ?? null;
    return { kind, customers, customer, visit };
  }

  return {
    /** Handles one verified inbound text; answers the TwiML to send back. */
    async receive(input: InboundText): Promise<string> {
      const { kind, text: textBody } = classifyInboundText(input.body);
      const at = now();
      const reply = await withTransaction(db, async (tx) => {
        const queries = inboundQueries(tx);
        const understood = await understand(tx, kind, input.from, at);
        const isNew = await queries.insertText({
          providerId: input.providerId,
          from: input.from,
          body: input.body,
          kind,
          customerId: understood.customer?.id ?? null,
          workOrderId: understood.visit?.id ?? null,
          now: at,
        });
        if (!isNew) return replayAnswer(tx, input.providerId);

        if (kind === 'stop' || kind === 'start') {
          const status = kind === 'stop' ? 'opted_out' : 'opted_in';
          const messaging = messagingRepository(tx);
          const before = await messaging.consentsOf(understood.customers.map((customer) => customer.id));
          for (const customer of understood.customers) {
            await messaging.upsertConsent(customer.id, 'sms', status, 'reply', null, at);
            const previous = before.find((row) => row.customerId === customer.id && row.channel === 'sms')?.status ?? 'default';
            if (previous !== status) {
              await recordAudit(tx, {
                actor: customerByText,
                entityType: 'customer',
                entityId: customer.id,
                entityLabel: customer.name,
                action: 'message_consent_changed',
                changes: { textMessages: [previous, status] },
              });
            }
          }
        } else if (kind === 'confirm' && understood.visit) {
          await queries.markConfirmed(understood.visit.id, at);
          await recordAudit(tx, {
            actor: customerByText,
            entityType: 'work_order',
            entityId: understood.visit.id,
            entityLabel: understood.visit.workOrderNumber,
            action: 'customer_confirmed',
            changes: { customerConfirmedAt: [null, at.toISOString()] },
          });
        }
        if (kind === 'confirm' || kind === 'reschedule' || kind === 'other') {
          await notifications.insert(tx, notificationFor(input, understood, textBody));
        }
        return answerFor(kind, understood.visit);
      });
      return twimlMessage(reply);
    },
  };

  /** A repeat of a stored text: the same kind of answer, from what was stored the first time. */
  async function replayAnswer(tx: DbExecutor, providerId: string): Promise<string> {
    const queries = inboundQueries(tx);
    const stored = await queries.storedText(providerId);
    if (!stored) return '';
    const visit = stored.kind === 'confirm' && stored.workOrderId ? await queries.visitById(stored.workOrderId, timeZone) : undefined;
    return answerFor(stored.kind, visit);
  }
}

export type InboundTextService = ReturnType<typeof createInboundTextService>;
