import { useQuery } from '@tanstack/react-query';
import { sessionQuery } from '#client/features/auth/session.ts';

export default function Dashboard() {
  const session = useQuery(sessionQuery);
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className="text-2xl font-bold text-slate-900">
        Dashboard
      </h1>
      <p className="mt-2 text-slate-600">Welcome back{session.data ? `, ${session.data.user.name}` : ''}.</p>
    </section>
  );
}
