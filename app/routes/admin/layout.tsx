import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { isTechnicianRole, techHomePath } from '#shared/tech.ts';
import { AdminHeader } from '#client/features/admin-shell/index.ts';
import { sessionQuery } from '#client/features/auth/index.ts';
import { useLiveUpdates } from '#client/features/live/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Back office | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

/** The sign-in guard and the staff shell around every /admin screen but the login page. */
export default function AdminLayout() {
  const session = useQuery(sessionQuery);
  const location = useLocation();

  if (session.isPending) {
    return (
      <p role="status" className="p-8 text-center text-slate-600">
        Loading...
      </p>
    );
  }
  if (session.isError) {
    if (session.error instanceof ApiError && session.error.status === 401) {
      return <Navigate to="/admin/login" replace state={{ from: location.pathname }} />;
    }
    // A technician (issue 19): the back office refuses them; their app is /tech.
    if (session.error instanceof ApiError && session.error.status === 403) return <Navigate to={techHomePath} replace />;
    return (
      <div role="alert" className="mx-auto max-w-md p-8 text-center">
        <p className="text-red-800">An unexpected error occurred. Please try again.</p>
        <button type="button" onClick={() => void session.refetch()} className="mt-4 rounded-md bg-brand-700 px-4 py-2 text-white">
          Try again
        </button>
      </div>
    );
  }
  if (isTechnicianRole(session.data.user.role)) return <Navigate to={techHomePath} replace />;
  return (
    <div className="min-h-screen bg-slate-50">
      <LiveUpdates />
      <AdminHeader user={session.data.user} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}

/** Mounted with the signed-in shell only: no stream is opened before the session is known. */
function LiveUpdates() {
  useLiveUpdates();
  return null;
}
