import { useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { techHomePath, techMessages } from '#shared/tech.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { apiFetch } from '#client/lib/api.ts';
import { forgetTechnician, techDatabase } from './db.ts';
import { startTechRuntime, useTechSnapshot, useTechStatus } from './runtime.ts';

/**
 * Registers the /tech service worker (production builds only: the dev server has no build/client)
 * once the page has its first answer about the day (`checked`): installing it fetches everything it
 * keeps for offline use, which on a first visit would otherwise share the phone's link with My
 * day's own modules and visits (decision 022-d).
 */
function useServiceWorker(ready: boolean) {
  useEffect(() => {
    if (!ready || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register('/tech/sw.js', { scope: '/tech' }).catch(() => {
      // The app works without it while online; nothing to tell the technician.
    });
  }, [ready]);
}

/** The technician app's frame: its header (offline, waiting to sync, sign out) and the sign-in guard. */
export function TechShell({ children }: { children: ReactNode }) {
  const status = useTechStatus();
  const snapshot = useTechSnapshot();
  const location = useLocation();
  useServiceWorker(status.checked);
  useEffect(() => startTechRuntime(), []);

  if (status.access === 'unauthenticated') {
    return <Navigate to="/admin/login" replace state={{ from: location.pathname === '/tech' ? techHomePath : location.pathname }} />;
  }
  if (status.access === 'forbidden') {
    return (
      <main id="main" className="mx-auto max-w-md p-6">
        <Alert>{status.accessMessage ?? techMessages.notTechnician}</Alert>
        <p className="mt-4">
          <Link to="/admin" className={buttonClass('primary', 'md', 'min-h-12 w-full')}>
            Go to the office
          </Link>
        </p>
      </main>
    );
  }
  const waiting = snapshot ? snapshot.queue.length + snapshot.photos.length : 0;
  return (
    <div className="min-h-screen bg-slate-100 text-slate-900">
      <header className="sticky top-0 z-10 bg-brand-900 text-white shadow">
        <div className="mx-auto flex max-w-2xl flex-wrap items-center gap-2 px-3 py-2">
          <Link to={techHomePath} className="flex min-h-12 items-center rounded-md px-1 text-lg font-bold focus:outline-none focus-visible:ring-2 focus-visible:ring-white">
            My day
          </Link>
          {snapshot?.technician ? <span className="truncate text-sm text-slate-100">{snapshot.technician.name}</span> : null}
          <Link
            to={techAccountPath}
            aria-current={location.pathname === techAccountPath ? 'page' : undefined}
            className="flex min-h-12 items-center rounded-md px-2 text-sm font-semibold underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-white aria-[current=page]:underline"
          >
            Account
          </Link>
          <div className="ml-auto flex items-center gap-2">
            <div role="status" aria-live="polite" className="flex items-center gap-2">
              {status.online ? null : <span className="rounded-full bg-amber-300 px-3 py-1 text-sm font-bold text-slate-950">Offline</span>}
              {waiting > 0 ? (
                <span className="rounded-full bg-white px-3 py-1 text-sm font-semibold text-brand-900" data-testid="waiting-to-sync">
                  {techMessages.waitingToSync(waiting)}
                </span>
              ) : (
                <span className="sr-only">Everything is synced</span>
              )}
            </div>
            <SignOut waiting={waiting} />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-2xl px-3 pt-4 pb-16">
        {snapshot && snapshot.othersWaiting.length > 0 ? (
          <ul className="mb-3 space-y-1 rounded-lg border border-slate-300 bg-white p-3 text-slate-800" data-testid="others-waiting">
            {snapshot.othersWaiting.map((other) => (
              <li key={other.technicianId}>{techMessages.waitingForOther(other.name, other.count)}</li>
            ))}
          </ul>
        ) : null}
        {children}
      </main>
    </div>
  );
}

/** The technician's own account: password and sign out (decision 022-a, "Later"). */
export const techAccountPath = '/tech/account';

/**
 * Sign out; with changes still waiting it asks first, since they live only on this phone. In the
 * header (white on the brand colour) and on the Account screen (a full-width button).
 */
export function SignOut({ waiting, variant = 'header' }: { waiting: number; variant?: 'header' | 'page' }) {
  const navigate = useNavigate();
  const [isAsking, setIsAsking] = useState(false);
  const [isLeaving, setIsLeaving] = useState(false);

  async function signOut() {
    setIsLeaving(true);
    await apiFetch<void>('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
    await forgetTechnician(techDatabase());
    void navigate('/admin/login', { replace: true });
  }

  if (isAsking) {
    return (
      <div role="alertdialog" aria-labelledby="sign-out-question" className="fixed inset-x-0 top-16 z-20 mx-auto max-w-md rounded-lg bg-white p-4 text-slate-900 shadow-lg">
        <p id="sign-out-question" className="font-semibold">
          {techMessages.waitingToSync(waiting)}. Signing out now deletes them from this phone.
        </p>
        <div className="mt-3 flex gap-2">
          <Button className="min-h-12 flex-1" onClick={() => setIsAsking(false)} autoFocus>
            Stay signed in
          </Button>
          <Button variant="destructive" className="min-h-12 flex-1" disabled={isLeaving} onClick={() => void signOut()}>
            Sign out anyway
          </Button>
        </div>
      </div>
    );
  }
  return (
    <button
      type="button"
      onClick={() => (waiting > 0 ? setIsAsking(true) : void signOut())}
      disabled={isLeaving}
      className={
        variant === 'page'
          ? buttonClass('secondary', 'md', 'min-h-12 w-full')
          : 'min-h-12 rounded-md border border-white/60 px-3 text-sm font-semibold hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-white'
      }
    >
      Sign out
    </button>
  );
}

