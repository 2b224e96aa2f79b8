/** Public entry of settings: other features import only what this file exports (decision 019-l). */
export { accountKeys, fieldErrorOf, messageOf, useChangeOwnPassword } from './staff-api.ts';
export { ViewActivityLink } from './activity-link.tsx';
export { ChangePasswordScreen } from './change-password-screen.tsx';
export { SettingsScreen } from './settings-screen.tsx';
