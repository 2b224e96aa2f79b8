import { useEffect, useState } from 'react';
import { techSessionResponseSchema, type TechSessionResponse } from '#shared/tech.ts';
import { ChangePasswordForm } from '#client/features/account/index.ts';
import { apiFetch } from '#client/lib/api.ts';
import { useTechSnapshot, useTechStatus } from './runtime.ts';
import { SignOut } from './tech-shell.tsx';

/** The signed-in account (e-mail and name) while online; offline the screen shows the technician's name from the device. */
function useTechAccount(online: boolean): TechSessionResponse['user'] | undefined {
  const [user, setUser] = useState<TechSessionResponse['user']>();
  useEffect(() => {
    if (!online || user) return;
    const controller = new AbortController();
    apiFetch<unknown>('/api/tech/session', { signal: controller.signal })
      .then((answer) => setUser(techSessionResponseSchema.parse(answer).user))
      .catch(() => undefined);
    return () => controller.abort();
  }, [online, user]);
  return user;
}

/**
 * /tech/account: the technician's own account (issue 19, decision 022-a "Later"): change the
 * password with the office's rules (PUT /api/tech/account/password, the staff service's rule; the
 * other devices are signed out) and sign out.
 */
export function TechAccountScreen() {
  const status = useTechStatus();
  const snapshot = useTechSnapshot();
  const user = useTechAccount(status.online);
  const waiting = snapshot ? snapshot.queue.length + snapshot.photos.length : 0;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Account</h1>
        <p className="mt-1 text-slate-700">
          {user ? `${user.name}, signed in as ${user.email}.` : snapshot?.technician ? `${snapshot.technician.name}.` : null}
        </p>
      </div>
      <section aria-labelledby="password-title" className="space-y-2">
        <h2 id="password-title" className="text-lg font-semibold text-slate-900">
          Change password
        </h2>
        <p className="text-slate-700">Your other signed-in devices are signed out; this phone stays signed in.</p>
        <ChangePasswordForm
          user={user}
          isOffline={!status.online}
          submit={(input) => apiFetch<void>('/api/tech/account/password', { method: 'PUT', body: input })}
        />
      </section>
      <section aria-labelledby="sign-out-title" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="sign-out-title" className="text-lg font-semibold text-slate-900">
          Sign out
        </h2>
        <p className="text-slate-700">Signing out removes your visits from this phone. If changes are still waiting to sync, you are asked first.</p>
        <SignOut waiting={waiting} variant="page" />
      </section>
    </div>
  );
}
