import { describe, expect, it } from 'vitest';
import { estimateServiceTypes } from '#shared/enums.ts';
import { estimateRequestSchema } from '#shared/estimate.ts';
import { estimateMessages } from '#shared/estimate-labels.ts';
import { estimatePriority } from '#shared/estimates.ts';
import { todayIn } from '#shared/dates.ts';

const today = '2026-11-21';
const schema = estimateRequestSchema(today);
const valid = {
  name: 'Dana Whitfield',
  email: 'dana@example.com',
  phone: '(843) 555-0123',
  address: '18 Marsh Hawk Ln, Bluffton, SC',
  serviceType: 'maintenance',
};

function messages(input: object): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('estimate request schema', () => {
  it('reads the "text me" box: ticked (a form\'s on, true) is consent, unticked or absent is none, anything else an error', () => {
    expect(schema.parse(valid).smsConsent).toBe(false);
    expect(schema.parse({ ...valid, smsConsent: 'on' }).smsConsent).toBe(true);
    expect(schema.parse({ ...valid, smsConsent: true }).smsConsent).toBe(true);
    expect(schema.parse({ ...valid, smsConsent: 'true' }).smsConsent).toBe(true);
    expect(schema.parse({ ...valid, smsConsent: false }).smsConsent).toBe(false);
    expect(schema.parse({ ...valid, smsConsent: '' }).smsConsent).toBe(false);
    expect(messages({ ...valid, smsConsent: 'yes please' })).toEqual({ smsConsent: 'Text consent must be true or false' });
  });

  it('requires name, email, phone, address and service type, with the form messages', () => {
    expect(messages({})).toEqual({
      name: expect.any(String),
      email: expect.any(String),
      phone: expect.any(String),
      address: expect.any(String),
      serviceType: 'Service type is required',
    });
    expect(messages({ name: ' ', email: '', phone: '', address: '', serviceType: '' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone number is required',
      address: 'Address is required',
      serviceType: 'Service type is required',
    });
  });

  it('accepts US phone numbers with parentheses, dashes, dots or spaces, and nothing else', () => {
    for (const phone of ['(843) 555-0123', '843-555-0123', '843.555.0123', '843 555 0123', '8435550123', '+1 843 555 0123']) {
      expect(messages({ ...valid, phone }), phone).toEqual({});
    }
    for (const phone of ['555-0123', '843-555-01234', 'call me', '(843) 555-012a']) {
      expect(messages({ ...valid, phone }), phone).toEqual({ phone: 'Please enter a valid phone number' });
    }
  });

  it('sends empty optional fields as null and trims the rest', () => {
    const parsed = schema.parse({ ...valid, name: '  Dana  ', description: '', preferredDate: '', preferredTime: '' });
    expect(parsed).toMatchObject({ name: 'Dana', description: null, preferredDate: null, preferredTime: null });
    expect(schema.parse(valid)).toMatchObject({ description: null, preferredDate: null, preferredTime: null });
  });

  it('takes a preferred date from today on, never before, and only real dates', () => {
    expect(messages({ ...valid, preferredDate: '2026-11-21' })).toEqual({});
    expect(messages({ ...valid, preferredDate: '2027-01-05' })).toEqual({});
    expect(messages({ ...valid, preferredDate: '2026-11-20' })).toEqual({ preferredDate: 'Preferred date cannot be before today' });
    expect(messages({ ...valid, preferredDate: '2026-02-30' })).toMatchObject({ preferredDate: 'Please enter a valid date' });
  });

  it('offers only the spec values for service type and preferred time', () => {
    expect(messages({ ...valid, serviceType: 'plumbing' })).toEqual({ serviceType: 'Service type is required' });
    expect(messages({ ...valid, preferredTime: 'evening' })).toEqual({});
    expect(messages({ ...valid, preferredTime: 'night' })).toEqual({ preferredTime: 'Please choose a preferred time' });
  });

  it('words the submit failure as the spec does', () => {
    expect(estimateMessages.submitFailed('Too many requests', '(843) 555-0142')).toBe(
      'Failed to submit request: Too many requests. Please try again or call us at (843) 555-0142.',
    );
  });
});

describe('estimate priority rule', () => {
  it('is urgent exactly for AC repair and heating repair', () => {
    const urgent = estimateServiceTypes.filter((type) => estimatePriority(type) === 'urgent');
    expect(urgent).toEqual(['ac-repair', 'heating-repair']);
  });
});

describe("the company's today", () => {
  it('is the calendar date in the company time zone, not UTC', () => {
    // 02:30 UTC on the 22nd is still the evening of the 21st in Bluffton.
    expect(todayIn('America/New_York', new Date('2026-11-22T02:30:00Z'))).toBe('2026-11-21');
    expect(todayIn('America/New_York', new Date('2026-11-22T05:30:00Z'))).toBe('2026-11-22');
  });
});
