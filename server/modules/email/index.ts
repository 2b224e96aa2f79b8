/** Public entry of email: other modules import only what this file exports (decision 019-l). */
export { type EmailOutbox, type QueuedEmail, removedSecretBody, retryDelaysMinutes } from './email-outbox.ts';
export { claimRecipientSlot } from './recipient-cap.ts';
