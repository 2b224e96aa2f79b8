import { describe, expect, it } from 'vitest';
import { fieldStepOf, fieldStepText } from '#shared/tech.ts';

// What the office sees of the field (issue 19): the latest step from a work order's status and times.
describe('fieldStepOf', () => {
  const none = { enRouteAt: null, startedAt: null, completedAt: null };
  it('is en route only for a scheduled visit marked en route', () => {
    expect(fieldStepOf({ ...none, status: 'scheduled' })).toBeNull();
    expect(fieldStepOf({ ...none, status: 'pending', enRouteAt: '2031-04-01T12:50:00Z' })).toBeNull();
    expect(fieldStepOf({ ...none, status: 'scheduled', enRouteAt: '2031-04-01T12:50:00Z' })).toEqual({ step: 'en-route', at: '2031-04-01T12:50:00Z' });
  });
  it('is on site while in progress and done when completed, with those times', () => {
    expect(fieldStepOf({ status: 'in-progress', enRouteAt: '2031-04-01T12:50:00Z', startedAt: '2031-04-01T13:05:00Z', completedAt: null })).toEqual({ step: 'on-site', at: '2031-04-01T13:05:00Z' });
    expect(fieldStepOf({ ...none, status: 'completed', completedAt: '2031-04-01T15:00:00Z' })).toEqual({ step: 'done', at: '2031-04-01T15:00:00Z' });
    expect(fieldStepOf({ ...none, status: 'cancelled', enRouteAt: '2031-04-01T12:50:00Z' })).toBeNull();
  });
});

describe('fieldStepText', () => {
  it("gives the step and its time in the company's time zone", () => {
    expect(fieldStepText({ step: 'on-site', at: '2031-04-01T13:05:00Z' }, 'America/New_York')).toBe('On site 9:05 AM');
    expect(fieldStepText({ step: 'done', at: '2031-01-15T20:30:00Z' }, 'America/New_York')).toBe('Done 3:30 PM');
    expect(fieldStepText({ step: 'en-route', at: null }, 'America/New_York')).toBe('En route');
  });
});
