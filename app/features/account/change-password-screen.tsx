import { useId, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { changeOwnPasswordSchema, passwordRuleProblem, staffMessages } from '#shared/auth.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { sessionQuery } from '#client/features/auth/index.ts';
import { fieldErrorOf, messageOf, useChangeOwnPassword } from '#client/features/settings/index.ts';
import { company } from '#client/lib/company.ts';
import { FieldErrorAnnouncement, NewPasswordField, useFocusField } from './new-password-field.tsx';

type Errors = Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', string>>;
const fieldOrder = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** /admin/account: any signed-in staff member changes their own password (issue 10). */
export function ChangePasswordScreen() {
  const session = useQuery(sessionQuery);
  const change = useChangeOwnPassword();
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [done, setDone] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const currentId = useId();
  const confirmId = useId();
  const user = session.data?.user;

  const focusField = useFocusField(formRef);
  const focusFirst = (found: Errors) => {
    const first = fieldOrder.find((field) => found[field]);
    if (first) focusField(first);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
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
    try {
      await change.mutateAsync(parsed.data);
      formRef.current?.reset();
      setDone(true);
    } catch (error) {
      const server: Errors = { currentPassword: fieldErrorOf(error, 'currentPassword'), newPassword: fieldErrorOf(error, 'newPassword') };
      setErrors(server);
      if (server.currentPassword || server.newPassword) focusFirst(server);
      else setFormError(messageOf(error));
    }
  }

  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-xl space-y-6">
      <div>
        <h1 id="screen-title" className="text-2xl font-bold text-slate-900">
          Change password
        </h1>
        {user ? <p className="mt-1 text-slate-600">For {user.email}. Your other signed-in devices are signed out; this one stays.</p> : null}
      </div>
      <div aria-live="polite">{done ? <Alert tone="success">Your password was changed. Other devices were signed out.</Alert> : null}</div>
      <div aria-live="assertive">{formError ? <Alert>{formError}</Alert> : null}</div>
      <FieldErrorAnnouncement message={errors.currentPassword ?? errors.newPassword ?? errors.confirmPassword} />
      <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        {/* For password managers: the account this password belongs to. */}
        <input type="text" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <FormField id={currentId} label="Current password" error={errors.currentPassword} isRequired>
          <input
            id={currentId}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            disabled={change.isPending}
            className={controlClass}
            {...errorAttributes(currentId, errors.currentPassword)}
          />
        </FormField>
        <NewPasswordField name="newPassword" label="New password" error={errors.newPassword} disabled={change.isPending} />
        <FormField id={confirmId} label="Repeat the new password" error={errors.confirmPassword} isRequired>
          <input
            id={confirmId}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            disabled={change.isPending}
            className={controlClass}
            {...errorAttributes(confirmId, errors.confirmPassword)}
          />
        </FormField>
        <div className="flex justify-end">
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Saving...' : 'Change password'}
          </Button>
        </div>
      </form>
    </section>
  );
}
