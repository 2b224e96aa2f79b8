import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Heating', description: 'Heating', path: '/Heating' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Heating</h1>;
}
