import { useSearchParams } from 'react-router';
import { NewWorkOrder } from '#client/features/work-orders/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `New Work Order | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

/**
 * Spec 000 section 2: New work order; ?customer=<id> preselects the customer. The service map adds
 * the property's ?address=&city=&state=&zip= (spec 001: 'Create Work Order' carries the address).
 */
export default function NewWorkOrderRoute() {
  const [searchParams] = useSearchParams();
  const customerId = searchParams.get('customer') ?? undefined;
  const address = searchParams.get('address')?.trim();
  const property = address
    ? { address, city: searchParams.get('city') ?? '', state: searchParams.get('state') ?? '', zip: searchParams.get('zip') ?? '' }
    : undefined;
  return <NewWorkOrder key={`${customerId ?? ''}|${address ?? ''}`} preselectedCustomerId={customerId} property={property} />;
}
