import { useParams } from 'react-router';
import { WorkOrderDetail } from '#client/features/work-orders/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Work Order | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function WorkOrderDetailRoute() {
  const { id = '' } = useParams();
  return <WorkOrderDetail key={id} id={id} />;
}
