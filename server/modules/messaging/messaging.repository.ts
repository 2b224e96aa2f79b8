import { sql, type SQL } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import type { ConsentSource, ConsentStatus, MessageChannel, MessageStatus, MessageType, MessagingSettings } from '#shared/messaging.ts';

/** The work order as the planner sees it, read under its row lock. */
export type PlanningState = {
  id: string;
  status: string;
  customerId: string;
  email: string | null;
  phone: string;
  /** The appointment in company time, when it has a date and both times. */
  localDate: string | null;
  startTime: string | null;
  endTime: string | null;
  /** The visit's start as an instant (local date + start time in the company's zone). */
  visitStart: Date | null;
  enRouteAt: Date | null;
};

export type ConsentRow = {
  customerId: string;
  channel: MessageChannel;
  status: ConsentStatus;
  source: ConsentSource;
  changedAt: Date;
  changedBy: string | null;
  changedByName: string | null;
  undeliverableAt: Date | null;
  undeliverableNumber: string | null;
};

export type PlannedMessageRow = {
  id: string;
  workOrderId: string;
  type: MessageType;
  channel: MessageChannel;
  status: MessageStatus;
  appointmentVersion: string | null;
};

export type NewMessage = {
  type: MessageType;
  channel: MessageChannel;
  customerId: string | null;
  workOrderId: string | null;
  recipient: string;
  dedupeKey: string;
  appointmentVersion: string | null;
  sendAt: Date;
  /** A text: moved out of the quiet hours (company time) when it falls in them. */
  respectsQuietHours: boolean;
  subject?: string | null;
  body?: string | null;
  /** A quote or an invoice whose link the message sends (issue 20). */
  documentType?: DocumentType | null;
  documentId?: string | null;
};

export type DocumentType = 'quote' | 'invoice';

/** A message claimed for sending, with what its rendering needs (current data, not the planned). */
export type ClaimedMessage = {
  id: string;
  type: MessageType;
  channel: MessageChannel;
  customerId: string | null;
  workOrderId: string | null;
  recipient: string;
  appointmentVersion: string | null;
  attempts: number;
  claimedUntil: Date;
  /** When it was planned. */
  createdAt: Date;
  sendAt: Date;
  /** The body written when it was planned (an estimate request's text, which has no customer to render from later); else null. */
  plannedBody: string | null;
  documentType: DocumentType | null;
  documentId: string | null;
};

export type SendingContext = {
  customerName: string | null;
  email: string | null;
  phone: string | null;
  workOrderStatus: string | null;
  workOrderNumber: string | null;
  workOrderTitle: string | null;
  localDate: string | null;
  startTime: string | null;
  endTime: string | null;
  address: string | null;
  technicianName: string | null;
  summary: string | null;
  /** The quote or invoice of a document message, as it is now (null when there is none or it was deleted). */
  document: DocumentContext | null;
};

export type DocumentContext = {
  number: string | null;
  status: string;
  totalCents: number;
  balanceCents: number | null;
  /** Company-local dates 'YYYY-MM-DD'. */
  dueOn: string | null;
  validUntil: string | null;
  linkVersion: number;
};

export type HistoryRow = {
  id: string;
  type: MessageType;
  channel: MessageChannel;
  status: MessageStatus;
  recipient: string;
  customerId: string | null;
  workOrderId: string | null;
  workOrderNumber: string | null;
  appointmentVersion: string | null;
  sendAt: Date;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
  subject: string | null;
  body: string | null;
  createdAt: Date;
};

export const defaultMessagingSettings: MessagingSettings = { reminderLeadHours: 24, quietStart: '21:00', quietEnd: '08:00' };

const asDate = (value: unknown): Date | null => (value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value)));

/**
 * `instant`, or the next end of the quiet hours when it falls in them (company time). The quiet
 * span may wrap midnight (21:00–08:00) or not (01:00–06:00): either way the end is on the local
 * day of the instant when the instant is before the end, else on the next day.
 */
