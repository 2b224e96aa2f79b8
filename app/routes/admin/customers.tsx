import { CustomerDirectory } from '#client/features/customers/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Customer Directory | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function CustomersRoute() {
  return <CustomerDirectory />;
}
