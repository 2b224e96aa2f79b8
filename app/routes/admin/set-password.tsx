import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { passwordRuleProblem, setPasswordSchema } from '#shared/auth.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FieldErrorAnnouncement, NewPasswordField, useFocusField } from '#client/features/account/index.ts';
import { accountKeys, fieldErrorOf, messageOf } from '#client/features/settings/index.ts';
import { apiFetch } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Choose your password | ${company.name}` }, { name: 'robots', content: 'noindex' }, { name: 'referrer', content: 'no-referrer' }];
}

/** The token is in the address's fragment (#token=...): browsers never send a fragment to a server. */
function tokenFrom(location: { hash: string; search: string }): string {
  return new URLSearchParams(location.hash.replace(/^#/, '')).get('token') ?? new URLSearchParams(location.search).get('token') ?? '';
}

/**
 * /admin/set-password: a one-time link from an invitation or a reset lands here (no session). The
 * link is checked first, so an expired or used one says so before anyone types a password.
 */
export default function SetPasswordRoute() {
  const token = tokenFrom(useLocation());
  const link = useQuery({
    queryKey: [...accountKeys.all, 'set-password-link', token],
    queryFn: () => apiFetch<{ email: string; name: string }>('/api/auth/set-password/check', { method: 'POST', body: { token } }),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
  });
  const setPassword = useMutation({
    mutationKey: [...accountKeys.all, 'set-password'],
    mutationFn: (input: { token: string; password: string }) => apiFetch<void>('/api/auth/set-password', { method: 'POST', body: input }),
  });
  const formRef = useRef<HTMLFormElement>(null);
  const focusField = useFocusField(formRef);
  const [passwordError, setPasswordError] = useState<string>();
  const [confirmError, setConfirmError] = useState<string>();
  const [formError, setFormError] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    const form = event.currentTarget;
    const data = new FormData(form);
    const password = String(data.get('password') ?? '');
    const problem =
      setPasswordSchema.shape.password.safeParse(password).error?.issues[0]?.message ??
      passwordRuleProblem(password, { email: link.data?.email, name: link.data?.name, companyName: company.name });
    const mismatch = !problem && password !== String(data.get('confirmPassword') ?? '') ? 'The two passwords differ.' : undefined;
    setPasswordError(problem);
    setConfirmError(mismatch);
    if (problem || mismatch) {
      focusField(problem ? 'password' : 'confirmPassword');
      return;
    }
    try {
      await setPassword.mutateAsync({ token, password });
    } catch (error) {
      const fieldProblem = fieldErrorOf(error, 'password');
      setPasswordError(fieldProblem);
      if (fieldProblem) focusField('password');
      else setFormError(messageOf(error));
    }
  }

  let body;
  if (token && link.isPending) {
    body = (
      <p role="status" className="mt-4 text-center text-slate-600">
        Checking your link...
      </p>
    );
  } else if (!token || link.isError) {
    body = (
      <div className="mt-4 space-y-4">
        <Alert>{token ? messageOf(link.error) : 'This page needs the link from your e-mail. Open the link again, or ask an administrator for a new one.'}</Alert>
        <Link to="/admin/login" className="block text-center font-semibold text-brand-700 underline">
          Go to the sign-in page
        </Link>
      </div>
    );
  } else if (setPassword.isSuccess) {
    body = (
      <div className="mt-4 space-y-4">
        <Alert tone="success">Your password is set. Sign in with your e-mail address and the new password.</Alert>
        <Link to="/admin/login" className="block rounded-md bg-brand-700 px-4 py-2 text-center font-semibold text-white hover:bg-brand-800">
          Sign in
        </Link>
      </div>
    );
  } else {
    body = (
      <>
        <p className="mt-3 text-center text-slate-700">
          Hello {link.data?.name}. Choose the password for <span className="break-all font-medium">{link.data?.email}</span>.
        </p>
        <div aria-live="assertive" className="mt-3">
          {formError ? <Alert>{formError}</Alert> : null}
        </div>
        <FieldErrorAnnouncement message={passwordError ?? confirmError} />
        <form ref={formRef} noValidate onSubmit={onSubmit} className="mt-2 space-y-4">
          <input type="text" name="username" autoComplete="username" value={link.data?.email ?? ''} readOnly hidden />
          <NewPasswordField name="password" label="New password" error={passwordError} disabled={setPassword.isPending} autoFocus />
          <div>
            <label htmlFor="confirm-password" className="block text-sm font-medium text-slate-800">
              Repeat the password
            </label>
            <input
              id="confirm-password"
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              required
              disabled={setPassword.isPending}
              aria-invalid={confirmError ? true : undefined}
              aria-describedby={confirmError ? 'confirm-password-error' : undefined}
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600 aria-[invalid=true]:border-red-600"
            />
            {confirmError ? (
              <p id="confirm-password-error" className="mt-1 text-sm text-red-700">
                {confirmError}
              </p>
            ) : null}
          </div>
          <Button type="submit" className="w-full" disabled={setPassword.isPending}>
            {setPassword.isPending ? 'Saving...' : 'Set password'}
          </Button>
        </form>
      </>
    );
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4">
      <div className="w-full max-w-md rounded-lg bg-white p-6 shadow sm:p-8">
        <h1 className="text-center text-2xl font-bold text-brand-900">Choose your password</h1>
        <p className="mt-1 text-center text-sm text-slate-600">{company.name} back office</p>
        {body}
      </div>
    </main>
  );
}
