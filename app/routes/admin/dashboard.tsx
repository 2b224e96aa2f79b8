import { useQuery } from '@tanstack/react-query';
import { sessionQuery } from '#client/features/auth/index.ts';
import { Dashboard } from '#client/features/dashboard/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Dashboard | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function DashboardRoute() {
  const session = useQuery(sessionQuery);
  return <Dashboard userName={session.data?.user.name} />;
}
