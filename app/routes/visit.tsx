import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { telHref } from '#shared/company-profile.ts';
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
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { refetchOnWindowFocus: false } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-3 sm:px-6">
          <p className="text-lg font-bold text-brand-800">{company.name}</p>
          {company.phone ? (
            <a className="text-sm font-semibold text-brand-800 underline" href={telHref(company.phone)}>
              <span className="sr-only">Call us: </span>
              {company.phone}
            </a>
          ) : null}
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-3 py-6 sm:px-6">
        <VisitLinkPage key={token} token={token} />
      </main>
    </QueryClientProvider>
  );
}
