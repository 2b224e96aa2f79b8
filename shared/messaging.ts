import { z } from 'zod';
import { estimateResponseHours } from './business.ts';
import {
  consentSources,
  consentStatuses,
  messageChannels,
  messageStatuses,
  messageTypes,
  type MessageChannel,
  type MessageType,
} from './enums.ts';

/**
 * Customer messaging (issue 18, decision 021-a): the message types, their variables and built-in
 * templates, the renderer (shared, so Settings' live preview is exactly what the server sends) and
 * the API contracts.
 */

export { consentSources, consentStatuses, messageChannels, messageStatuses, messageTypes };
export type { ConsentSource, ConsentStatus, MessageChannel, MessageStatus, MessageType } from './enums.ts';

export const messageTypeLabels: Record<MessageType, string> = {
  appointment_confirmed: 'Appointment confirmed',
  appointment_rescheduled: 'Appointment rescheduled',
  appointment_cancelled: 'Appointment cancelled',
  appointment_reminder: 'Appointment reminder',
  on_my_way: 'On my way',
  visit_completed: 'Visit completed',
  estimate_received: 'Estimate request received',
  quote_sent: 'Quote sent',
  invoice_sent: 'Invoice sent',
  invoice_overdue: 'Invoice overdue reminder',
};

export const messageChannelLabels: Record<MessageChannel, string> = { email: 'E-mail', sms: 'Text' };

/** Every variable a template may use, with what it stands for and a sample value for the preview. */
export const messageVariables = {
  'company.name': { label: 'Company name', sample: 'Lowcountry Comfort Heating & Air' },
  'company.phone': { label: 'Company phone', sample: '(843) 555-0142' },
  'company.site': { label: 'Company website', sample: 'https://lowcountrycomfort.example' },
  'customer.firstName': { label: "Customer's first name", sample: 'Dana' },
  'appointment.date': { label: 'Visit date', sample: 'Tuesday, December 1' },
  'appointment.window': { label: 'Arrival window', sample: '8:00 AM – 10:00 AM' },
  'appointment.address': { label: 'Visit address', sample: '14 Marsh Hen Lane, Bluffton, SC' },
  'technician.firstName': { label: "Technician's first name", sample: 'Mike' },
  'workOrder.number': { label: 'Work order number', sample: 'WO-10042' },
  'workOrder.title': { label: 'Work order title', sample: 'AC not cooling' },
  /** The estimate request's reference and service (estimate request received only). */
  'request.reference': { label: 'Estimate request reference', sample: 'EST-3F9A21C0' },
  'request.service': { label: 'Requested service', sample: 'AC Repair' },
  'visit.summary': { label: 'Visit summary', sample: 'Replaced the capacitor and cleaned the condenser coil; the system is cooling normally.' },
  /** A quote or an invoice (quote sent, invoice sent, invoice overdue; issue 20). */
  'document.number': { label: 'Quote or invoice number', sample: 'INV-000123' },
  'document.total': { label: 'Quote or invoice total', sample: '$1,284.00' },
  'document.balance': { label: 'Invoice balance due', sample: '$1,284.00' },
  'document.dueDate': { label: 'Invoice due date', sample: 'Sunday, December 27' },
  'document.validUntil': { label: 'Quote valid until', sample: 'Sunday, December 27' },
  /** The customer's own page of the visit (appointment messages; issue 21): see it, move it or cancel it. Made when sent, never stored. */
  'visit.link': { label: 'Link to see, move or cancel the visit online', sample: 'https://lowcountrycomfort.example/visit/q8Xf3kPz0VbL7mN2sR5tY9wA1cE4gH6jK8nM0pQ2rS4' },
  /** The customer's own link: made when the message is sent, never stored in the message history. */
  'document.link': { label: 'Link to view (and approve or pay) online', sample: 'https://lowcountrycomfort.example/invoice/q8Xf3kPz0VbL7mN2sR5tY9wA1cE4gH6jK8nM0pQ2rS4' },
} as const;

export type MessageVariable = keyof typeof messageVariables;
export type MessageVariables = Partial<Record<MessageVariable, string>>;
export const messageVariableNames = Object.keys(messageVariables) as MessageVariable[];

export const sampleMessageVariables: Record<MessageVariable, string> = Object.fromEntries(
  messageVariableNames.map((name) => [name, messageVariables[name].sample]),
) as Record<MessageVariable, string>;

