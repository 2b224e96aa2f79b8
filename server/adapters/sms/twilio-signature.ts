import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a Twilio webhook request carries its signature in. */
export const twilioSignatureHeader = 'x-twilio-signature';

/**
 * Twilio's request signature (https://www.twilio.com/docs/usage/security#validating-requests, and
 * twilio-node's getExpectedTwilioSignature): the full URL Twilio requested (scheme, host, path,
 * query), followed by each POST parameter's name and value with nothing between them, parameters
 * sorted by name; HMAC-SHA1 keyed with the account's auth token; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/**
 * The URL as Twilio may have signed it: as given, without the port, and with the scheme's standard
 * port written out (twilio-node's validateRequest accepts the same three, since Twilio's own
 * signing is not consistent about the port).
 */
function urlVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const withoutPort = new URL(parsed);
  withoutPort.port = '';
  const variants = [url, withoutPort.toString()];
  if (!parsed.port && (parsed.protocol === 'https:' || parsed.protocol === 'http:')) {
    const standardPort = parsed.protocol === 'https:' ? '443' : '80';
    // URL drops a default port when it is set, so this one is written by hand.
    variants.push(`${parsed.protocol}//${parsed.host}:${standardPort}${parsed.pathname}${parsed.search}`);
  }
  return [...new Set(variants)];
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  // The lengths are no secret (a signature is always 28 characters); the contents are compared in constant time.
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Whether `signature` (the X-Twilio-Signature header) is Twilio's for this request: `url` is the
 * webhook's public URL as configured at the provider (COMPANY_SITE_URL + the path, with any query),
 * `params` every form parameter received (not a chosen few: Twilio adds parameters without notice).
 * A missing or empty signature, or an empty token, is never valid.
 */
export function verifyTwilioSignature(input: { authToken: string; url: string; params: Record<string, string>; signature: string | undefined | null }): boolean {
  const { authToken, url, params, signature } = input;
  if (!authToken || !signature) return false;
  // Every variant is computed and compared, so the time taken does not depend on which one matches.
  let isValid = false;
  for (const variant of urlVariants(url)) {
    if (sameText(signature, twilioSignature(authToken, variant, params))) isValid = true;
  }
  return isValid;
}
