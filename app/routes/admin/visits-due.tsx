import { VisitsDueScreen } from '#client/features/agreements/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Visits Due | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function VisitsDueRoute() {
  return <VisitsDueScreen />;
}
