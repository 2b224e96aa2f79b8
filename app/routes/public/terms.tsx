import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Terms of Service', description: 'Terms of Service', path: '/terms' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Terms of Service</h1>;
}
