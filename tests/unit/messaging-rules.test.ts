import { describe, expect, it } from 'vitest';
import {
  defaultMessageTemplates,
  formatAppointmentDate,
  formatAppointmentWindow,
  firstNameOf,
  messageTemplateUpdateSchema,
  messageTypes,
  renderMessage,
  renderTemplate,
  sampleMessageVariables,
  smsOptOutSuffix,
  smsTextOf,
  templateProblems,
} from '#shared/messaging.ts';

describe('renderTemplate', () => {
  it('substitutes listed variables, with or without spaces inside the braces', () => {
    expect(renderTemplate('Hi {{customer.firstName}}, see you {{ appointment.date }}.', { 'customer.firstName': 'Dana', 'appointment.date': 'Tuesday, December 1' })).toBe(
      'Hi Dana, see you Tuesday, December 1.',
    );
  });

  it('leaves unknown placeholders as written and makes a listed one without a value empty', () => {
    expect(renderTemplate('{{customer.password}} {{customer.firstName}}!', {})).toBe('{{customer.password}} !');
  });

  it('does not substitute inside a substituted value (no second pass)', () => {
    expect(renderTemplate('{{customer.firstName}}', { 'customer.firstName': '{{company.name}}' })).toBe('{{company.name}}');
  });

  it('does not take inherited object keys for variables', () => {
    expect(renderTemplate('{{constructor}} {{__proto__}}', {})).toBe('{{constructor}} {{__proto__}}');
    expect(templateProblems('{{constructor}}')).toHaveLength(1);
  });
});

describe('templateProblems', () => {
  it('is empty for every built-in template', () => {
    for (const type of messageTypes) {
      const template = defaultMessageTemplates[type];
      expect([...templateProblems(template.subject), ...templateProblems(template.emailBody), ...templateProblems(template.smsBody)], type).toEqual([]);
    }
  });

  it('names each unknown variable once', () => {
    const problems = templateProblems('{{customer.lastName}} and {{customer.lastName}} and {{company.name}}');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('{{customer.lastName}}');
  });

  it('finds unclosed braces', () => {
    expect(templateProblems('Hi {{customer.firstName')).toHaveLength(1);
  });

  it('makes the update schema refuse an unknown variable with its name', () => {
    const result = messageTemplateUpdateSchema.safeParse({ subject: 'x', emailBody: 'Hi {{customer.nickname}}', smsBody: 'y' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('customer.nickname');
  });
});

describe('built-in texts', () => {
  it('fit one 160-character GSM segment with the sample values, end with the opt-out, and name the company', () => {
    for (const type of messageTypes) {
      const text = renderMessage(defaultMessageTemplates[type], sampleMessageVariables).smsBody;
      expect(text.endsWith(smsOptOutSuffix), type).toBe(true);
      expect(text, type).toContain(sampleMessageVariables['company.name']);
      // Not the visit summary (free text): every built-in text stays within one segment; a quote's
      // or an invoice's carries its link (some 85 characters) and stays within two (2 x 153).
      const isDocument = type === 'quote_sent' || type === 'invoice_sent' || type === 'invoice_overdue';
      expect(text.length, `${type}: ${text}`).toBeLessThanOrEqual(isDocument ? 306 : 160);
      if (isDocument) expect(text, type).toContain(sampleMessageVariables['document.link']);
      expect(text, type).toMatch(/^[\x20-\x7e\n]*$/);
    }
  });

  it('asks for C or R in the reminder', () => {
    expect(defaultMessageTemplates.appointment_reminder.smsBody).toContain('Reply C to confirm or R to reschedule');
  });

  it('makes dashes plain in texts', () => {
    expect(smsTextOf('8:00 AM – 10:00 AM')).toBe(`8:00 AM - 10:00 AM${smsOptOutSuffix}`);
  });
});

describe('formats', () => {
  it('writes the date and the window as customers read them', () => {
    expect(formatAppointmentDate('2026-12-01')).toBe('Tuesday, December 1');
    expect(formatAppointmentWindow('08:00:00', '10:00')).toBe('8:00 AM – 10:00 AM');
    expect(formatAppointmentWindow('12:30', '00:15')).toBe('12:30 PM – 12:15 AM');
    expect(firstNameOf('  Dana  Whitfield ')).toBe('Dana');
  });
});
