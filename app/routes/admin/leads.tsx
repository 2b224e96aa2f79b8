import { LeadManagement } from '#client/features/leads/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Lead Management | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function LeadsRoute() {
  return <LeadManagement />;
}
