import { z } from 'zod';

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

/** '' from an untouched form field means "not given". */
export const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);
