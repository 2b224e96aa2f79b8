import { useParams } from 'react-router';
import { CustomerProfile } from '#client/features/customers/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Customer Profile | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function CustomerProfileRoute() {
  const { id = '' } = useParams();
  // A new id is a new screen: edit mode and messages do not carry over to another customer.
  return <CustomerProfile key={id} customerId={id} />;
}
