import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'About Us', description: 'About Us', path: '/AboutUs' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">About Us</h1>;
}
