import { useParams } from 'react-router';
import { CustomerLinkShell } from '#client/components/customer-link-shell.tsx';
import { QuotePage } from '#client/features/quote-link/index.ts';
import { company } from '#client/lib/company.ts';
import '#client/lib/zod-client.ts';

export function meta() {
  return [{ title: `Your quote | ${company.name}` }, { name: 'robots', content: 'noindex, nofollow' }, { name: 'referrer', content: 'no-referrer' }];
}

/**
 * /quote/:token: a customer's quote from its link (issue 20, decision 025-d). Like /invoice/:token,
 * outside the back office and the prerendered site (the token is dynamic): the SPA shell renders
 * it, phone first; the server marks /quote/ answers no-referrer, noindex and no-store.
 */
export default function QuoteRoute() {
  const { token = '' } = useParams();
  return (
    <CustomerLinkShell>
      <QuotePage key={token} token={token} />
    </CustomerLinkShell>
  );
}
