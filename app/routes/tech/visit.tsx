import { useParams } from 'react-router';
import { VisitScreen } from '#client/features/tech/visit-screen.tsx';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Visit | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function VisitRoute() {
  const { id = '' } = useParams();
  return <VisitScreen key={id} visitId={id} />;
}