export type MessageTemplate = { subject: string; emailBody: string; smsBody: string };

/** Appended to every text: carriers require the opt-out to be stated; STOP is honoured by the inbound webhook. */
export const smsOptOutSuffix = ' Reply STOP to opt out.';

/** The built-in templates: short, friendly, signed with the company's name. */
export const defaultMessageTemplates: Record<MessageType, MessageTemplate> = {
  appointment_confirmed: {
    subject: 'Your visit is booked: {{appointment.date}}',
    emailBody:
      'Hi {{customer.firstName}},\n\nYou are all set: we will see you on {{appointment.date}}, arriving between {{appointment.window}}, at {{appointment.address}}.\n\nWe will send a reminder the day before. To see your visit, move it or cancel it:\n\n{{visit.link}}\n\nOr call us at {{company.phone}}.\n\nThank you,\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, your visit is booked for {{appointment.date}}, {{appointment.window}}. Questions? {{company.phone}} - {{company.name}}',
  },
  appointment_rescheduled: {
    subject: 'Your visit has moved to {{appointment.date}}',
    emailBody:
      'Hi {{customer.firstName}},\n\nYour visit has a new time: {{appointment.date}}, arriving between {{appointment.window}}, at {{appointment.address}}.\n\nIf that does not suit you, choose another time here:\n\n{{visit.link}}\n\nor call us at {{company.phone}} and we will find one.\n\nThank you,\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, your visit has moved to {{appointment.date}}, {{appointment.window}}. Questions? {{company.phone}} - {{company.name}}',
  },
  appointment_cancelled: {
    subject: 'Your visit has been cancelled',
    emailBody:
      'Hi {{customer.firstName}},\n\nYour visit ({{workOrder.title}}) has been cancelled. If this is a surprise, or you would like a new time, call us at {{company.phone}}.\n\nThank you,\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, your visit has been cancelled. To book a new time call {{company.phone}} - {{company.name}}',
  },
  appointment_reminder: {
    subject: 'Reminder: your visit on {{appointment.date}}',
    emailBody:
      'Hi {{customer.firstName}},\n\nA reminder that we will see you on {{appointment.date}}, arriving between {{appointment.window}}, at {{appointment.address}}.\n\nPlease make sure we can reach the indoor and outdoor units. Need another time? Call {{company.phone}}.\n\nSee you soon,\n{{company.name}}',
    smsBody: 'Reminder: {{company.name}} visits {{appointment.date}}, {{appointment.window}}. Reply C to confirm or R to reschedule.',
  },
  on_my_way: {
    subject: '{{technician.firstName}} is on the way',
    emailBody:
      'Hi {{customer.firstName}},\n\n{{technician.firstName}} from {{company.name}} is on the way to {{appointment.address}} now.\n\nQuestions? Call {{company.phone}}.\n\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, {{technician.firstName}} is on the way to you now. - {{company.name}}',
  },
  visit_completed: {
    subject: 'Your visit is done: {{workOrder.title}}',
    emailBody:
      'Hi {{customer.firstName}},\n\nThank you for having us. Here is what we did:\n\n{{visit.summary}}\n\nAny questions about the work, call us at {{company.phone}}.\n\nThank you,\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, thanks for having us today. Questions about the visit? {{company.phone}} - {{company.name}}',
  },
  // To an address anyone can type on the website: nothing the visitor typed goes into it, not even
  // their name (decision 018-d-estimate-email), so it says "Hello" and {{customer.firstName}} is
  // "there" for this type.
  estimate_received: {
    subject: 'We received your estimate request | {{company.name}}',
    emailBody:
      `Hello,\n\nThank you for contacting {{company.name}}. We received your request for {{request.service}} and will get back to you within ${estimateResponseHours} hours to confirm the details.\n\nYour request reference: {{request.reference}}\n\nNeed help sooner? Call us at {{company.phone}}.\n\nIf you did not send this request, you can ignore this message.\n\n{{company.name}}`,
    smsBody: `{{company.name}}: we received your estimate request {{request.reference}} and will call you within ${estimateResponseHours} hours.`,
  },
  quote_sent: {
    subject: 'Your quote {{document.number}} from {{company.name}}',
    emailBody:
      'Hi {{customer.firstName}},\n\nThank you for having us out. Your quote {{document.number}} is ready: see the options, choose the one that suits you and approve it online here:\n\n{{document.link}}\n\nThe quote is valid until {{document.validUntil}}. Questions? Call us at {{company.phone}}.\n\nThank you,\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, your quote {{document.number}} from {{company.name}} is ready to view and approve: {{document.link}}',
  },
  invoice_sent: {
    subject: 'Invoice {{document.number}} from {{company.name}}',
    emailBody:
      'Hi {{customer.firstName}},\n\nThank you for your business. Your invoice {{document.number}} for {{document.total}} is due {{document.dueDate}}. View it, download the PDF and pay online here:\n\n{{document.link}}\n\nQuestions about it? Call us at {{company.phone}}.\n\nThank you,\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, your invoice {{document.number}} from {{company.name}} ({{document.total}}, due {{document.dueDate}}): {{document.link}}',
  },
  invoice_overdue: {
    subject: 'Reminder: invoice {{document.number}} is past due',
    emailBody:
      'Hi {{customer.firstName}},\n\nA friendly reminder that invoice {{document.number}} was due {{document.dueDate}} and {{document.balance}} is still open. You can view it and pay online here:\n\n{{document.link}}\n\nIf you have already paid, thank you, and please ignore this message. Questions? Call us at {{company.phone}}.\n\n{{company.name}}',
    smsBody: 'Hi {{customer.firstName}}, invoice {{document.number}} ({{document.balance}} open) from {{company.name}} is past due. View and pay: {{document.link}}',
  },
};

