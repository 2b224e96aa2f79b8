import { useId } from 'react';
import { Link } from 'react-router';
import { Badge } from '#client/components/ui/badge.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { useQuoteDetail, useQuoteList } from './api.ts';
import { quoteDetailPath, quoteStatusBadge } from './labels.ts';
import { NewQuoteButton, type NewQuoteSource } from './new-quote-button.tsx';
import { quotePriceText } from './quote-list.tsx';
import { OptionLines } from './quote-option-view.tsx';

const panelSize = 10;

/**
 * The quotes of a customer or of a work order (quoted for it, or made by its approval), newest
 * first, with "New quote". On a work order, an approved quote shows the chosen option's lines and
 * total: the work the customer agreed to.
 */
export function QuotesPanel({
  source,
  filter,
  defaultTitle,
  showApprovedLines = false,
}: {
  source: NewQuoteSource;
  filter: { customerId: string } | { workOrderId: string };
  defaultTitle: string;
  showApprovedLines?: boolean;
}) {
  const headingId = useId();
  const list = useQuoteList({ status: 'all', search: '', page: 1, pageSize: panelSize, ...filter });
  const quotes = list.data?.quotes ?? [];
  return (
    <Card>
      <section aria-labelledby={headingId}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            Quotes
          </h2>
          <NewQuoteButton source={source} defaultTitle={defaultTitle} variant="accent" />
        </div>
        {list.isPending ? (
          <p role="status" className="mt-3 text-sm text-slate-600">
            Loading quotes…
          </p>
        ) : list.isError ? (
          <p role="alert" className="mt-3 text-sm text-red-800">
            The quotes could not be loaded.
          </p>
        ) : quotes.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">No quotes yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200">
            {quotes.map((quote) => {
              const badge = quoteStatusBadge(quote.status);
              const number = quote.quoteNumber ?? 'Draft';
              return (
                <li key={quote.id} className="space-y-1 py-3">
                  <p className="flex flex-wrap items-center gap-2">
                    <Link to={quoteDetailPath(quote.id)} className="font-semibold break-words text-brand-700 underline">
                      {quote.title}
                      <span className="sr-only"> (quote {number})</span>
                    </Link>
                    <Badge tone={badge.tone}>{badge.label}</Badge>
                    {quote.expired ? <Badge tone="danger">Expired</Badge> : null}
                  </p>
                  <p className="text-sm text-slate-700">
                    <span className="font-mono">{number}</span> · {quotePriceText(quote)}
                  </p>
                  {showApprovedLines && quote.status === 'approved' ? <ApprovedOption quoteId={quote.id} /> : null}
                </li>
              );
            })}
          </ul>
        )}
        {list.data && list.data.total > quotes.length ? <p className="mt-2 text-xs text-slate-600">The {panelSize} newest are shown; the Quotes screen lists them all.</p> : null}
      </section>
    </Card>
  );
}

/** The approved option's lines and total, read from the quote's detail. */
function ApprovedOption({ quoteId }: { quoteId: string }) {
  const detail = useQuoteDetail(quoteId);
  if (!detail.data) return null;
  const option = detail.data.options.find((candidate) => candidate.id === detail.data.quote.approvedOptionId);
  if (!option) return null;
  return (
    <div className="mt-2 rounded-md border border-green-300 bg-green-50 p-3">
      <p className="text-sm font-semibold text-slate-900">
        Approved option: {option.name}
        {detail.data.quote.approvedByName ? <span className="font-normal text-slate-700"> (signed by {detail.data.quote.approvedByName})</span> : null}
      </p>
      <OptionLines option={option} />
    </div>
  );
}
