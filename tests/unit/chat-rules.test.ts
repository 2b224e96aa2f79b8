import { describe, expect, it } from 'vitest';
import {
  chatBookingSchema,
  chatMessages,
  detectIntent,
  detectSafetyHazard,
  detectUrgency,
  fallbackLeadScore,
  leadScore,
  suggestedServiceDate,
  urgencyToPriority,
} from '#shared/chat.ts';

describe('intents', () => {
  it.each([
    ['What are your hours?', 'business_hours'],
    ['Are you open on Saturday?', 'business_hours'],
    ['I need emergency service', 'emergency'],
    ['I smell gas near the furnace', 'emergency'],
    ["My AC isn't cooling", 'repair_needed'],
    ['Water is leaking from the air handler', 'repair_needed'],
    ['How much is a service call?', 'pricing_inquiry'],
    ['Can I schedule an appointment for Tuesday?', 'schedule_service'],
    ['I want to book a technician', 'schedule_service'],
    ['Tell me about your tune-up plans', 'maintenance_inquiry'],
    ['How much are your maintenance plans?', 'pricing_inquiry'],
    ['Do you do spring tune-ups?', 'maintenance_inquiry'],
    ['Hello there', 'general_inquiry'],
  ])('%s → %s', (message, intent) => {
    expect(detectIntent(message)).toBe(intent);
  });
});

describe('urgency', () => {
  it('is high when the message mentions emergency, not working, broken or urgent', () => {
    for (const message of ['This is an emergency', 'The heat is not working', 'Thermostat is broken', 'URGENT please call']) {
      expect(detectUrgency(message), message).toBe('high');
    }
  });
  it('is medium for soon, this week, or a repair', () => {
    expect(detectUrgency('Can someone come soon?')).toBe('medium');
    expect(detectUrgency('Any time this week works')).toBe('medium');
    expect(detectUrgency('Just a tune-up', 'repair')).toBe('medium');
  });
  it('is low otherwise, and emergency for danger to people', () => {
    expect(detectUrgency('Thinking about a new system next year')).toBe('low');
    expect(detectUrgency('My carbon monoxide alarm is beeping')).toBe('emergency');
  });
});

describe('safety hazards', () => {
  it('recognises gas, carbon monoxide and burning smells', () => {
    expect(detectSafetyHazard('I smell gas in the hallway')).toBe('gas');
    expect(detectSafetyHazard('there is a gas smell')).toBe('gas');
    expect(detectSafetyHazard('rotten egg smell by the furnace')).toBe('gas');
    expect(detectSafetyHazard('the CO alarm went off')).toBe('carbon_monoxide');
    expect(detectSafetyHazard('Burning smell from the vents')).toBe('burning');
    expect(detectSafetyHazard('smoke coming out of the unit')).toBe('burning');
    expect(detectSafetyHazard('My gas furnace needs a tune-up')).toBeUndefined();
  });
});

describe('priority, dates and scores', () => {
  it('maps urgency to priority as the spec says', () => {
    expect(['emergency', 'high', 'medium', 'low'].map((urgency) => urgencyToPriority(urgency as never))).toEqual(['emergency', 'high', 'normal', 'low']);
  });
  it('suggests today, tomorrow, in 3 days or in 7 days, across month ends', () => {
    expect(suggestedServiceDate('emergency', '2026-11-28')).toBe('2026-11-28');
    expect(suggestedServiceDate('high', '2026-11-30')).toBe('2026-12-01');
    expect(suggestedServiceDate('medium', '2026-12-30')).toBe('2027-01-02');
    expect(suggestedServiceDate('low', '2026-02-25')).toBe('2026-03-04');
  });
  it('scores leads: base 5, +3 urgent, +2 installation, +1 chat, at most 10', () => {
    expect(leadScore({ isUrgent: false, serviceType: 'maintenance', source: 'website' })).toBe(5);
    expect(leadScore({ isUrgent: true, serviceType: 'ac-repair', source: 'website' })).toBe(8);
    expect(leadScore({ isUrgent: false, serviceType: 'heating-installation', source: 'ai_chat' })).toBe(8);
    expect(leadScore({ isUrgent: true, serviceType: 'ac-installation', source: 'ai_chat' })).toBe(10);
  });
  it('falls back to 8, 6 or 4 by urgency', () => {
    expect([fallbackLeadScore('high'), fallbackLeadScore('medium'), fallbackLeadScore('low')]).toEqual([8, 6, 4]);
  });
});

describe('chat booking form', () => {
  const schema = chatBookingSchema('2026-11-21');
  const valid = { sessionId: 'session-123456', name: 'Pat', phone: '843.555.0101', address: '1 Pope Ave', serviceType: 'repair' };
  const problems = (input: object) => {
    const result = schema.safeParse(input);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
  };
  it('uses the exact messages of the spec', () => {
    expect(problems({ sessionId: 'session-123456' })).toEqual({
      name: expect.any(String),
      phone: expect.any(String),
      address: expect.any(String),
      serviceType: 'Service type is required',
    });
    expect(problems({ ...valid, name: '', phone: '', address: '' })).toEqual({
      name: 'Name is required',
      phone: 'Phone number is required',
      address: 'Address is required',
    });
    expect(problems({ ...valid, phone: '555-12' })).toEqual({ phone: 'Please enter a valid phone number' });
    expect(problems({ ...valid, email: 'pat@' })).toEqual({ email: 'Please enter a valid email address' });
    expect(problems({ ...valid, preferredDate: '2026-11-20' })).toEqual({ preferredDate: 'Preferred date cannot be before today' });
    expect(problems({ ...valid, serviceType: 'ductwork' })).toEqual({ serviceType: 'Service type is required' });
    expect(problems({ ...valid, email: '' })).toEqual({});
  });
  it('words success and failure as the spec does', () => {
    expect(chatMessages.bookingSuccess('WO-10042', '(843) 555-0142')).toBe(
      "Perfect! I've created work order WO-10042 for you. Our team will contact you within 24 hours to confirm the appointment. You can also call us at (843) 555-0142 if you need immediate assistance.",
    );
    expect(chatMessages.webhookFailure('(843) 555-0142')).toBe(
      "I'm having trouble responding right now. Please call us at (843) 555-0142 for immediate assistance.",
    );
  });
});