const placeholderPattern = /\{\{\s*([^{}]*?)\s*\}\}/g;

function isListedVariable(name: string): name is MessageVariable {
  return Object.hasOwn(messageVariables, name);
}

/** Replaces `{{name}}` for the listed variables only; anything else is left as written. A listed variable without a value becomes ''. */
export function renderTemplate(template: string, variables: MessageVariables): string {
  return template.replace(placeholderPattern, (whole, name: string) => (isListedVariable(name) ? (variables[name] ?? '') : whole));
}

/** The problems of a template text: unknown variables and unclosed braces. Empty: it may be saved. */
export function templateProblems(text: string): string[] {
  const problems: string[] = [];
  const unknown = new Set<string>();
  for (const match of text.matchAll(placeholderPattern)) {
    const name = match[1]!;
    if (!isListedVariable(name)) unknown.add(name);
  }
  for (const name of unknown) problems.push(`Unknown variable {{${name}}}; use one of ${messageVariableNames.map((listed) => `{{${listed}}}`).join(', ')}.`);
  const rest = text.replace(placeholderPattern, '');
  if (rest.includes('{{') || rest.includes('}}')) problems.push('A "{{" or "}}" is not closed: write variables as {{customer.firstName}}.');
  return problems;
}

/**
 * A rendered text as it is sent: the opt-out sentence appended, and dashes and curly quotes made
 * plain (one character outside the GSM alphabet makes the whole text UCS-2: 70 characters a
 * segment instead of 160).
 */
export function smsTextOf(body: string): string {
  const plain = body.trim().replace(/[–—]/g, '-').replace(/[‘’]/g, "'").replace(/[“”]/g, '"');
  return `${plain}${smsOptOutSuffix}`;
}

export function renderMessage(template: MessageTemplate, variables: MessageVariables): { subject: string; emailBody: string; smsBody: string } {
  return {
    subject: renderTemplate(template.subject, variables),
    emailBody: renderTemplate(template.emailBody, variables),
    smsBody: smsTextOf(renderTemplate(template.smsBody, variables)),
  };
}

const weekdayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' });

/** '2026-12-01' → 'Tuesday, December 1' (a calendar date: no time zone involved). */
export function formatAppointmentDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return weekdayFormat.format(new Date(Date.UTC(year, month - 1, day)));
}

