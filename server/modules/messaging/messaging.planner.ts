import { withTransaction, type Database } from '#server/db/client.ts';
import { toE164 } from '#shared/phone.ts';
import type { MessageChannel, MessageType, MessagingSettings } from '#shared/messaging.ts';
import type { ConsentRow, MessagingRepository, NewMessage, PlannedMessageRow, PlanningState } from './messaging.repository.ts';

/** E.164 for a number as customers type it (US by default), or null: texts go only to such numbers. */
export function phoneToE164(raw: string | null | undefined): string | null {
  return raw ? toE164(raw) : null;
}

/** The appointment a message is about: '2026-12-01 08:00-10:00' (company-local date, start, end). */
export function appointmentVersionOf(state: Pick<PlanningState, 'localDate' | 'startTime' | 'endTime'>): string | null {
  return state.localDate && state.startTime && state.endTime ? `${state.localDate} ${state.startTime}-${state.endTime}` : null;
}

export function parseAppointmentVersion(version: string | null): { date: string; start: string; end: string } | null {
  const match = version ? /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(version) : null;
  return match ? { date: match[1]!, start: match[2]!, end: match[3]! } : null;
}

/**
 * Where a message on `channel` goes for this customer now, or null when it may not go: e-mail
 * unless opted out (no row: yes, the message is transactional) and the customer has an address;
 * texts only when opted in, to a number that takes texts and was not refused for good.
 */
export function recipientFor(channel: MessageChannel, contact: { email: string | null; phone: string | null }, consent: Pick<ConsentRow, 'status' | 'undeliverableNumber' | 'undeliverableAt'> | undefined): string | null {
  if (channel === 'email') {
    if (consent?.status === 'opted_out') return null;
    const email = contact.email?.trim();
    return email ? email : null;
  }
  if (consent?.status !== 'opted_in') return null;
  const number = phoneToE164(contact.phone);
  if (!number) return null;
  if (consent.undeliverableAt && consent.undeliverableNumber === number) return null;
  return number;
}

const appointmentTypes = new Set<MessageType>(['appointment_confirmed', 'appointment_rescheduled']);
const openStatuses = new Set(['pending', 'scheduled']);
const channels: MessageChannel[] = ['email', 'sms'];
/** An en-route mark older than this when planned (the planner was down) sends nothing: the visit has begun. */
const onMyWayFreshMinutes = 120;

export type WorkOrderPlan = { cancel: string[]; insert: NewMessage[] };

/**
 * What one work order's messages should become (decision 021-a), from its state and the messages
 * it already has. Pure: the planner runs it under the work order's row lock. Every inserted
 * message has a dedupe key that names what it is about, so planning twice inserts nothing twice.
 */
