import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * Phone numbers (issue 18, decision 021-a). Customers type phones in any format; texts need E.164
 * ("+18435550142"). libphonenumber-js (its default "min" metadata, small enough for the browser)
 * does the parsing and validation. Shared, so a form can show the same answer the server stores.
 */

/**
 * The number in E.164, or null when it is not a valid phone number. A number without a country
 * code is read as `defaultCountry`'s (US: "(843) 555-0142", "843.555.0142", "1-843-555-0142");
 * one starting with "+" is read as written. An extension ("ext. 12") is dropped: E.164 has none.
 */
export function toE164(raw: string, defaultCountry: CountryCode = 'US'): string | null {
  const text = raw.trim();
  // Far longer than any number with its punctuation and extension: not a phone.
  if (text === '' || text.length > 64) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * The last ten digits of a phone as typed (every non-digit ignored), or null when it has fewer than
 * ten. Inbound texts are matched to customers by these: the provider sends "+18435550142", the
 * stored phone may be "(843) 555-0142". The database's generated column must compute the same:
 * `right(regexp_replace(phone, '[^0-9]', '', 'g'), 10)`.
 */
export function phoneLast10(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  return digits.length >= 10 ? digits.slice(-10) : null;
}

/**
 * How a stored E.164 number is shown: a North American (+1) number in the national format
 * ("(843) 555-0142"), another country's in the international one ("+44 20 7946 0958"). Anything
 * that is not a valid number is returned as it is.
 */
export function formatPhoneForDisplay(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164.trim());
  if (!parsed?.isValid()) return e164;
  return parsed.countryCallingCode === '1' ? parsed.formatNational() : parsed.formatInternational();
}