/** '08:00' or '08:00:00' → '8:00 AM'. */
export function formatClockTime(time: string): string {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const suffix = hours < 12 ? 'AM' : 'PM';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes).padStart(2, '0')} ${suffix}`;
}

/** The arrival window: '8:00 AM – 10:00 AM'. */
export function formatAppointmentWindow(start: string, end: string): string {
  return `${formatClockTime(start)} – ${formatClockTime(end)}`;
}

/** 'Dana Whitfield' → 'Dana'; a company name stays whole when it has no space. */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

// API contracts ----------------------------------------------------------------------------------

const timestampSchema = z.string().describe('ISO 8601 instant');

export const messageSchema = z.object({
  id: z.string(),
  type: z.enum(messageTypes),
  channel: z.enum(messageChannels),
  status: z.enum(messageStatuses),
  recipient: z.string(),
  customerId: z.string().nullable(),
  workOrderId: z.string().nullable(),
  workOrderNumber: z.string().nullable(),
  appointmentVersion: z.string().nullable(),
  sendAt: timestampSchema,
  sentAt: timestampSchema.nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  subject: z.string().nullable(),
  body: z.string().nullable(),
  createdAt: timestampSchema,
});
export type Message = z.infer<typeof messageSchema>;

export const messageListResponseSchema = z.object({ messages: z.array(messageSchema) });
export type MessageListResponse = z.infer<typeof messageListResponseSchema>;

export const messageResponseSchema = z.object({ message: messageSchema });

export const consentSchema = z.object({
  channel: z.enum(messageChannels),
  /** What is stored; 'default' when nothing is (e-mail yes when the customer has an address, texts no). */
  status: z.enum([...consentStatuses, 'default']),
  source: z.enum(consentSources).nullable(),
  changedAt: timestampSchema.nullable(),
  changedByName: z.string().nullable(),
  /** Whether messages go out on this channel now. */
  isSending: z.boolean(),
  undeliverableAt: timestampSchema.nullable(),
  undeliverableNumber: z.string().nullable(),
});
export type Consent = z.infer<typeof consentSchema>;

export const customerMessagingResponseSchema = z.object({
  consents: z.array(consentSchema),
  messages: z.array(messageSchema),
});
export type CustomerMessagingResponse = z.infer<typeof customerMessagingResponseSchema>;

export const consentParamsSchema = z.object({ id: z.string(), channel: z.enum(messageChannels) });
export const consentUpdateSchema = z.object({ status: z.enum(consentStatuses) });
export type ConsentUpdate = z.infer<typeof consentUpdateSchema>;
export const consentResponseSchema = z.object({ consent: consentSchema });

function templateText(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .superRefine((value, context) => {
      for (const problem of templateProblems(value)) context.addIssue({ code: 'custom', message: problem });
    });
}

export const messageTemplateUpdateSchema = z.object({
  subject: templateText(200),
  emailBody: templateText(5000),
  smsBody: templateText(600),
});
export type MessageTemplateUpdate = z.infer<typeof messageTemplateUpdateSchema>;

export const messageTemplateSchema = z.object({
  type: z.enum(messageTypes),
  subject: z.string(),
  emailBody: z.string(),
  smsBody: z.string(),
  /** No admin edit: the built-in template. */
  isDefault: z.boolean(),
  updatedAt: timestampSchema.nullable(),
});
export type StoredMessageTemplate = z.infer<typeof messageTemplateSchema>;

export const messageTemplateParamsSchema = z.object({ type: z.enum(messageTypes) });
/**
 * "Send me a test": the template as edited (not yet saved), rendered with the sample values, by
 * e-mail (to `to`, or the signed-in admin's address) or as a text (to `to`, a mobile number).
 */
export const messageTemplateTestSchema = messageTemplateUpdateSchema.extend({
  channel: z.enum(messageChannels),
  to: z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), z.string().trim().max(254).optional()),
});
export type MessageTemplateTest = z.infer<typeof messageTemplateTestSchema>;
export const messageTemplateTestResponseSchema = z.object({ channel: z.enum(messageChannels), sentTo: z.string(), subject: z.string() });
export type MessageTemplateTestResponse = z.infer<typeof messageTemplateTestResponseSchema>;
export const messageTemplateListResponseSchema = z.object({
  templates: z.array(messageTemplateSchema),
  variables: z.array(z.object({ name: z.string(), label: z.string(), sample: z.string() })),
});
export const messageTemplateResponseSchema = z.object({ template: messageTemplateSchema });

const clockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time such as 21:00');

export const messagingSettingsSchema = z.object({
  /** Hours before the visit's start that the reminder goes out. */
  reminderLeadHours: z.number().int().min(1).max(168),
  /** No text from quietStart to quietEnd (company time); one due then waits for quietEnd. */
  quietStart: clockTimeSchema,
  quietEnd: clockTimeSchema,
});
export type MessagingSettings = z.infer<typeof messagingSettingsSchema>;
export const messagingSettingsResponseSchema = z.object({ settings: messagingSettingsSchema });
