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
});
export type StaffUser = z.infer<typeof staffUserSchema>;

export const sessionResponseSchema = z.object({ user: staffUserSchema });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** Spec 000 section 8: the login screen's two messages. */
export const loginMessages = {
  invalidCredentials: 'Invalid login credentials. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again.',
} as const;
