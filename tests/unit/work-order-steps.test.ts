import { describe, expect, it } from 'vitest';
import { notificationLink, notificationSourceLine } from '#shared/notifications.ts';
import { techFollowUpNotificationType } from '#shared/tech.ts';
import { workOrderStepLabel } from '#shared/work-order.ts';

// The office side of the technician app (issue 19): the timeline's step names and the follow-up notification's link.
describe('workOrderStepLabel', () => {
  const fromApp = { takenAt: [null, '2031-04-01T13:05:00.000Z'] as [null, string] };
  it("names the technician app's steps", () => {
    expect(workOrderStepLabel('en_route', fromApp)).toBe('Marked en route');
    expect(workOrderStepLabel('status_changed', { status: ['scheduled', 'in-progress'], ...fromApp })).toBe('Arrived on site');
    expect(workOrderStepLabel('visit_completed', fromApp)).toBe('Completed');
    expect(workOrderStepLabel('note_added', fromApp)).toBe('Note added');
    expect(workOrderStepLabel('photos_added', { photos: [null, ['a.webp']] })).toBe('Photo added');
    expect(workOrderStepLabel('photos_added', { photos: [null, ['a.webp', 'b.webp']] })).toBe('2 photos added');
  });
  it("leaves out the app's status change to completed (its completion entry is the step)", () => {
    expect(workOrderStepLabel('status_changed', { status: ['in-progress', 'completed'], ...fromApp })).toBeNull();
  });
  it("names the office's changes, and an unknown action as written", () => {
    expect(workOrderStepLabel('created', {})).toBe('Created');
    expect(workOrderStepLabel('scheduled', {})).toBe('Scheduled');
    expect(workOrderStepLabel('status_changed', { status: ['scheduled', 'in-progress'] })).toBe('Status changed to In Progress');
    expect(workOrderStepLabel('status_changed', { status: ['in-progress', 'completed'] })).toBe('Status changed to Completed');
    expect(workOrderStepLabel('something_new', {})).toBe('Something new');
  });
});

describe('a technician follow-up notification', () => {
  const id = '0b6f1c5e-3a52-4d7e-9a43-5d2b8f4c9e10';
  it('opens its work order and names the technician it came from', () => {
    expect(notificationLink({ type: techFollowUpNotificationType, data: { work_order_id: id } })).toBe(`/admin/workorders/${id}`);
    expect(notificationSourceLine({ type: techFollowUpNotificationType, data: { technician_name: 'Mike Tech' } })).toBe('From the field: Mike Tech');
    expect(notificationSourceLine({ type: 'new_estimate_request', data: {} })).toBeUndefined();
  });
  it('follows no link made of something other than a work-order id', () => {
    expect(notificationLink({ type: techFollowUpNotificationType, data: { work_order_id: '../settings' } })).toBeUndefined();
    expect(notificationLink({ type: techFollowUpNotificationType, data: {} })).toBeUndefined();
  });
});
