import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Free Estimate', description: 'Free Estimate', path: '/estimate' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Free Estimate</h1>;
}
