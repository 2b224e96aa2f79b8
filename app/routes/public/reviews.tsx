import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Reviews', description: 'Reviews', path: '/reviews' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Reviews</h1>;
}
