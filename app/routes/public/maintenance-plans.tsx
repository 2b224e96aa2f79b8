import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Maintenance Plans', description: 'Maintenance Plans', path: '/MaintenancePlan' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Maintenance Plans</h1>;
}
