/** Public entry of notifications: other modules import only what this file exports (decision 019-l). */
export { type NotificationRepository } from './notification.repository.ts';
