import { z } from 'zod';
import { isValidIsoDate } from './dates.ts';

/** Spec 000 section 5: a 10-digit US number, with optional parentheses, dashes, dots or spaces. */
export const usPhonePattern = /^(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$/;

export const contactMessages = {
  nameRequired: 'Name is required',
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Please enter a valid phone number',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  addressRequired: 'Address is required',
  serviceTypeRequired: 'Service type is required',
  dateInPast: 'Preferred date cannot be before today',
} as const;

export const personNameSchema = z.string().trim().min(1, contactMessages.nameRequired).max(120, 'Name is too long');
export const phoneSchema = z
  .string()
  .trim()
  // abort: an empty field is 'required', not also 'invalid'.
  .min(1, { error: contactMessages.phoneRequired, abort: true })
  .max(30, contactMessages.phoneInvalid)
  .regex(usPhonePattern, contactMessages.phoneInvalid);
export const requiredEmailSchema = z
  .string()
  .trim()
  .min(1, contactMessages.emailRequired)
  .max(254, contactMessages.emailInvalid)
  .pipe(z.email(contactMessages.emailInvalid));
export const streetAddressSchema = z.string().trim().min(1, contactMessages.addressRequired).max(300, 'Address is too long');

/**
 * The public forms' "text me" box (issue 18; decision 021-a): ticked is the customer's consent to
 * appointment texts; unticked or absent is none (e-mail needs no box: it is how we answer).
 * A form posts 'on', the chat's form 'true', a JSON client true.
 */
export const smsConsentSchema = z
  .union([z.boolean(), z.enum(['on', 'true', 'false', ''])], { error: 'Text consent must be true or false' })
  .optional()
  .transform((value) => value === true || value === 'on' || value === 'true');

/** The box's words, as the privacy page describes texts (TCPA-style: what, how often, rates, STOP/HELP, not a condition). */
export function smsConsentWording(companyName: string): string {
  return `Text me about my request and appointments (confirmations, reminders, "on my way"). Message and data rates may apply; message frequency varies. Reply STOP to stop texts, HELP for help. Agreeing is not a condition of buying from ${companyName}.`;
}

/** '' from an untouched form field means "not given". */
export const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/** An optional preferred visit date: a real date, not before `today` (the company's calendar date). */
export function preferredDateSchema(today: string) {
  return z
    .preprocess(
      emptyToNull,
      z
        .string()
        .refine(isValidIsoDate, { error: 'Please enter a valid date', abort: true })
        .refine((date) => date >= today, contactMessages.dateInPast)
        .nullable(),
    )
    .default(null);
}

/** An optional free-text description of the problem or the job. */
export const descriptionSchema = z
  .preprocess(emptyToNull, z.string().trim().max(2000, 'Please keep the description under 2000 characters').nullable())
  .default(null);
