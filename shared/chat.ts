import { z } from 'zod';
import { contactMessages, descriptionSchema, emptyToNull, personNameSchema, phoneSchema, preferredDateSchema, smsConsentSchema, streetAddressSchema } from './contact.ts';
import type { WorkOrderPriority } from './enums.ts';

// The chat assistant's rules (spec 000 sections 4, 5, 8, 9). Pure: the rule-based responder, the
// booking transaction and the widget all use them.

export const chatIntents = [
  'emergency',
  'schedule_service',
  'pricing_inquiry',
  'repair_needed',
  'maintenance_inquiry',
  'business_hours',
  'general_inquiry',
  'error',
] as const;
export type ChatIntent = (typeof chatIntents)[number];

/** 'emergency' is for safety issues (gas, carbon monoxide, burning): spec maps it to priority emergency. */
export const chatUrgencies = ['low', 'medium', 'high', 'emergency'] as const;
export type ChatUrgency = (typeof chatUrgencies)[number];

export const chatCategories = ['safety', 'emergency', 'scheduling', 'pricing', 'repair', 'maintenance', 'hours', 'general', 'error'] as const;
export type ChatCategory = (typeof chatCategories)[number];

export const chatActions = ['none', 'show_form', 'call_now'] as const;
export type ChatAction = (typeof chatActions)[number];

/** Spec 000 section 9: words that mean the visitor wants a visit booked. */
export const schedulingKeywords = [
  'schedule',
  'appointment',
  'service call',
  'repair',
  'maintenance',
  'installation',
  'visit',
  'technician',
  'book',
  'set up',
  'when can',
  'available',
] as const;

const mentions = (text: string, words: readonly string[]) => words.some((word) => text.includes(word));
const normalise = (text: string) => text.toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, ' ');

/** Danger to people: these get the fixed safety script, whatever else the message says. */
export type SafetyHazard = 'gas' | 'carbon_monoxide' | 'burning';
export function detectSafetyHazard(text: string): SafetyHazard | undefined {
  const message = normalise(text);
  if (/\b(carbon monoxide|co alarm|co detector|co2 alarm)\b/.test(message)) return 'carbon_monoxide';
  if (/\b(smell|smells|smelling|odor|odour|leak|leaking)\b.*\bgas\b|\bgas\b.*\b(smell|smells|smelling|odor|odour|leak|leaking)\b|rotten egg/.test(message)) {
    return 'gas';
  }
  if (/\b(burning|smoke|smoking|sparks?|sparking|electrical smell|melting)\b/.test(message)) return 'burning';
  return undefined;
}

/** Spec 000 section 9: high if it mentions emergency, not working, broken or urgent; medium if soon, this week, or a repair. */
export function detectUrgency(text: string, serviceType?: string): ChatUrgency {
  const message = normalise(text);
  if (detectSafetyHazard(message)) return 'emergency';
  if (mentions(message, ['emergency', 'not working', 'broken', 'urgent'])) return 'high';
  if (mentions(message, ['soon', 'this week']) || serviceType === 'repair') return 'medium';
  return 'low';
}

const repairSymptoms = [
  "isn't cooling",
  'not cooling',
  "won't cool",
  "isn't heating",
  'not heating',
  "won't heat",
  'no heat',
  'no air',
  'no ac',
  'warm air',
  'hot air',
  'cold air',
  'not working',
  'broken',
  'leak',
  'leaking',
  'water',
  'frozen',
  'ice',
  'noise',
  'noisy',
  'rattl',
  'squeal',
  'short cycl',
  'thermostat',
  'blank',
  "won't turn on",
  "won't start",
  'tripped',
];

/** Which spec intent a message expresses, most specific first. */
export function detectIntent(text: string): Exclude<ChatIntent, 'error'> {
  const message = normalise(text);
  if (detectSafetyHazard(message) || mentions(message, ['emergency', 'urgent'])) return 'emergency';
  if (mentions(message, ['hours', 'open', 'close', 'closing', 'weekend', 'saturday', 'sunday'])) return 'business_hours';
  if (mentions(message, ['price', 'cost', 'how much', 'fee', 'charge', 'rate', 'quote', 'estimate', 'expensive', 'cheap'])) return 'pricing_inquiry';
  if (mentions(message, repairSymptoms)) return 'repair_needed';
  if (mentions(message, schedulingKeywords)) return 'schedule_service';
  if (mentions(message, ['tune-up', 'tune up', 'tuneup', 'plan', 'filter', 'check-up', 'checkup', 'inspection', 'service agreement'])) {
    return 'maintenance_inquiry';
  }
  return 'general_inquiry';
}

