import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { telHref } from '#shared/company-profile.ts';
import { company } from '#client/lib/company.ts';

/**
 * The frame of a customer's link page (a quote, a visit): its own query client, the company's name
 * and phone on top, the page below, phone first. Outside the back office and the prerendered site.
 */
export function CustomerLinkShell({ children }: { children: ReactNode }) {
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
      <main className="mx-auto max-w-6xl px-3 py-6 sm:px-6">{children}</main>
    </QueryClientProvider>
  );
}
