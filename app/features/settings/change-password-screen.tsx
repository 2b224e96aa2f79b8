import { useQuery } from '@tanstack/react-query';
import { ChangePasswordForm } from '#client/features/account/index.ts';
import { sessionQuery } from '#client/features/auth/index.ts';
import { useChangeOwnPassword } from './staff-api.ts';

/** /admin/account: any signed-in office staff member changes their own password (issue 10). */
export function ChangePasswordScreen() {
  const session = useQuery(sessionQuery);
  const change = useChangeOwnPassword();
  const user = session.data?.user;

  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-xl space-y-6">
      <div>
        <h1 id="screen-title" className="text-2xl font-bold text-slate-900">
          Change password
        </h1>
        {user ? <p className="mt-1 text-slate-600">For {user.email}. Your other signed-in devices are signed out; this one stays.</p> : null}
      </div>
      <ChangePasswordForm user={user} submit={(input) => change.mutateAsync(input)} />
    </section>
  );
}
