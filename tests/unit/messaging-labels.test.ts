import { describe, expect, it } from 'vitest';
import type { Consent } from '#shared/messaging.ts';
import { consentLine, messagePollInterval, pollIntervalMs, smsLength, smsLengthLine, undeliverableLine } from '#client/features/messaging/labels.ts';

function consent(overrides: Partial<Consent>): Consent {
  return { channel: 'sms', status: 'default', source: null, changedAt: null, changedByName: null, isSending: false, undeliverableAt: null, undeliverableNumber: null, ...overrides };
}

describe('SMS length', () => {
  it('counts GSM-7 texts in 160 characters, then 153 a segment', () => {
    expect(smsLength('a'.repeat(160))).toEqual({ characters: 160, encoding: 'GSM-7', segments: 1, perSegment: 160 });
    expect(smsLength('a'.repeat(161))).toEqual({ characters: 161, encoding: 'GSM-7', segments: 2, perSegment: 153 });
    expect(smsLength('a'.repeat(307)).segments).toBe(3);
    expect(smsLength('a'.repeat(306)).segments).toBe(2);
  });

  it('counts the extension characters as two and keeps accented GSM letters in GSM-7', () => {
    expect(smsLength('€[]').characters).toBe(6);
    expect(smsLength('café à Zürich').encoding).toBe('GSM-7');
  });

  it('drops to 70 (67 a segment) as soon as one character is outside the GSM alphabet', () => {
    expect(smsLength(`${'a'.repeat(69)}–`)).toEqual({ characters: 70, encoding: 'UCS-2', segments: 1, perSegment: 70 });
    expect(smsLength(`${'a'.repeat(70)}✓`)).toEqual({ characters: 71, encoding: 'UCS-2', segments: 2, perSegment: 67 });
    // An emoji is two UTF-16 units.
    expect(smsLength('🙂').characters).toBe(2);
  });

  it('says it in words', () => {
    expect(smsLengthLine(smsLength('Hi'))).toBe('2 characters, 1 text message');
    expect(smsLengthLine(smsLength('a'.repeat(200)))).toBe('200 characters, 2 text messages (153 characters each)');
    expect(smsLengthLine(smsLength('✓'))).toBe('1 character, 1 text message (a special character limits each to 70)');
  });
});

describe('consent in words', () => {
  it('names who opted in or out, how and when', () => {
    expect(consentLine(consent({ status: 'opted_in', source: 'form', changedAt: '2026-11-12T15:00:00Z', isSending: true }))).toBe(
      'Texts: opted in by the customer on the estimate form, 12 Nov 2026',
    );
    expect(consentLine(consent({ channel: 'email', status: 'opted_out', source: 'staff', changedByName: 'Pat Admin', changedAt: '2026-11-13T15:00:00Z' }))).toBe(
      'E-mail: opted out by Pat Admin, 13 Nov 2026',
    );
    expect(consentLine(consent({ status: 'opted_out', source: 'reply', changedAt: '2026-11-14T15:00:00Z' }))).toBe(
      'Texts: opted out by the customer’s STOP reply, 14 Nov 2026',
    );
  });

  it('tells the defaults apart: e-mail sends, texts wait for an opt-in', () => {
    expect(consentLine(consent({ channel: 'email', isSending: true }))).toBe('E-mail: sending (default)');
    expect(consentLine(consent({ channel: 'email', isSending: false }))).toBe('E-mail: not sending (no e-mail address)');
    expect(consentLine(consent({}))).toBe('Texts: not opted in');
  });

  it('warns about a number that cannot take texts', () => {
    expect(undeliverableLine(consent({}))).toBeUndefined();
    expect(undeliverableLine(consent({ undeliverableAt: '2026-11-12T15:00:00Z', undeliverableNumber: '+18435550100' }))).toMatch(
      /^The number \+18435550100 cannot receive texts \(refused by the carrier 12 Nov 2026\)/,
    );
  });
});

describe('polling a history', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();

  it('polls right after the work order changed, and while a message is due or being sent', () => {
    expect(messagePollInterval([], at(-5_000), now)).toBe(pollIntervalMs);
    expect(messagePollInterval([{ status: 'scheduled', sendAt: at(-1_000) }], at(-3_600_000), now)).toBe(pollIntervalMs);
    expect(messagePollInterval([{ status: 'sending', sendAt: at(-30_000) }], undefined, now)).toBe(pollIntervalMs);
  });

  it('stops when nothing is about to happen: a reminder due tomorrow, or a sender stopped long ago', () => {
    expect(messagePollInterval([{ status: 'scheduled', sendAt: at(86_400_000) }, { status: 'sent', sendAt: at(-60_000) }], at(-3_600_000), now)).toBe(false);
    expect(messagePollInterval([{ status: 'scheduled', sendAt: at(-3_600_000) }], undefined, now)).toBe(false);
    expect(messagePollInterval(undefined, undefined, now)).toBe(false);
  });
});