export function sqlQuietAdjusted(instant: Date, settings: MessagingSettings, timeZone: string): SQL {
  const at = sql`${instant.toISOString()}::timestamptz`;
  const start = sql`${settings.quietStart}::time`;
  const end = sql`${settings.quietEnd}::time`;
  return sql`(select case
      when (case when ${start} <= ${end} then local.t >= ${start} and local.t < ${end} else local.t >= ${start} or local.t < ${end} end)
      then ((local.d + case when local.t < ${end} then 0 else 1 end) + ${end}) at time zone ${timeZone}
      else ${at} end
    from (select (${at} at time zone ${timeZone})::time as t, (${at} at time zone ${timeZone})::date as d) as local)`;
}

/**
 * A message as staff see it. An e-mail is 'sent' once the outbox has it; if the outbox then fails
 * to deliver it for good, the history says failed, with the outbox's error.
 */
const historyColumns = sql`m.id, m.type, m.channel,
  case when e.status = 'failed' then 'failed' else m.status end as status,
  m.recipient, m.customer_id as "customerId", m.work_order_id as "workOrderId",
  w.work_order_number as "workOrderNumber", m.appointment_version as "appointmentVersion", m.send_at as "sendAt",
  case when e.status = 'failed' then null when e.status = 'sent' then e.sent_at else m.sent_at end as "sentAt",
  m.attempts, coalesce(m.last_error, case when e.status = 'failed' then e.last_error end) as "lastError", m.subject, m.body, m.created_at as "createdAt"`;
const historyFrom = sql`messages m left join work_orders w on w.id = m.work_order_id left join outbound_emails e on e.id = m.email_id`;

function toHistory(row: HistoryRow): HistoryRow {
  return { ...row, sendAt: asDate(row.sendAt)!, sentAt: asDate(row.sentAt), createdAt: asDate(row.createdAt)! };
}

