import { WorkOrderList } from '#client/features/work-orders/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Work Orders | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function WorkOrdersRoute() {
  return <WorkOrderList />;
}
