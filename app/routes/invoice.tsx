import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { InvoicePage } from '#client/features/invoice-link/index.ts';
import { company } from '#client/lib/company.ts';
import '#client/lib/zod-client.ts';

export function meta() {
  return [{ title: `Your invoice | ${company.name}` }, { name: 'robots', content: 'noindex, nofollow' }, { name: 'referrer', content: 'no-referrer' }];
}

/**
 * /invoice/:token: a customer's invoice from its link (issue 20, decision 024-h). Outside the back
 * office and the prerendered site (the token is dynamic): the SPA shell renders it, phone first.
 */
export default function InvoiceRoute() {
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { refetchOnWindowFocus: false } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <main className="mx-auto max-w-3xl px-3 py-6 sm:px-6">
        <p className="mb-4 text-lg font-bold text-brand-800">{company.name}</p>
        <InvoicePage key={token} token={token} checkoutSessionId={search.get('checkout') ?? undefined} />
      </main>
    </QueryClientProvider>
  );
}
