import { useParams } from 'react-router';
import { InvoiceDetail } from '#client/features/invoices/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Invoice | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function InvoiceDetailRoute() {
  const { id = '' } = useParams();
  return <InvoiceDetail key={id} id={id} />;
}
