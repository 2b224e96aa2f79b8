import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './payment-gateway.ts';

/** The header a Stripe webhook request carries its signature in. */
export const stripeSignatureHeader = 'stripe-signature';

/** Stripe's default tolerance (stripe-node's Webhook.DEFAULT_TOLERANCE): a signature older than 5 minutes is refused. */
export const stripeSignatureToleranceSeconds = 300;

/**
 * Stripe's webhook signature (https://docs.stripe.com/webhooks#verify-manually, and stripe-node's
 * src/Webhooks.ts): HMAC-SHA256, keyed with the endpoint's signing secret (the whole "whsec_..."
 * string), of the timestamp, a dot and the raw body; lower-case hex.
 */
export function stripeSignature(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

/**
 * The header's parts, as stripe-node's parseHeader reads them: comma-separated `key=value` items;
 * `t` the Unix timestamp, every `v1` a signature (several during a secret's rotation); other
 * schemes (`v0`, Stripe's test-mode extra) are ignored.
 */
function parseSignatureHeader(header: string): { timestamp: number | null; signatures: string[] } {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator <= 0) continue;
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value !== '') signatures.push(value);
  }
  return { timestamp, signatures };
}

function sameSignature(expectedHex: string, candidate: string): boolean {
  // A candidate of the wrong length or not hex cannot match; the comparison itself is constant-time.
  if (!/^[0-9a-f]{64}$/i.test(candidate)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(candidate.toLowerCase(), 'hex'));
}

/**
 * Checks a Stripe-Signature header against the raw body: some `v1` signature must equal the HMAC
 * of `${t}.${rawBody}` (every one is compared, so the time taken does not depend on which
 * matches), and `t` must be within `toleranceSeconds` of `now`. stripe-node refuses only a
 * timestamp older than the tolerance; one further in the future is refused here too (a clock that
 * far ahead is not Stripe's). Throws WebhookSignatureError with the reason; an empty secret never
 * verifies.
 */
export function verifyStripeSignature(input: {
  rawBody: Buffer;
  header: string | undefined;
  secret: string;
  now?: Date | undefined;
  toleranceSeconds?: number | undefined;
}): void {
  const { rawBody, header, secret } = input;
  const tolerance = input.toleranceSeconds ?? stripeSignatureToleranceSeconds;
  if (!header || header.trim() === '') throw new WebhookSignatureError('No Stripe-Signature header was provided', 'missing_header');
  const parsed = parseSignatureHeader(header);
  if (parsed.timestamp === null) throw new WebhookSignatureError('The Stripe-Signature header has no timestamp', 'malformed_header');
  if (parsed.signatures.length === 0) throw new WebhookSignatureError('The Stripe-Signature header has no v1 signature', 'no_v1_signature');
  if (!secret) throw new WebhookSignatureError('No webhook signing secret is configured', 'signature_mismatch');
  const expected = stripeSignature(secret, parsed.timestamp, rawBody);
  let matched = false;
  for (const candidate of parsed.signatures) {
    if (sameSignature(expected, candidate)) matched = true;
  }
  if (!matched) throw new WebhookSignatureError('No v1 signature matches the body (is it the raw body, and the endpoint\u2019s signing secret?)', 'signature_mismatch');
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > tolerance) {
    throw new WebhookSignatureError(`The signature's timestamp is more than ${tolerance} s from now`, 'timestamp_outside_tolerance');
  }
}