export function planWorkOrder(
  state: PlanningState,
  existing: PlannedMessageRow[],
  consents: Map<MessageChannel, ConsentRow>,
  settings: MessagingSettings,
  now: Date,
): WorkOrderPlan {
  const cancel = new Set<string>();
  const insert: NewMessage[] = [];
  const version = appointmentVersionOf(state);
  const hasAppointment = version !== null && openStatuses.has(state.status);
  const base = (channel: MessageChannel, recipient: string) => ({
    channel,
    recipient,
    customerId: state.customerId,
    workOrderId: state.id,
    respectsQuietHours: channel === 'sms',
  });

  for (const channel of channels) {
    const mine = existing.filter((message) => message.channel === channel);
    const recipient = recipientFor(channel, { email: state.email, phone: state.phone }, consents.get(channel));
    const scheduledOf = (predicate: (message: PlannedMessageRow) => boolean) =>
      mine.filter((message) => message.status === 'scheduled' && predicate(message)).map((message) => message.id);
    const confirmations = mine.filter((message) => appointmentTypes.has(message.type));
    const told = confirmations.filter((message) => message.status === 'sent' || message.status === 'sending');

    if (hasAppointment) {
      // Confirmations and reminders of other versions are moot.
      for (const id of scheduledOf((message) => (appointmentTypes.has(message.type) || message.type === 'appointment_reminder') && message.appointmentVersion !== version)) cancel.add(id);
      const live = confirmations.filter((message) => message.status !== 'cancelled' && !cancel.has(message.id));
      const latest = live.at(-1);
      if (recipient && latest?.appointmentVersion !== version) {
        const isMove = told.some((message) => message.appointmentVersion !== version);
        insert.push({
          ...base(channel, recipient),
          type: isMove ? 'appointment_rescheduled' : 'appointment_confirmed',
          dedupeKey: `${state.id}:${channel}:appointment:${version}:${confirmations.length}`,
          appointmentVersion: version,
          sendAt: now,
        });
      }
      const reminders = mine.filter((message) => message.type === 'appointment_reminder');
      const hasReminder = reminders.some((message) => message.appointmentVersion === version && message.status !== 'cancelled');
      const remindAt = state.visitStart ? new Date(state.visitStart.getTime() - settings.reminderLeadHours * 3_600_000) : null;
      if (recipient && !hasReminder && remindAt && remindAt.getTime() > now.getTime()) {
        insert.push({
          ...base(channel, recipient),
          type: 'appointment_reminder',
          dedupeKey: `${state.id}:${channel}:reminder:${version}:${reminders.length}`,
          appointmentVersion: version,
          sendAt: remindAt,
        });
      }
    } else {
      // No appointment to keep (cancelled, completed, in progress, or unscheduled): nothing of one is still to go.
      for (const id of scheduledOf((message) => appointmentTypes.has(message.type) || message.type === 'appointment_reminder')) cancel.add(id);
    }

    if (state.status === 'cancelled') {
      for (const id of scheduledOf((message) => message.type === 'on_my_way' || message.type === 'visit_completed')) cancel.add(id);
      const lastTold = told.at(-1);
      if (recipient && lastTold) {
        insert.push({
          ...base(channel, recipient),
          type: 'appointment_cancelled',
          dedupeKey: `${state.id}:${channel}:cancelled:${lastTold.appointmentVersion ?? 'none'}`,
          appointmentVersion: lastTold.appointmentVersion,
          sendAt: now,
        });
      }
    }

    if (recipient && state.enRouteAt && state.status !== 'cancelled' && state.status !== 'completed' && now.getTime() - state.enRouteAt.getTime() <= onMyWayFreshMinutes * 60_000) {
      insert.push({
        ...base(channel, recipient),
        type: 'on_my_way',
        dedupeKey: `${state.id}:${channel}:on_my_way:${state.enRouteAt.getTime()}`,
        appointmentVersion: version,
        sendAt: now,
      });
    }

    if (recipient && state.status === 'completed') {
      insert.push({
        ...base(channel, recipient),
        type: 'visit_completed',
        dedupeKey: `${state.id}:${channel}:visit_completed`,
        appointmentVersion: version,
        sendAt: now,
      });
    }
  }
  return { cancel: [...cancel], insert };
}

/**
 * Plans the queued work orders: takes a batch of message_triggers rows (SKIP LOCKED), locks those
 * work orders, compares each one's state with its messages, cancels and inserts (on conflict do
 * nothing), all in one transaction with the removal of the queue rows. Answers how many work
 * orders it planned and how many messages it inserted.
 */
export async function planPendingBatch(options: {
  db: Database;
  repository: (db: Database) => MessagingRepository;
  timeZone: string;
  now: Date;
  batchSize: number;
}): Promise<{ taken: number; workOrders: number; inserted: number }> {
  const { db, repository, timeZone, now, batchSize } = options;
  return withTransaction(db, async (tx) => {
    const messaging = repository(tx);
    const ids = await messaging.takeTriggers(batchSize);
    if (ids.length === 0) return { taken: 0, workOrders: 0, inserted: 0 };
    const states = await messaging.lockPlanningStates(ids, timeZone);
    const settings = await messaging.settings();
    const consents = await messaging.consentsOf([...new Set(states.map((state) => state.customerId))]);
    const existing = await messaging.messagesOf(states.map((state) => state.id));
    const cancel: string[] = [];
    const insert: NewMessage[] = [];
    for (const state of states) {
      const customerConsents = new Map(consents.filter((consent) => consent.customerId === state.customerId).map((consent) => [consent.channel, consent]));
      const plan = planWorkOrder(state, existing.filter((message) => message.workOrderId === state.id), customerConsents, settings, now);
      cancel.push(...plan.cancel);
      insert.push(...plan.insert);
    }
    await messaging.cancelScheduled(cancel, now);
    const inserted = await messaging.insertMessages(insert, settings, timeZone, now);
    return { taken: ids.length, workOrders: states.length, inserted: inserted.length };
  });
}
