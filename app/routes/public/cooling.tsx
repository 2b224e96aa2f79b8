import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Cooling', description: 'Cooling', path: '/AC' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Cooling</h1>;
}
