import { z } from 'zod';
import { staffRoles } from './enums.ts';

/** Spec 000 section 5: email and password are both required. */
export const loginSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254).pipe(z.email('Enter a valid email address')),
  password: z.string().min(1, 'Password is required').max(1024),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const staffUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(staffRoles),
  /** A technician account's technician record (issue 19); null for office staff or an unlinked account. */
  technicianId: z.string().nullable().optional(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/** Where a signed-in user starts: the technician app for technicians, the back office for the others. */
export function homePathFor(role: StaffUser['role']): '/tech' | '/admin' {
  return role === 'technician' ? '/tech' : '/admin';
}

/** The sign-in's and the session's answer; `home` says where the user's screens are (issue 19). */
export const sessionResponseSchema = z.object({ user: staffUserSchema, home: z.enum(['/tech', '/admin']).optional() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** Spec 000 section 8: the login screen's two messages. */
export const loginMessages = {
  invalidCredentials: 'Invalid login credentials. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again.',
  /** Issue 15: a throttled sign-in (429, with Retry-After). */
  throttled: (seconds: number) => `Too many attempts. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
} as const;

// Passwords (issue 10) ---------------------------------------------------------------------------
// One policy for every place that sets a password: the staff screens, the set-password link, the
// change-my-password form, scripts/create-admin.ts and the start-up admin. These checks need no
// dictionary, so the browser runs them as the user types; the server adds the common-password
// check of shared/password-policy.ts (a large dictionary the browser never downloads).

export const passwordLength = { min: 12, max: 256 } as const;

export const passwordMessages = {
  required: 'Enter a password.',
  tooShort: `Use at least ${passwordLength.min} characters.`,
  tooLong: `Use at most ${passwordLength.max} characters.`,
  repeated: 'The password cannot be one character repeated.',
  sequence: 'The password cannot be a simple sequence such as 123456789012 or abcdefghijkl.',
  personal: 'The password cannot contain the e-mail address or the name of its account.',
  company: 'The password cannot contain the company name.',
  common: 'This password is too common or too easy to guess. A few unrelated words together make a strong one.',
} as const;

/** What a password must not contain: the account's e-mail and name, the company's name. */
export type PasswordContext = { email?: string; name?: string; companyName?: string };

/** A new password's field in a request body: the length rules (the rest is checked with its context). */
export const newPasswordField = z.string().min(1, passwordMessages.required).min(passwordLength.min, passwordMessages.tooShort).max(passwordLength.max, passwordMessages.tooLong);

const compact = (value: string) => value.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]/gu, '');

/** Every character one step after (or before) the previous, like 123456789012, abcdefghijkl, 987654321098. */
function isSimpleSequence(password: string): boolean {
  const value = password.toLowerCase();
  const alphabet = /^\d+$/.test(value) ? '0123456789' : /^[a-z]+$/.test(value) ? 'abcdefghijklmnopqrstuvwxyz' : undefined;
  if (!alphabet) return false;
  const positions = [...value].map((character) => alphabet.indexOf(character));
  const steps = new Set(positions.slice(1).map((position, index) => (position - positions[index]! + alphabet.length) % alphabet.length));
  return steps.size === 1 && (steps.has(1) || steps.has(alphabet.length - 1));
}

/** Pieces of the context a password must not contain: whole values and their words of 4+ characters. */
function forbiddenPieces(context: PasswordContext): { personal: string[]; company: string[] } {
  const words = (value: string) => value.split(/[^\p{L}\p{N}]+/u).map(compact).filter((word) => word.length >= 4);
  const email = context.email?.trim().toLowerCase() ?? '';
  const localPart = email.split('@')[0] ?? '';
  const personal = [compact(email), compact(localPart), ...words(localPart), compact(context.name ?? ''), ...words(context.name ?? '')];
  // The company name compacted, and its first word (the distinctive one: "Lowcountry").
  const companyWords = words(context.companyName ?? '');
  const company = [compact(context.companyName ?? ''), ...companyWords.slice(0, 1)];
  return { personal: personal.filter((piece) => piece.length >= 3), company: company.filter((piece) => piece.length >= 4) };
}

/**
 * The policy's rules that need no dictionary, in the order a person fixes them; the first broken
 * rule's message, or undefined.
 */
export function passwordRuleProblem(password: string, context: PasswordContext = {}): string | undefined {
  if (password.length === 0) return passwordMessages.required;
  if (password.length < passwordLength.min) return passwordMessages.tooShort;
  if (password.length > passwordLength.max) return passwordMessages.tooLong;
  if (new Set(password).size === 1) return passwordMessages.repeated;
  if (isSimpleSequence(password)) return passwordMessages.sequence;
  const value = compact(password);
  const pieces = forbiddenPieces(context);
  if (pieces.personal.some((piece) => value.includes(piece))) return passwordMessages.personal;
  if (pieces.company.some((piece) => value.includes(piece))) return passwordMessages.company;
  return undefined;
}

export const staffAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(staffRoles),
  /** The technician a technician account is (issue 19). */
  technicianId: z.string().nullable().optional(),
  /** That technician's name and colour, in the list (the calendar's colour and name carry over). */
  technician: z.object({ id: z.string(), name: z.string(), color: z.string(), active: z.boolean() }).nullable().optional(),
  active: z.boolean(),
  /** False while an invited user has not chosen a password yet. */
  hasPassword: z.boolean(),
  lastSignInAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type StaffAccount = z.infer<typeof staffAccountSchema>;

export const staffListResponseSchema = z.object({ staff: z.array(staffAccountSchema) });

const staffNameField = z.string().trim().min(1, 'Enter a name').max(120, 'Use at most 120 characters');
const staffEmailField = z.string().trim().min(1, 'Email is required').max(254).pipe(z.email('Enter a valid email address'));

/** How a new account (or a reset) gets its password: set now by the admin, or chosen by the user through a link. */
export const passwordSetupSchema = z.discriminatedUnion('setup', [
  z.object({ setup: z.literal('invite') }),
  z.object({ setup: z.literal('password'), password: newPasswordField }),
]);
export type PasswordSetup = z.infer<typeof passwordSetupSchema>;

/** The technician a technician account is: required with the role technician, ignored otherwise (issue 19). */
const technicianIdField = z.uuid('Choose the technician this account is').nullable().optional();

export const addStaffSchema = z
  .object({ email: staffEmailField, name: staffNameField, role: z.enum(staffRoles, { error: 'Choose a role' }), technicianId: technicianIdField })
  .and(passwordSetupSchema);
export type AddStaffInput = z.infer<typeof addStaffSchema>;

export const changeRoleSchema = z.object({ role: z.enum(staffRoles, { error: 'Choose a role' }), technicianId: technicianIdField });
export type ChangeRoleInput = z.infer<typeof changeRoleSchema>;

export const staffChangeResponseSchema = z.object({
  staff: staffAccountSchema,
  /** When a set-password link was sent: when it stops working. */
  linkExpiresAt: z.iso.datetime().optional(),
});
export type StaffChangeResponse = z.infer<typeof staffChangeResponseSchema>;
export type StaffListResponse = z.infer<typeof staffListResponseSchema>;

export const changeOwnPasswordSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(1024),
  newPassword: newPasswordField,
});
export type ChangeOwnPasswordInput = z.infer<typeof changeOwnPasswordSchema>;

/** The one-time link's token: 32 random bytes, base64url (43 characters). */
const linkTokenField = z.string().min(20).max(128);
export const setPasswordSchema = z.object({ token: linkTokenField, password: newPasswordField });
export const setPasswordLinkQuerySchema = z.object({ token: linkTokenField });
export const setPasswordLinkResponseSchema = z.object({ email: z.string(), name: z.string() });

export const staffMessages = {
  forbidden: 'Only an administrator can change settings.',
  /** An action reserved to administrators outside settings (a route marked adminOnly; decision 018-f). */
  adminOnly: 'Only an administrator can do this.',
  notFound: 'That staff account no longer exists.',
  emailTaken: 'A staff account with that email already exists.',
  selfDeactivate: 'You cannot deactivate your own account.',
  selfRole: 'Another administrator must change your role.',
  selfReset: 'Use Change password for your own account.',
  lastAdmin: 'At least one active administrator must remain.',
  inactive: 'Reactivate the account first.',
  wrongCurrentPassword: 'The current password is not right.',
  samePassword: 'Choose a password different from the current one.',
  linkInvalid: 'This link has expired or was already used. Ask an administrator for a new one.',
  /** Issue 19: a technician account names its technician record. */
  technicianRequired: 'Choose the technician this account is.',
  technicianUnavailable: 'That technician does not exist or is inactive. Choose an active technician.',
  technicianTaken: 'Another staff account is already this technician.',
} as const;
