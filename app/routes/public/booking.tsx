import { pageMeta } from '#client/lib/seo.ts';

export const meta = () => pageMeta({ title: 'Book Service', description: 'Book Service', path: '/BookingPage' });

export default function Page() {
  return <h1 className="p-8 text-3xl font-bold">Book Service</h1>;
}
