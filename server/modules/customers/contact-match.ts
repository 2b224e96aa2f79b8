/**
 * "The customer a caller already is" (decision 018-a): the same phone number (its last 10 digits,
 * however typed) or the same e-mail (any case). `CustomerRepository.findByContact` (one contact)
 * and `findIdsByContacts` (several, one statement) ask the stored customers; `sameContact` answers
 * it for two contacts that are not stored yet (bookings written together in one group, decision
 * 024-a), by the same rule.
 */
export type Contact = { phone: string; email: string | null };

/** The last 10 digits of a phone number: what customers_phone_digits_created_idx holds (right(regexp_replace(phone, '[^0-9]', '', 'g'), 10)). */
export function contactPhoneDigits(phone: string): string {
  return phone.replace(/[^0-9]/g, '').slice(-10);
}

/** The e-mail as customers_email_lower_created_idx compares it; none when empty. */
export function contactEmail(email: string | null): string | undefined {
  return email ? email.toLowerCase() : undefined;
}

export function sameContact(a: Contact, b: Contact): boolean {
  const email = contactEmail(a.email);
  return contactPhoneDigits(a.phone) === contactPhoneDigits(b.phone) || (email !== undefined && email === contactEmail(b.email));
}
