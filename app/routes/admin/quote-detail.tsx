import { useParams } from 'react-router';
import { QuoteDetail } from '#client/features/quotes/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Quote | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function QuoteDetailRoute() {
  const { id = '' } = useParams();
  return <QuoteDetail key={id} id={id} />;
}
