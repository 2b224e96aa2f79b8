import { useSearchParams } from 'react-router';
import { NewWorkOrder } from '#client/features/work-orders/work-order-new.tsx';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `New Work Order | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

/** Spec 000 section 2: New work order; ?customer=<id> preselects the customer. */
export default function NewWorkOrderRoute() {
  const [searchParams] = useSearchParams();
  const customerId = searchParams.get('customer') ?? undefined;
  return <NewWorkOrder key={customerId ?? ''} preselectedCustomerId={customerId} />;
}