/** Spec 000 section 9: urgency to work-order priority. */
export function urgencyToPriority(urgency: ChatUrgency): WorkOrderPriority {
  const map: Record<ChatUrgency, WorkOrderPriority> = { emergency: 'emergency', high: 'high', medium: 'normal', low: 'low' };
  return map[urgency];
}

/** Spec 000 section 9: emergency today, high tomorrow, medium in 3 days, low in 7 (company calendar dates). */
export function suggestedServiceDate(urgency: ChatUrgency, today: string): string {
  const days: Record<ChatUrgency, number> = { emergency: 0, high: 1, medium: 3, low: 7 };
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days[urgency]);
  return date.toISOString().slice(0, 10);
}

/** Spec 000 section 9: fallback chat lead scores (1-10); 5 with medium urgency when scoring fails. */
export function fallbackLeadScore(urgency: ChatUrgency): number {
  if (urgency === 'emergency' || urgency === 'high') return 8;
  return urgency === 'medium' ? 6 : 4;
}

/** Spec 000 section 9: the lead list's score: base 5, +3 urgent, +2 installation, +1 from the chat, at most 10. */
export function leadScore(lead: { isUrgent: boolean; serviceType: string; source: string }): number {
  let score = 5;
  if (lead.isUrgent) score += 3;
  if (lead.serviceType.includes('installation')) score += 2;
  if (lead.source === 'ai_chat') score += 1;
  return Math.min(score, 10);
}

// Messages --------------------------------------------------------------------------------------

export const chatMessages = {
  greeting: (companyName: string) =>
    `Hi! I'm the ${companyName} assistant. I can answer questions about our services, hours and maintenance plans, or book a technician for you. How can I help?`,
  webhookFailure: (phone: string) => `I'm having trouble responding right now. Please call us at ${phone} for immediate assistance.`,
  modelRateLimited: (phone: string) => `I'm getting a lot of requests right now. Please try again in a moment or call us at ${phone}.`,
  modelUnauthorized: (phone: string) => `I'm having trouble with my authentication. Please call us at ${phone} and we'll help you right away.`,
  bookingFailure: (phone: string) =>
    `I encountered an error while creating your service request. Please call us at ${phone} and we'll get you taken care of right away.`,
  bookingSuccess: (reference: string, phone: string) =>
    `Perfect! I've created work order ${reference} for you. Our team will contact you within 24 hours to confirm the appointment. You can also call us at ${phone} if you need immediate assistance.`,
} as const;

export const quickQuestions = ['What are your hours?', 'I need emergency service', "My AC isn't cooling"] as const;

// Wire formats ------------------------------------------------------------------------------------

export const chatMessageMaxLength = 1000;

export const chatRequestSchema = z.object({
  message: z
    .string()
    .max(chatMessageMaxLength, `Please keep messages under ${chatMessageMaxLength} characters`)
    .refine((text) => text.trim().length > 0, 'Please type a message'),
  sessionId: z.string().regex(/^[\w-]{8,100}$/, 'Invalid chat session'),
  /**
   * The name the visitor typed when booking in this conversation (spec 000 section 4: remembered for
   * later messages). Only the visitor's own words: the server never tells the browser a customer id.
   */
  customer: z.object({ name: z.string().max(120) }).optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

export const chatReplySchema = z.object({
  message: z.string(),
  category: z.string(),
  urgency: z.enum(chatUrgencies),
  action: z.string(),
  intent: z.enum(chatIntents),
});
export type ChatReply = z.infer<typeof chatReplySchema>;

export const chatServiceTypes = ['repair', 'maintenance', 'installation', 'inspection'] as const;

/** Spec 000 section 5: the chat's Schedule Service form, with its exact messages. */
export function chatBookingSchema(today: string) {
  return z.object({
    sessionId: z.string().regex(/^[\w-]{8,100}$/, 'Invalid chat session'),
    name: personNameSchema,
    phone: phoneSchema,
    email: z.preprocess(emptyToNull, z.string().trim().max(254).pipe(z.email(contactMessages.emailInvalid)).nullable()).default(null),
    address: streetAddressSchema,
    preferredDate: preferredDateSchema(today),
    serviceType: z.enum(chatServiceTypes, { error: contactMessages.serviceTypeRequired }),
    description: descriptionSchema,
    smsConsent: smsConsentSchema,
  });
}
export type ChatBookingInput = z.input<ReturnType<typeof chatBookingSchema>>;
export type ChatBooking = z.output<ReturnType<typeof chatBookingSchema>>;

/**
 * The public answer to a booking (and to its replay): the work order number and the spec's message,
 * nothing about stored customers, identical in shape whether or not the phone or e-mail matched one
 * (issue 15; decision 018-a).
 */
export const chatBookingResponseSchema = z.object({
  message: z.string(),
  workOrderNumber: z.string(),
});
export type ChatBookingResponse = z.infer<typeof chatBookingResponseSchema>;
