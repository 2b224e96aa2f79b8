import { useId } from 'react';
import { Link } from 'react-router';
import { countLabel } from '#shared/api.ts';
import { formatCents } from '#shared/money.ts';
import { quoteListStatusFilters, quotePageSize, quoteStatusLabels, type QuoteListItem, type QuoteListStatusFilter } from '#shared/quote.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { EmptyCard, LoadErrorCard, LoadingCard, cardClassName } from '#client/components/ui/card.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { Pager, readPage } from '#client/components/ui/pager.tsx';
import { SearchInput, useSearchInput } from '#client/components/ui/search-input.tsx';
import { withPage } from '#client/components/ui/use-url-search.ts';
import { formatDay } from '#client/features/invoices/index.ts';
import { useQuoteList } from './api.ts';
import { formatDayOf, quoteDetailPath, quoteStatusBadge } from './labels.ts';

function readStatus(value: string | null): QuoteListStatusFilter {
  return (quoteListStatusFilters as readonly string[]).includes(value ?? '') ? (value as QuoteListStatusFilter) : 'all';
}

const statusFilterLabel = (status: QuoteListStatusFilter) => (status === 'all' ? 'All' : status === 'expired' ? 'Expired' : quoteStatusLabels[status]);

/** "3 options · $4,200.00 to $9,800.00", or the approved option's total. */
export function quotePriceText(quote: Pick<QuoteListItem, 'optionCount' | 'lowestTotalCents' | 'highestTotalCents' | 'approvedTotalCents'>): string {
  if (quote.approvedTotalCents !== null) return `Approved ${formatCents(quote.approvedTotalCents)}`;
  const options = `${quote.optionCount} option${quote.optionCount === 1 ? '' : 's'}`;
  const range = quote.lowestTotalCents === quote.highestTotalCents ? formatCents(quote.lowestTotalCents) : `${formatCents(quote.lowestTotalCents)} to ${formatCents(quote.highestTotalCents)}`;
  return `${options} · ${range}`;
}

/**
 * The Quotes screen (issue 20): quotes newest first as cards (one column on a phone), filtered by
 * status (expired included), searched by number, title or customer, paged on the server. New quotes
 * start from a customer, a work order or a lead.
 */
export function QuoteList() {
  const { draft, setDraft, search, searchParams, setSearchParams } = useSearchInput();
  const status = readStatus(searchParams.get('status'));
  const page = readPage(searchParams.get('page'));
  const statusId = useId();
  const list = useQuoteList({ status, search, page });
  const total = list.data?.total ?? 0;
  const quotes = list.data?.quotes ?? [];
  const isTotalCapped = list.data?.totalCapped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / quotePageSize));
  const hasNextPage = page < pageCount || (isTotalCapped && quotes.length === quotePageSize);
  const isFiltered = search !== '' || status !== 'all';

  function setStatus(value: string) {
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      if (value === 'all') params.delete('status');
      else params.set('status', value);
      params.delete('page');
      return params;
    });
  }

  return (
    <section aria-labelledby="quotes-title" className="space-y-5">
      <div>
        <h1 id="quotes-title" className="text-2xl font-bold text-slate-900">
          Quotes
        </h1>
        <p className="mt-1 text-sm text-slate-600">Good, better, best: quotes with options for the customer to approve online. Start a new quote from a customer, a work order or a lead.</p>
      </div>

      <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[1fr_14rem]">
        <SearchInput label="Search quotes" name="search" value={draft} onChange={setDraft} placeholder="Number, title or customer" />
        <div>
          <label htmlFor={statusId} className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select id={statusId} value={status} onChange={(event) => setStatus(event.target.value)} className={controlClass}>
            {quoteListStatusFilters.map((value) => (
              <option key={value} value={value}>
                {statusFilterLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <p role="status" className="text-sm font-medium text-slate-700 sm:col-span-2">
          {list.isSuccess ? `${countLabel(total, isTotalCapped, { one: 'quote', many: 'quotes' })}${list.isPlaceholderData ? ' · Updating…' : ''}` : null}
        </p>
      </div>

      {list.isPending ? (
        <LoadingCard>Loading quotes…</LoadingCard>
      ) : list.isError ? (
        <LoadErrorCard title="Quotes could not be loaded." isRetrying={list.isFetching} onRetry={() => void list.refetch()} />
      ) : quotes.length === 0 ? (
        <EmptyCard title={isFiltered ? 'No quotes match these filters.' : 'No quotes yet.'} />
      ) : (
        <>
          <ul aria-label="Quotes, newest first" aria-busy={list.isPlaceholderData || undefined} className="grid gap-3 md:grid-cols-2">
            {quotes.map((quote) => (
              <QuoteCard key={quote.id} quote={quote} />
            ))}
          </ul>
          <Pager page={page} pageCount={pageCount} hasNextPage={hasNextPage} isCapped={isTotalCapped} onPageChange={(next) => setSearchParams((current) => withPage(current, next))} />
        </>
      )}
    </section>
  );
}

function QuoteCard({ quote }: { quote: QuoteListItem }) {
  const badge = quoteStatusBadge(quote.status);
  const number = quote.quoteNumber ?? 'Draft';
  return (
    <li className={cardClassName('flex flex-col gap-2 p-4')}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0">
          <Link to={quoteDetailPath(quote.id)} className="font-semibold break-words text-brand-700 underline" aria-label={`Quote ${number}: ${quote.title}, for ${quote.customerName}`}>
            {quote.title}
          </Link>
          <span className="block font-mono text-xs text-slate-600">{number}</span>
        </p>
        <span className="flex flex-wrap gap-1">
          <Badge tone={badge.tone}>{badge.label}</Badge>
          {quote.expired ? <Badge tone="danger">Expired</Badge> : null}
        </span>
      </div>
      <p className="text-sm break-words text-slate-800">{quote.customerName}</p>
      <p className="text-sm font-medium text-slate-900 tabular-nums">{quotePriceText(quote)}</p>
      <p className="text-xs text-slate-600">
        {quote.sentAt ? `Sent ${formatDayOf(quote.sentAt)}` : `Created ${formatDayOf(quote.createdAt)}`}
        {quote.validUntil ? ` · Valid until ${formatDay(quote.validUntil)}` : ''}
      </p>
    </li>
  );
}
