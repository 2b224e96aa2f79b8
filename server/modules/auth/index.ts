/** Public entry of auth: other modules import only what this file exports (decision 019-l). */
export { type AuthRepository } from './auth.repository.ts';
export { assertAcceptablePassword, type AuthService, hashToken } from './auth.service.ts';
export { hashPassword, verifyPassword } from './password.ts';
