import type { BadgeTone } from '#client/components/ui/badge.tsx';
import { company } from '#client/lib/company.ts';
import type { Consent, Message, MessageChannel, MessageStatus } from '#shared/messaging.ts';

/** The statuses of a message as staff read them, with a badge tone (text, never colour alone). */
export const messageStatusLabels: Record<MessageStatus, string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
};

export const messageStatusTones: Record<MessageStatus, BadgeTone> = {
  scheduled: 'info',
  sending: 'primary',
  sent: 'success',
  failed: 'danger',
  skipped: 'warning',
  cancelled: 'neutral',
};

/** The channel as the consent lines name it ("Texts: not opted in"). */
export const consentChannelNames: Record<MessageChannel, string> = { email: 'E-mail', sms: 'Texts' };

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: company.timeZone });
const momentFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: company.timeZone });

/** '2026-11-12T15:04:00Z' → '12 Nov 2026' (the company's day). */
export function formatConsentDate(iso: string): string {
  return dayFormat.format(new Date(iso));
}

/** A message's moment, in the company's time zone: 'Nov 12, 2026, 3:04 PM'. */
export function formatMessageTime(iso: string): string {
  return momentFormat.format(new Date(iso));
}

/** "Sent Nov 12, 2026, 3:04 PM", "Due …" for a planned one, "Last tried …" for a failure. */
export function messageTimeLine(message: Pick<Message, 'status' | 'sendAt' | 'sentAt'>): string {
  switch (message.status) {
    case 'sent':
      return `Sent ${formatMessageTime(message.sentAt ?? message.sendAt)}`;
    case 'scheduled':
      return `Due ${formatMessageTime(message.sendAt)}`;
    case 'sending':
      return `Sending since ${formatMessageTime(message.sendAt)}`;
    case 'failed':
      return `Failed, planned for ${formatMessageTime(message.sendAt)}`;
    case 'skipped':
      return `Skipped, was due ${formatMessageTime(message.sendAt)}`;
    case 'cancelled':
      return `Cancelled, was due ${formatMessageTime(message.sendAt)}`;
  }
}

/** Resend is offered for what went out or failed; planned, in-flight and cancelled ones are left alone. */
export function canResend(message: Pick<Message, 'status'>): boolean {
  return message.status === 'failed' || message.status === 'sent';
}

function bySomeone(consent: Consent, verb: 'opted in' | 'opted out'): string {
  switch (consent.source) {
    case 'form':
      return `${verb} by the customer on the estimate form`;
    case 'reply':
      return `${verb} by the customer’s ${verb === 'opted in' ? 'START' : 'STOP'} reply`;
    case 'staff':
      return `${verb} by ${consent.changedByName ?? 'staff'}`;
    default:
      return verb;
  }
}

/**
 * One channel's consent in words: "Texts: opted in by the customer on the estimate form, 12 Nov
 * 2026", "E-mail: sending (default)", "Texts: not opted in".
 */
export function consentLine(consent: Consent): string {
  const name = consentChannelNames[consent.channel];
  const when = consent.changedAt ? `, ${formatConsentDate(consent.changedAt)}` : '';
  if (consent.status === 'opted_in') return `${name}: ${bySomeone(consent, 'opted in')}${when}`;
  if (consent.status === 'opted_out') return `${name}: ${bySomeone(consent, 'opted out')}${when}`;
  if (consent.isSending) return `${name}: sending (default)`;
  return consent.channel === 'sms' ? `${name}: not opted in` : `${name}: not sending (no e-mail address)`;
}

/** The warning for a number the SMS provider refused for good, or undefined. */
export function undeliverableLine(consent: Consent): string | undefined {
  if (consent.channel !== 'sms' || !consent.undeliverableAt) return undefined;
  const number = consent.undeliverableNumber ? `The number ${consent.undeliverableNumber}` : 'The phone number';
  return `${number} cannot receive texts (refused by the carrier ${formatConsentDate(consent.undeliverableAt)}). Update the customer’s phone to text them again.`;
}

// SMS length ----------------------------------------------------------------------------------------

/** The GSM 03.38 basic alphabet: one septet each. */
const gsmBasic = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** The GSM extension table: two septets each (an escape and the character). */
const gsmExtension = new Set('^{}\\[~]|€\f');

export type SmsLength = { characters: number; encoding: 'GSM-7' | 'UCS-2'; segments: number; perSegment: number };

/**
 * How a text is billed: 160 GSM-7 characters in one segment (153 each when split), or 70 (67) as
 * soon as one character is outside the GSM alphabet.
 */
export function smsLength(text: string): SmsLength {
  const characters = [...text];
  const isGsm = characters.every((character) => gsmBasic.has(character) || gsmExtension.has(character));
  if (isGsm) {
    const septets = characters.reduce((sum, character) => sum + (gsmExtension.has(character) ? 2 : 1), 0);
    const segments = septets === 0 ? 0 : septets <= 160 ? 1 : Math.ceil(septets / 153);
    return { characters: septets, encoding: 'GSM-7', segments, perSegment: segments > 1 ? 153 : 160 };
  }
  const units = text.length; // UTF-16 code units: an emoji takes two
  const segments = units <= 70 ? 1 : Math.ceil(units / 67);
  return { characters: units, encoding: 'UCS-2', segments, perSegment: segments > 1 ? 67 : 70 };
}

/** "132 characters, 1 text message" / "171 characters, 2 text messages (special characters: 67 each)". */
export function smsLengthLine(length: SmsLength): string {
  const count = `${length.characters} character${length.characters === 1 ? '' : 's'}, ${length.segments} text message${length.segments === 1 ? '' : 's'}`;
  if (length.encoding === 'UCS-2') return `${count} (a special character limits each to ${length.perSegment})`;
  return length.segments > 1 ? `${count} (${length.perSegment} characters each)` : count;
}

// Polling --------------------------------------------------------------------------------------------

/** How long after a change of the work order its new messages are looked for (the planner runs after the commit). */
export const planningWindowMs = 60_000;
export const pollIntervalMs = 3_000;
/** A message overdue longer than this is not waited for (the sender is stopped): no endless polling. */
const overdueWindowMs = 15 * 60_000;

/**
 * No live topic announces messages (decision 021-a: they are planned after the work order's change
 * is committed), so a history is refetched every few seconds while something is about to happen:
 * shortly after the work order (or customer) changed, or while a message is due or being sent.
 */
export function messagePollInterval(messages: readonly Pick<Message, 'status' | 'sendAt'>[] | undefined, changedAt: string | undefined, now: number): number | false {
  if (changedAt && now - Date.parse(changedAt) < planningWindowMs) return pollIntervalMs;
  const isBusy = (messages ?? []).some((message) => {
    const dueFor = now - Date.parse(message.sendAt);
    return (message.status === 'sending' || message.status === 'scheduled') && dueFor >= 0 && dueFor < overdueWindowMs;
  });
  return isBusy ? pollIntervalMs : false;
}
