import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Service Areas', description: 'Service Areas', path: '/service-areas' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Service Areas</h1>;
}
