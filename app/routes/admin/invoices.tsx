import { InvoiceList } from '#client/features/invoices/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Invoices | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function InvoicesRoute() {
  return <InvoiceList />;
}
