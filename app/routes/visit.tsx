import { useParams } from 'react-router';
import { CustomerLinkShell } from '#client/components/customer-link-shell.tsx';
import { VisitLinkPage } from '#client/features/visit-link/index.ts';
import { company } from '#client/lib/company.ts';
import '#client/lib/zod-client.ts';

export function meta() {
  return [{ title: `Your visit | ${company.name}` }, { name: 'robots', content: 'noindex, nofollow' }, { name: 'referrer', content: 'no-referrer' }];
}

/**
 * /visit/:token: a customer's visit from its link (issue 21, decision 027-a): see it, move it to
 * another open window, or cancel it up to the cut-off. Like /quote/:token, outside the back office
 * and the prerendered site; the server marks /visit/ answers no-referrer, noindex and no-store.
 */
export default function VisitRoute() {
  const { token = '' } = useParams();
  return (
    <CustomerLinkShell>
      <VisitLinkPage key={token} token={token} />
    </CustomerLinkShell>
  );
}