export function createMessagingRepository(db: DbExecutor) {
  return {
    /** Takes up to `limit` queued work orders off the queue (SKIP LOCKED: another planner takes others); a rollback puts them back. */
    async takeTriggers(limit: number): Promise<string[]> {
      const result = await db.execute<{ work_order_id: string }>(sql`
        delete from message_triggers where id in (
          select id from message_triggers order by id limit ${limit} for update skip locked
        ) returning work_order_id`);
      return [...new Set(result.rows.map((row) => row.work_order_id))];
    },

    /** The work orders' planning state, each locked (FOR UPDATE) so two planners never plan one work order at once. */
    async lockPlanningStates(ids: string[], timeZone: string): Promise<PlanningState[]> {
      if (ids.length === 0) return [];
      const result = await db.execute<Record<string, unknown>>(sql`
        select w.id, w.status, w.customer_id, c.email, c.phone, w.en_route_at,
               case when w.scheduled_date is not null and w.scheduled_start_time is not null and w.scheduled_end_time is not null
                    then to_char(w.scheduled_date at time zone ${timeZone}, 'YYYY-MM-DD') end as local_date,
               to_char(w.scheduled_start_time, 'HH24:MI') as start_time,
               to_char(w.scheduled_end_time, 'HH24:MI') as end_time,
               case when w.scheduled_date is not null and w.scheduled_start_time is not null
                    then ((w.scheduled_date at time zone ${timeZone})::date + w.scheduled_start_time) at time zone ${timeZone} end as visit_start
        from work_orders w join customers c on c.id = w.customer_id
        where w.id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})
        order by w.id
        for update of w`);
      return result.rows.map((row) => ({
        id: String(row.id),
        status: String(row.status),
        customerId: String(row.customer_id),
        email: (row.email as string | null) ?? null,
        phone: String(row.phone),
        localDate: (row.local_date as string | null) ?? null,
        startTime: (row.start_time as string | null) ?? null,
        endTime: (row.end_time as string | null) ?? null,
        visitStart: asDate(row.visit_start),
        enRouteAt: asDate(row.en_route_at),
      }));
    },

    async consentsOf(customerIds: string[]): Promise<ConsentRow[]> {
      if (customerIds.length === 0) return [];
      const result = await db.execute<ConsentRow>(sql`
        select k.customer_id as "customerId", k.channel, k.status, k.source, k.changed_at as "changedAt", k.changed_by as "changedBy",
               s.name as "changedByName", k.undeliverable_at as "undeliverableAt", k.undeliverable_number as "undeliverableNumber"
        from customer_message_consents k left join staff_users s on s.id = k.changed_by
        where k.customer_id in (${sql.join(customerIds.map((id) => sql`${id}::uuid`), sql`, `)})`);
      return result.rows.map((row) => ({ ...row, changedAt: asDate(row.changedAt)!, undeliverableAt: asDate(row.undeliverableAt) }));
    },

    /** Every message of the work orders, oldest first. */
    async messagesOf(workOrderIds: string[]): Promise<PlannedMessageRow[]> {
      if (workOrderIds.length === 0) return [];
      const result = await db.execute<PlannedMessageRow>(sql`
        select id, work_order_id as "workOrderId", type, channel, status, appointment_version as "appointmentVersion"
        from messages where work_order_id in (${sql.join(workOrderIds.map((id) => sql`${id}::uuid`), sql`, `)})
        order by created_at, id`);
      return result.rows;
    },

    async cancelScheduled(ids: string[], now: Date): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(sql`
        update messages set status = 'cancelled', updated_at = ${now.toISOString()}::timestamptz
        where status = 'scheduled' and id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`);
    },

    /** Inserts what is not there yet (same dedupe key: nothing); answers the ids inserted. */
    async insertMessages(rows: NewMessage[], settings: MessagingSettings, timeZone: string, now: Date): Promise<string[]> {
      if (rows.length === 0) return [];
      const at = sql`${now.toISOString()}::timestamptz`;
      const values = rows.map(
        (row) => sql`(${row.type}, ${row.channel}, ${row.customerId}::uuid, ${row.workOrderId}::uuid, ${row.recipient}, ${row.dedupeKey},
          ${row.appointmentVersion}, ${row.respectsQuietHours ? sqlQuietAdjusted(row.sendAt, settings, timeZone) : sql`${row.sendAt.toISOString()}::timestamptz`},
          ${row.subject ?? null}, ${row.body ?? null}, ${row.documentType ?? null}, ${row.documentId ?? null}::uuid, ${at}, ${at})`,
      );
      const result = await db.execute<{ id: string }>(sql`
        insert into messages (type, channel, customer_id, work_order_id, recipient, dedupe_key, appointment_version, send_at, subject, body, document_type, document_id, created_at, updated_at)
        values ${sql.join(values, sql`, `)}
        on conflict (dedupe_key) do nothing
        returning id`);
      return result.rows.map((row) => row.id);
    },

    async settings(): Promise<MessagingSettings> {
      const result = await db.execute<{ reminderLeadHours: number; quietStart: string; quietEnd: string }>(sql`
        select reminder_lead_hours as "reminderLeadHours", to_char(quiet_start, 'HH24:MI') as "quietStart", to_char(quiet_end, 'HH24:MI') as "quietEnd"
        from messaging_settings where id = 1`);
      return result.rows[0] ?? defaultMessagingSettings;
    },

    async saveSettings(settings: MessagingSettings, now: Date): Promise<void> {
      await db.execute(sql`
        insert into messaging_settings (id, reminder_lead_hours, quiet_start, quiet_end, updated_at)
        values (1, ${settings.reminderLeadHours}, ${settings.quietStart}::time, ${settings.quietEnd}::time, ${now.toISOString()}::timestamptz)
        on conflict (id) do update set reminder_lead_hours = excluded.reminder_lead_hours, quiet_start = excluded.quiet_start,
          quiet_end = excluded.quiet_end, updated_at = excluded.updated_at`);
    },

    /** Rows whose lease ran out (a crashed or stopped sender) go back to the schedule, due at once. */
    async releaseExpiredClaims(now: Date): Promise<number> {
      const result = await db.execute<{ id: string }>(sql`
        update messages set status = 'scheduled', claimed_until = null, updated_at = ${now.toISOString()}::timestamptz
        where status = 'sending' and claimed_until <= ${now.toISOString()}::timestamptz
        returning id`);
      return result.rows.length;
    },

    /** Claims up to `limit` due messages for `leaseMinutes` (SKIP LOCKED: another sender claims others). */
    async claimDue(now: Date, limit: number, leaseMinutes: number): Promise<ClaimedMessage[]> {
      const at = sql`${now.toISOString()}::timestamptz`;
      const result = await db.execute<ClaimedMessage>(sql`
        update messages set status = 'sending', claimed_until = ${at} + make_interval(mins => ${leaseMinutes}), updated_at = ${at}
        where id in (
          select id from messages where status = 'scheduled' and send_at <= ${at}
          order by send_at limit ${limit}
          for update skip locked
        )
        returning id, type, channel, customer_id as "customerId", work_order_id as "workOrderId", recipient,
                  appointment_version as "appointmentVersion", attempts, claimed_until as "claimedUntil", created_at as "createdAt", send_at as "sendAt",
                  body as "plannedBody", document_type as "documentType", document_id as "documentId"`);
      // RETURNING keeps no order: the longest due first.
      return result.rows
        .map((row) => ({ ...row, claimedUntil: asDate(row.claimedUntil)!, createdAt: asDate(row.createdAt)!, sendAt: asDate(row.sendAt)! }))
        .sort((a, b) => a.sendAt.getTime() - b.sendAt.getTime());
    },

    /** Gives claimed rows back (a closing sender that did not start them). */
    async unclaim(ids: string[], now: Date): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(sql`
        update messages set status = 'scheduled', claimed_until = null, updated_at = ${now.toISOString()}::timestamptz
        where status = 'sending' and id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`);
    },

    /** What rendering each message needs, current data: one query for the whole claimed batch, keyed by message id. */
    async sendingContexts(
      messages: (Pick<ClaimedMessage, 'id' | 'customerId' | 'workOrderId'> & Partial<Pick<ClaimedMessage, 'documentType' | 'documentId'>>)[],
      timeZone: string,
    ): Promise<Map<string, SendingContext>> {
      if (messages.length === 0) return new Map();
      const wanted = messages.map(
        (message) =>
          sql`(${message.id}::uuid, ${message.customerId}::uuid, ${message.workOrderId}::uuid, ${message.documentType ?? null}::text, ${message.documentId ?? null}::uuid)`,
      );
      const result = await db.execute<Record<string, unknown>>(sql`
        select m.id as message_id, c.name as customer_name, c.email, c.phone, w.status, w.work_order_number, w.title,
               case when w.scheduled_date is not null then to_char(w.scheduled_date at time zone ${timeZone}, 'YYYY-MM-DD') end as local_date,
               to_char(w.scheduled_start_time, 'HH24:MI') as start_time, to_char(w.scheduled_end_time, 'HH24:MI') as end_time,
               case when w.id is not null then concat_ws(', ', coalesce(w.service_address, c.address), coalesce(w.service_city, c.city), coalesce(w.service_state, c.state))
                    else concat_ws(', ', c.address, c.city, c.state) end as address,
               t.name as technician_name,
               coalesce(nullif(trim(w.notes), ''), nullif(trim(w.description), ''), w.title) as summary,
               coalesce(q.id, i.id) as document_id, coalesce(q.quote_number, i.invoice_number) as document_number,
               coalesce(q.status, i.status) as document_status, coalesce(i.total_cents, o.total_cents, 0) as document_total,
               i.balance_cents as document_balance, to_char(i.due_on, 'YYYY-MM-DD') as document_due_on,
               to_char(q.valid_until, 'YYYY-MM-DD') as document_valid_until, coalesce(q.link_version, i.link_version) as document_link_version
        from (values ${sql.join(wanted, sql`, `)}) as m (id, customer_id, work_order_id, document_type, document_id)
        left join customers c on c.id = m.customer_id
        left join work_orders w on w.id = m.work_order_id
        left join technicians t on t.id = w.technician_id
        left join quotes q on m.document_type = 'quote' and q.id = m.document_id
        left join lateral (select max(total_cents) as total_cents from quote_options where quote_id = q.id) as o on true
        left join invoices i on m.document_type = 'invoice' and i.id = m.document_id`);
      const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
      return new Map(
        result.rows.map((row) => [
          String(row.message_id),
          {
            customerName: text(row.customer_name),
            email: text(row.email),
            phone: text(row.phone),
            workOrderStatus: text(row.status),
            workOrderNumber: text(row.work_order_number),
            workOrderTitle: text(row.title),
            localDate: text(row.local_date),
            startTime: text(row.start_time),
            endTime: text(row.end_time),
            address: text(row.address),
            technicianName: text(row.technician_name),
            summary: text(row.summary),
            document:
              row.document_id === null || row.document_id === undefined
                ? null
                : {
                    number: text(row.document_number),
                    status: String(row.document_status),
                    totalCents: Number(row.document_total),
                    balanceCents: row.document_balance === null || row.document_balance === undefined ? null : Number(row.document_balance),
                    dueOn: text(row.document_due_on),
                    validUntil: text(row.document_valid_until),
                    linkVersion: Number(row.document_link_version),
                  },
          },
        ]),
      );
    },

    /** Template edits by type. */
    async templates(): Promise<{ type: MessageType; subject: string; emailBody: string; smsBody: string; updatedAt: Date }[]> {
      const result = await db.execute<{ type: MessageType; subject: string; emailBody: string; smsBody: string; updatedAt: Date }>(sql`
        select type, subject, email_body as "emailBody", sms_body as "smsBody", updated_at as "updatedAt" from message_templates order by type`);
      return result.rows.map((row) => ({ ...row, updatedAt: asDate(row.updatedAt)! }));
    },

    /** Removes an admin's edit of a template; whether there was one. */
    async deleteTemplate(type: MessageType): Promise<boolean> {
      const result = await db.execute<{ type: string }>(sql`delete from message_templates where type = ${type} returning type`);
      return result.rows.length > 0;
    },

    async saveTemplate(type: MessageType, template: { subject: string; emailBody: string; smsBody: string }, staffId: string | null, now: Date): Promise<void> {
      await db.execute(sql`
        insert into message_templates (type, subject, email_body, sms_body, updated_at, updated_by)
        values (${type}, ${template.subject}, ${template.emailBody}, ${template.smsBody}, ${now.toISOString()}::timestamptz, ${staffId}::uuid)
        on conflict (type) do update set subject = excluded.subject, email_body = excluded.email_body, sms_body = excluded.sms_body,
          updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
    },

    /**
     * Marks the claimed message finished, only while this sender still holds its claim (same
     * claimed_until): false when the lease ran out and another sender took it.
     */
    async finish(
      message: Pick<ClaimedMessage, 'id' | 'claimedUntil'>,
      values: { status: MessageStatus; recipient?: string; subject?: string | null; body?: string | null; providerId?: string | null; emailId?: string | null; lastError?: string | null; attempts: number; sentAt?: Date | null; sendAt?: Date },
      now: Date,
    ): Promise<boolean> {
      const result = await db.execute<{ id: string }>(sql`
        update messages set status = ${values.status}, attempts = ${values.attempts}, claimed_until = null, updated_at = ${now.toISOString()}::timestamptz,
          recipient = coalesce(${values.recipient ?? null}, recipient),
          subject = coalesce(${values.subject ?? null}, subject), body = coalesce(${values.body ?? null}, body),
          provider_id = coalesce(${values.providerId ?? null}, provider_id), email_id = coalesce(${values.emailId ?? null}::uuid, email_id),
          last_error = ${values.lastError ?? null},
          sent_at = coalesce(${values.sentAt ? values.sentAt.toISOString() : null}::timestamptz, sent_at),
          send_at = coalesce(${values.sendAt ? values.sendAt.toISOString() : null}::timestamptz, send_at)
        where id = ${message.id}::uuid and status = 'sending' and claimed_until = ${message.claimedUntil.toISOString()}::timestamptz
        returning id`);
      return result.rows.length === 1;
    },

    /**
     * `finish` for many e-mails handed to the outbox at once (one statement): each marked sent only
     * while this sender still holds its claim. Answers the ids it marked.
     */
    async finishSentEmails(
      rows: { message: Pick<ClaimedMessage, 'id' | 'claimedUntil'>; recipient: string; subject: string; body: string; attempts: number }[],
      now: Date,
    ): Promise<Set<string>> {
      if (rows.length === 0) return new Set();
      const at = sql`${now.toISOString()}::timestamptz`;
      const values = rows.map(
        (row) => sql`(${row.message.id}::uuid, ${row.message.claimedUntil.toISOString()}::timestamptz, ${row.recipient}, ${row.subject}, ${row.body}, ${row.attempts}::integer)`,
      );
      const result = await db.execute<{ id: string }>(sql`
        update messages m set status = 'sent', attempts = v.attempts, claimed_until = null, updated_at = ${at},
          recipient = v.recipient, subject = v.subject, body = v.body, last_error = null, sent_at = ${at}
        from (values ${sql.join(values, sql`, `)}) as v (id, claimed_until, recipient, subject, body, attempts)
        where m.id = v.id and m.status = 'sending' and m.claimed_until = v.claimed_until
        returning m.id`);
      return new Set(result.rows.map((row) => String(row.id)));
    },

    /** Records which outbox e-mail carries each message (the history follows its delivery). */
    async linkEmails(links: { messageId: string; emailId: string }[]): Promise<void> {
      if (links.length === 0) return;
      const values = links.map((link) => sql`(${link.messageId}::uuid, ${link.emailId}::uuid)`);
      await db.execute(sql`
        update messages m set email_id = v.email_id
        from (values ${sql.join(values, sql`, `)}) as v (id, email_id)
        where m.id = v.id`);
    },

    async markUndeliverable(customerId: string, number: string, now: Date): Promise<void> {
      await db.execute(sql`
        update customer_message_consents set undeliverable_at = ${now.toISOString()}::timestamptz, undeliverable_number = ${number}
        where customer_id = ${customerId}::uuid and channel = 'sms'`);
    },

    async historyOfWorkOrder(workOrderId: string, limit = 200): Promise<HistoryRow[]> {
      const result = await db.execute<HistoryRow>(sql`
        select ${historyColumns} from ${historyFrom}
        where m.work_order_id = ${workOrderId}::uuid order by m.created_at desc, m.id desc limit ${limit}`);
      return result.rows.map(toHistory);
    },

    async historyOfCustomer(customerId: string, limit = 200): Promise<HistoryRow[]> {
      const result = await db.execute<HistoryRow>(sql`
        select ${historyColumns} from ${historyFrom}
        where m.customer_id = ${customerId}::uuid order by m.created_at desc, m.id desc limit ${limit}`);
      return result.rows.map(toHistory);
    },

    async findMessage(id: string): Promise<(HistoryRow & { dedupeKey: string }) | undefined> {
      const result = await db.execute<HistoryRow & { dedupeKey: string }>(sql`
        select ${historyColumns}, m.dedupe_key as "dedupeKey" from ${historyFrom} where m.id = ${id}::uuid`);
      const row = result.rows[0];
      return row ? { ...toHistory(row), dedupeKey: row.dedupeKey } : undefined;
    },

    async workOrderExists(id: string): Promise<boolean> {
      const result = await db.execute(sql`select 1 from work_orders where id = ${id}::uuid`);
      return result.rows.length > 0;
    },

    async customerExists(id: string): Promise<boolean> {
      const result = await db.execute(sql`select 1 from customers where id = ${id}::uuid`);
      return result.rows.length > 0;
    },

    async customerName(id: string): Promise<string | undefined> {
      const result = await db.execute<{ name: string }>(sql`select name from customers where id = ${id}::uuid`);
      return result.rows[0]?.name;
    },

    async upsertConsent(customerId: string, channel: MessageChannel, status: ConsentStatus, source: ConsentSource, staffId: string | null, now: Date): Promise<void> {
      await db.execute(sql`
        insert into customer_message_consents (customer_id, channel, status, source, changed_at, changed_by)
        values (${customerId}::uuid, ${channel}, ${status}, ${source}, ${now.toISOString()}::timestamptz, ${staffId}::uuid)
        on conflict (customer_id, channel) do update set status = excluded.status, source = excluded.source,
          changed_at = excluded.changed_at, changed_by = excluded.changed_by`);
    },

    async fetchById(id: string): Promise<HistoryRow | undefined> {
      const result = await db.execute<HistoryRow>(sql`
        select ${historyColumns} from ${historyFrom} where m.id = ${id}::uuid`);
      const row = result.rows[0];
      return row ? toHistory(row) : undefined;
    },
  };
}

export type MessagingRepository = ReturnType<typeof createMessagingRepository>;
