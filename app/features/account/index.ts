/** Public entry of account: other features import only what this file exports (decision 019-l). */
export { FieldErrorAnnouncement, NewPasswordField, useFocusField } from './new-password-field.tsx';
export { ChangePasswordForm } from './change-password-form.tsx';
