/** Public entry of notifications: other features import only what this file exports (decision 019-l). */
export { NotificationBell } from './notification-bell.tsx';
