import { describe, expect, it } from 'vitest';
import { workOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import {
  allowedTransitions,
  canTransition,
  inspectionReportSchema,
  listTransitions,
  scheduleDurations,
  scheduleEndTime,
  scheduleFitsDay,
  scheduleStartTimes,
  workOrderCreateWithCustomerSchema,
  workOrderMessages,
  workOrderScheduleSchema,
  workOrderTaskUpdateSchema,
} from '#shared/work-order.ts';
import { statusesAllowedTo } from '#server/modules/work-orders/work-order.service.ts';

/** Spec 000 section 4, written out independently of the implementation's table. */
const expected: [WorkOrderStatus, WorkOrderStatus][] = [
  ['pending', 'in-progress'],
  ['pending', 'scheduled'],
  ['pending', 'cancelled'],
  ['scheduled', 'in-progress'],
  ['scheduled', 'cancelled'],
  ['in-progress', 'completed'],
  ['in-progress', 'cancelled'],
];

describe('status transitions', () => {
  it('allows exactly the spec transitions', () => {
    for (const from of workOrderStatuses) {
      for (const to of workOrderStatuses) {
        const allowed = expected.some(([a, b]) => a === from && b === to);
        expect(canTransition(from, to), `${from} → ${to}`).toBe(allowed);
      }
    }
  });

  it('never leaves completed or cancelled, and never goes back to pending', () => {
    expect(allowedTransitions.completed).toEqual([]);
    expect(allowedTransitions.cancelled).toEqual([]);
    for (const from of workOrderStatuses) expect(canTransition(from, 'pending')).toBe(false);
  });

  it('reads the table backwards for the guarded update', () => {
    expect(statusesAllowedTo('in-progress')).toEqual(['pending', 'scheduled']);
    expect(statusesAllowedTo('completed')).toEqual(['in-progress']);
    expect(statusesAllowedTo('cancelled')).toEqual(['pending', 'scheduled', 'in-progress']);
    expect(statusesAllowedTo('pending')).toEqual([]);
  });

  it('offers only start and complete on the list, both allowed on the detail screen', () => {
    expect(listTransitions).toEqual({ pending: 'in-progress', 'in-progress': 'completed' });
    for (const [from, to] of Object.entries(listTransitions)) expect(canTransition(from as WorkOrderStatus, to)).toBe(true);
  });

  it('explains a refused move', () => {
    expect(workOrderMessages.transitionRefused('completed', 'in-progress')).toBe('A completed work order cannot be moved to in-progress.');
    expect(workOrderMessages.transitionRefused('pending', 'pending')).toBe('The work order is already pending.');
  });
});

describe('schedule end time', () => {
  it('adds whole hours to the start', () => {
    expect(scheduleEndTime('08:00', 1)).toBe('09:00');
    expect(scheduleEndTime('09:00', 2)).toBe('11:00');
    expect(scheduleEndTime('11:00', 8)).toBe('19:00');
    expect(scheduleEndTime('13:00', 4)).toBe('17:00');
  });

  it('fits the day only when it ends by 19:00 (16:00 + 8 h would be 24:00)', () => {
    expect(scheduleEndTime('16:00', 8)).toBe('24:00');
    expect(scheduleFitsDay('16:00', 8)).toBe(false);
    expect(scheduleFitsDay('16:00', 3)).toBe(true);
    expect(scheduleFitsDay('16:00', 4)).toBe(false);
    expect(scheduleFitsDay('11:00', 8)).toBe(true);
    expect(scheduleFitsDay('13:00', 8)).toBe(false);
    // Every offered start has at least the default duration.
    for (const start of scheduleStartTimes) expect(scheduleFitsDay(start, 2), start).toBe(true);
    expect(scheduleDurations).toContain(8);
  });
});

describe('schemas', () => {
  const today = '2026-06-15';
  const expectedUpdatedAt = '2026-06-15T12:00:00.000Z';

  it('schedule: refuses a past date, a missing start, an unlisted duration and a day too long', () => {
    const schema = workOrderScheduleSchema(today);
    expect(schema.safeParse({ date: today, startTime: '09:00', expectedUpdatedAt }).data).toMatchObject({ durationHours: 2, technicianId: null });
    expect(schema.safeParse({ date: '2026-06-14', startTime: '09:00', expectedUpdatedAt }).success).toBe(false);
    const noTime = schema.safeParse({ date: today, expectedUpdatedAt });
    expect(noTime.error?.issues[0]?.message).toBe(workOrderMessages.scheduleNeedsDateAndTime);
    expect(schema.safeParse({ date: today, startTime: '09:00', durationHours: 5, expectedUpdatedAt }).success).toBe(false);
    const late = schema.safeParse({ date: today, startTime: '16:00', durationHours: 8, expectedUpdatedAt });
    expect(late.error?.issues.map((issue) => issue.message)).toEqual([workOrderMessages.scheduleTooLate]);
    expect(schema.safeParse({ date: today, startTime: '09:00', expectedUpdatedAt: 'yesterday' }).success).toBe(false);
  });

  it('inline customer: validates the customer with its defaults and the work order without a customer id', () => {
    const parsed = workOrderCreateWithCustomerSchema(today).parse({
      customer: { name: 'Ann', phone: '843-555-0100', address: '1 Main St' },
      title: 'Job',
      description: 'Details',
    });
    expect(parsed.customer).toMatchObject({ city: 'Bluffton', state: 'SC', type: 'residential' });
    expect(parsed).toMatchObject({ serviceDate: today, priority: 'normal' });
    expect('customerId' in parsed).toBe(false);
  });

  it('tasks and inspection reports', () => {
    expect(workOrderTaskUpdateSchema.safeParse({}).success).toBe(false);
    expect(workOrderTaskUpdateSchema.safeParse({ timeSpentMinutes: null }).success).toBe(true);
    expect(inspectionReportSchema.parse({})).toEqual({ mca: null, mocp: null, tempSplit: null, staticPressure: null, inspectionItems: [] });
    expect(inspectionReportSchema.safeParse({ inspectionItems: ['filter_replaced'] }).success).toBe(true);
    expect(inspectionReportSchema.safeParse({ inspectionItems: ['Filter replaced'] }).success).toBe(false);
    expect(inspectionReportSchema.safeParse({ staticPressure: 1000 }).success).toBe(false);
  });
});
