import { useId, useRef, useState, type FormEvent } from 'react';
import { changeOwnPasswordSchema, passwordRuleProblem, staffMessages, type ChangeOwnPasswordInput } from '#shared/auth.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { fieldErrorOf, messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { FieldErrorAnnouncement, NewPasswordField, useFocusField } from './new-password-field.tsx';

type Errors = Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', string>>;
const fieldOrder = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/**
 * Changing one's own password: the current one, the new one twice. Checked here as the server
 * checks it (the contract and the password policy from shared/), and the server's refusals shown
 * on their fields and announced. The office (/admin/account) and the technician app (/tech/account)
 * each pass the call to their own route; the rule is the staff service's (decision 022-a, "Later").
 */
export function ChangePasswordForm({
  user,
  submit,
  isOffline = false,
  className = '',
}: {
  /** Who signs in: for the policy (no name or e-mail in the password) and password managers. */
  user: { email: string; name: string } | undefined;
  submit: (input: ChangeOwnPasswordInput) => Promise<void>;
  /** No network: the change cannot be sent, so the button waits for it. */
  isOffline?: boolean;
  className?: string;
}) {
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [done, setDone] = useState(false);
  const [isPending, setIsPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const currentId = useId();
  const confirmId = useId();
  const offlineId = useId();

  const focusField = useFocusField(formRef);
  const focusFirst = (found: Errors) => {
    const first = fieldOrder.find((field) => found[field]);
    if (first) focusField(first);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    setFormError(undefined);
    setDone(false);
    const form = new FormData(event.currentTarget);
    const values = { currentPassword: String(form.get('currentPassword') ?? ''), newPassword: String(form.get('newPassword') ?? '') };
    const confirmPassword = String(form.get('confirmPassword') ?? '');
    const found: Errors = {};
    const parsed = changeOwnPasswordSchema.safeParse(values);
    if (!parsed.success) for (const issue of parsed.error.issues) found[issue.path[0] as keyof Errors] ??= issue.message;
    found.newPassword ??= passwordRuleProblem(values.newPassword, { email: user?.email, name: user?.name, companyName: company.name });
    if (!found.newPassword && values.newPassword === values.currentPassword) found.newPassword = staffMessages.samePassword;
    if (!found.newPassword && confirmPassword !== values.newPassword) found.confirmPassword = 'The two new passwords differ.';
    const cleaned = Object.fromEntries(Object.entries(found).filter(([, message]) => message)) as Errors;
    setErrors(cleaned);
    if (!parsed.success || Object.keys(cleaned).length > 0) {
      focusFirst(cleaned);
      return;
    }
    setIsPending(true);
    try {
      await submit(parsed.data);
      formRef.current?.reset();
      setDone(true);
    } catch (error) {
      const server: Errors = { currentPassword: fieldErrorOf(error, 'currentPassword'), newPassword: fieldErrorOf(error, 'newPassword') };
      setErrors(server);
      if (server.currentPassword || server.newPassword) focusFirst(server);
      else setFormError(messageOf(error));
    } finally {
      setIsPending(false);
    }
  }

  return (
    <div className={`space-y-4 ${className}`}>
      <div aria-live="polite">{done ? <Alert tone="success">Your password was changed. Other devices were signed out.</Alert> : null}</div>
      <div aria-live="assertive">{formError ? <Alert>{formError}</Alert> : null}</div>
      <FieldErrorAnnouncement message={errors.currentPassword ?? errors.newPassword ?? errors.confirmPassword} />
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Change password" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        {/* For password managers: the account this password belongs to. */}
        <input type="text" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <FormField id={currentId} label="Current password" error={errors.currentPassword} isRequired>
          <input
            id={currentId}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            disabled={isPending}
            className={controlClass}
            {...errorAttributes(currentId, errors.currentPassword)}
          />
        </FormField>
        <NewPasswordField name="newPassword" label="New password" error={errors.newPassword} disabled={isPending} />
        <FormField id={confirmId} label="Repeat the new password" error={errors.confirmPassword} isRequired>
          <input
            id={confirmId}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            disabled={isPending}
            className={controlClass}
            {...errorAttributes(confirmId, errors.confirmPassword)}
          />
        </FormField>
        {isOffline ? (
          <p id={offlineId} className="text-sm font-medium text-amber-900">
            You are offline. Changing the password needs a connection.
          </p>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" className="min-h-12 w-full sm:w-auto" disabled={isPending || isOffline} aria-describedby={isOffline ? offlineId : undefined}>
            {isPending ? 'Saving...' : 'Change password'}
          </Button>
        </div>
      </form>
    </div>
  );
}
