import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Privacy Policy', description: 'Privacy Policy', path: '/privacy' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Privacy Policy</h1>;
}
