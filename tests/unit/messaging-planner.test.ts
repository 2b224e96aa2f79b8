import { describe, expect, it } from 'vitest';
import { planWorkOrder, recipientFor } from '#server/modules/messaging/messaging.planner.ts';
import type { ConsentRow, PlannedMessageRow, PlanningState } from '#server/modules/messaging/messaging.repository.ts';
import type { MessageChannel } from '#shared/messaging.ts';

const now = new Date('2026-12-01T17:00:00Z');
const settings = { reminderLeadHours: 24, quietStart: '21:00', quietEnd: '08:00' };

const state = (overrides: Partial<PlanningState> = {}): PlanningState => ({
  id: 'wo-1',
  status: 'scheduled',
  customerId: 'c-1',
  email: 'dana@example.com',
  phone: '(843) 271-2001',
  localDate: '2026-12-05',
  startTime: '10:00',
  endTime: '12:00',
  visitStart: new Date('2026-12-05T15:00:00Z'),
  enRouteAt: null,
  ...overrides,
});

let sequence = 0;
const message = (overrides: Partial<PlannedMessageRow>): PlannedMessageRow => ({
  id: `m-${(sequence += 1)}`,
  workOrderId: 'wo-1',
  type: 'appointment_confirmed',
  channel: 'email',
  status: 'sent',
  appointmentVersion: '2026-12-05 10:00-12:00',
  ...overrides,
});

const noConsents = new Map<MessageChannel, ConsentRow>();
const textsAllowed = new Map<MessageChannel, ConsentRow>([
  ['sms', { customerId: 'c-1', channel: 'sms', status: 'opted_in', source: 'form', changedAt: now, changedBy: null, changedByName: null, undeliverableAt: null, undeliverableNumber: null }],
]);

describe('planWorkOrder', () => {
  it('confirms a new appointment and plans its reminder, by e-mail only without a consent row', () => {
    const plan = planWorkOrder(state(), [], noConsents, settings, now);
    expect(plan.cancel).toEqual([]);
    expect(plan.insert.map((row) => [row.type, row.channel, row.sendAt.toISOString()])).toEqual([
      ['appointment_confirmed', 'email', now.toISOString()],
      ['appointment_reminder', 'email', '2026-12-04T15:00:00.000Z'],
    ]);
  });

  it('plans nothing again for the same version', () => {
    const existing = [message({}), message({ type: 'appointment_reminder', status: 'scheduled' })];
    expect(planWorkOrder(state(), existing, noConsents, settings, now)).toEqual({ cancel: [], insert: [] });
  });

  it('a move back to a version told before is "rescheduled" again, with a new key', () => {
    const existing = [
      message({ appointmentVersion: '2026-12-05 10:00-12:00' }),
      message({ type: 'appointment_rescheduled', appointmentVersion: '2026-12-06 10:00-12:00' }),
    ];
    const plan = planWorkOrder(state(), existing, noConsents, settings, now);
    const confirmation = plan.insert.find((row) => row.type !== 'appointment_reminder')!;
    expect(confirmation.type).toBe('appointment_rescheduled');
    expect(confirmation.dedupeKey).toBe('wo-1:email:appointment:2026-12-05 10:00-12:00:2');
  });

  it('a move before the first confirmation went out cancels it and confirms the new time (not "rescheduled")', () => {
    const unsent = message({ channel: 'sms', status: 'scheduled', appointmentVersion: '2026-12-04 10:00-12:00' });
    const plan = planWorkOrder(state(), [unsent], textsAllowed, settings, now);
    expect(plan.cancel).toEqual([unsent.id]);
    expect(plan.insert.filter((row) => row.channel === 'sms').map((row) => row.type)).toEqual(['appointment_confirmed', 'appointment_reminder']);
    expect(plan.insert.every((row) => row.respectsQuietHours === (row.channel === 'sms'))).toBe(true);
  });

  it('cancelled: unsent messages cancelled, "cancelled" only on the channels that told the customer', () => {
    const existing = [message({}), message({ channel: 'sms', status: 'skipped' }), message({ type: 'appointment_reminder', status: 'scheduled' })];
    const plan = planWorkOrder(state({ status: 'cancelled' }), existing, textsAllowed, settings, now);
    expect(plan.cancel).toEqual([existing[2]!.id]);
    expect(plan.insert.map((row) => [row.type, row.channel])).toEqual([['appointment_cancelled', 'email']]);
  });

  it('a reminder time already past plans no reminder', () => {
    const plan = planWorkOrder(state({ visitStart: new Date(now.getTime() + 3_600_000) }), [], noConsents, settings, now);
    expect(plan.insert.map((row) => row.type)).toEqual(['appointment_confirmed']);
  });

  it('on my way once per mark, and not for a stale mark', () => {
    const fresh = planWorkOrder(state({ enRouteAt: new Date(now.getTime() - 60_000) }), [message({}), message({ type: 'appointment_reminder', status: 'sent' })], noConsents, settings, now);
    expect(fresh.insert.map((row) => row.dedupeKey)).toEqual([`wo-1:email:on_my_way:${now.getTime() - 60_000}`]);
    const stale = planWorkOrder(state({ enRouteAt: new Date(now.getTime() - 3 * 3_600_000) }), [message({})], noConsents, settings, now);
    expect(stale.insert.filter((row) => row.type === 'on_my_way')).toEqual([]);
  });
});

describe('recipientFor', () => {
  it('e-mail unless opted out; texts only opted in, to a valid number not refused for good', () => {
    const contact = { email: ' dana@example.com ', phone: '843.271.2001' };
    expect(recipientFor('email', contact, undefined)).toBe('dana@example.com');
    expect(recipientFor('email', { ...contact, email: null }, undefined)).toBeNull();
    expect(recipientFor('sms', contact, undefined)).toBeNull();
    const optedIn = textsAllowed.get('sms')!;
    expect(recipientFor('sms', contact, optedIn)).toBe('+18432712001');
    expect(recipientFor('sms', { ...contact, phone: '555' }, optedIn)).toBeNull();
    expect(recipientFor('sms', contact, { ...optedIn, undeliverableAt: now, undeliverableNumber: '+18432712001' })).toBeNull();
    expect(recipientFor('sms', contact, { ...optedIn, undeliverableAt: now, undeliverableNumber: '+18439999999' })).toBe('+18432712001');
    expect(recipientFor('email', contact, { ...optedIn, status: 'opted_out' })).toBeNull();
  });
});
