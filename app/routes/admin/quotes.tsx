import { QuoteList } from '#client/features/quotes/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Quotes | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function QuotesRoute() {
  return <QuoteList />;
}
