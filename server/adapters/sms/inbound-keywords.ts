/**
 * Inbound texts (issue 18): what a customer's reply means, and the TwiML that answers it.
 *
 * Carrier keywords (the CTIA's and Twilio's default opt-out handling) apply to the whole message
 * only, case-insensitive, whitespace trimmed: "stop" opts out, "Please stop by at 3" does not. A
 * stop keyword followed by sentence punctuation ("Stop.") still opts out: honouring an unclear
 * opt-out costs a text, ignoring one breaks the rules carriers enforce.
 */
export type InboundTextKind = 'stop' | 'start' | 'help' | 'confirm' | 'reschedule' | 'other';

const keywords: Record<Exclude<InboundTextKind, 'other'>, readonly string[]> = {
  stop: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'],
  start: ['START', 'YES', 'UNSTOP'],
  help: ['HELP', 'INFO'],
  confirm: ['C', 'CONFIRM'],
  reschedule: ['R', 'RESCHEDULE'],
};

const kindByKeyword = new Map<string, InboundTextKind>(
  Object.entries(keywords).flatMap(([kind, words]) => words.map((word) => [word, kind as InboundTextKind] as const)),
);

/** `text` is the message trimmed (what staff see in a notification for 'other'). */
export function classifyInboundText(body: string): { kind: InboundTextKind; text: string } {
  const text = body.trim();
  const word = text.toUpperCase();
  const kind = kindByKeyword.get(word);
  if (kind) return { kind, text };
  const withoutPunctuation = word.replace(/[.!]+$/, '').trim();
  if (kindByKeyword.get(withoutPunctuation) === 'stop') return { kind: 'stop', text };
  return { kind: 'other', text };
}

/** Characters XML 1.0 cannot hold at all (control characters other than tab, LF, CR; lone surrogates; U+FFFE/U+FFFF). */
// eslint-disable-next-line no-control-regex
const invalidXmlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function escapeXml(text: string): string {
  return text
    .replace(invalidXmlCharacters, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The webhook's answer (TwiML, content type text/xml): one reply text, or `<Response/>` (reply
 * nothing) when `text` is empty or missing.
 */
export function twimlMessage(text?: string): string {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>';
  if (!text || text.trim() === '') return `${declaration}<Response/>`;
  return `${declaration}<Response><Message>${escapeXml(text)}</Message></Response>`;
}
