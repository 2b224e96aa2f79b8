import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { loginMessages, loginSchema } from '#shared/auth.ts';
import { isTechnicianRole, techHomePath } from '#shared/tech.ts';
import { Field } from '#client/components/ui/field.tsx';
import { sessionQuery, useLogin } from '#client/features/auth/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Staff login | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

type FieldErrors = Partial<Record<'email' | 'password', string>>;

/**
 * Spec 000 section 8: any refusal of the sign-in is the generic message; anything else the other.
 * Issue 15: a throttled sign-in (429) says how long to wait, in the server's words.
 */
function loginErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return loginMessages.unexpected;
  if (error.status === 429) return error.code === 'RATE_LIMITED' ? error.message : loginMessages.unexpected;
  return error.status >= 400 && error.status < 500 ? loginMessages.invalidCredentials : loginMessages.unexpected;
}

export default function Login() {
  const navigate = useNavigate();
  const session = useQuery({ ...sessionQuery, retry: false });
  const login = useLogin();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();

  if (session.isSuccess) return <Navigate to={isTechnicianRole(session.data.user.role) ? techHomePath : '/admin'} replace />;
  // A technician already signed in (the back office answers 403): their app.
  if (session.error instanceof ApiError && session.error.status === 403) return <Navigate to={techHomePath} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    const form = new FormData(event.currentTarget);
    const parsed = loginSchema.safeParse({ email: form.get('email'), password: form.get('password') });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        errors[field] ??= issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    try {
      const signedIn = await login.mutateAsync(parsed.data);
      // A technician lands on their app (issue 19).
      await navigate(isTechnicianRole(signedIn.user.role) ? techHomePath : '/admin', { replace: true });
    } catch (error) {
      setFormError(loginErrorMessage(error));
    }
  }

  const isSubmitting = login.isPending;
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4">
      <div className="w-full max-w-sm rounded-lg bg-white p-8 shadow">
        <h1 className="text-center text-2xl font-bold text-brand-900">Admin Login</h1>
        <p className="mt-1 text-center text-sm text-slate-600">{company.name}</p>
        <div aria-live="assertive" className="mt-4">
          {formError ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {formError}
            </p>
          ) : null}
        </div>
        <form className="mt-2 space-y-4" noValidate onSubmit={onSubmit}>
          <Field label="Email" name="email" type="email" autoComplete="username" required disabled={isSubmitting} error={fieldErrors.email} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            disabled={isSubmitting}
            error={fieldErrors.password}
          />
          <button
            type="submit"
            disabled={isSubmitting}
            className="w-full rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {isSubmitting ? 'Logging in...' : 'Login'}
          </button>
        </form>
      </div>
    </main>
  );
}
