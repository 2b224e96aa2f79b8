import { PriceBookScreen } from '#client/features/price-book/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Price Book | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function PriceBookRoute() {
  return <PriceBookScreen />;
}
