import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Coupons', description: 'Coupons', path: '/coupons' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Coupons</h1>;
}
