import { useId } from 'react';
import { Link } from 'react-router';
import { countLabel } from '#shared/api.ts';
import { isValidIsoDate } from '#shared/dates.ts';
import { invoiceListStatusFilters, invoicePageSize, invoiceStatusLabels, type InvoiceListStatusFilter } from '#shared/invoice.ts';
import { formatCents } from '#shared/money.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { LoadErrorCard, LoadingCard, EmptyCard } from '#client/components/ui/card.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { Pager, readPage } from '#client/components/ui/pager.tsx';
import { SearchInput, useSearchInput } from '#client/components/ui/search-input.tsx';
import { withPage } from '#client/components/ui/use-url-search.ts';
import { useInvoiceList } from './api.ts';
import { formatDay, invoiceDetailPath, invoiceStatusBadge } from './labels.ts';
import { ReceivablesFigures } from './receivables.tsx';

function readStatus(value: string | null): InvoiceListStatusFilter {
  return (invoiceListStatusFilters as readonly string[]).includes(value ?? '') ? (value as InvoiceListStatusFilter) : 'all';
}

const statusFilterLabel = (status: InvoiceListStatusFilter) => (status === 'all' ? 'All' : status === 'overdue' ? 'Overdue' : invoiceStatusLabels[status]);

const readDate = (value: string | null) => (value && isValidIsoDate(value) ? value : undefined);

/**
 * The Invoices screen (issue 20): the A/R figures, then invoices and credit notes newest first,
 * filtered by status (overdue included), searched by number or name, by issue date, paged on the server.
 */
export function InvoiceList() {
  const { draft, setDraft, search, searchParams, setSearchParams } = useSearchInput();
  const status = readStatus(searchParams.get('status'));
  const page = readPage(searchParams.get('page'));
  const issuedFrom = readDate(searchParams.get('from'));
  const issuedTo = readDate(searchParams.get('to'));
  const statusId = useId();
  const fromId = useId();
  const toId = useId();
  const list = useInvoiceList({ status, search, page, issuedFrom, issuedTo });
  const total = list.data?.total ?? 0;
  const invoices = list.data?.invoices ?? [];
  const isTotalCapped = list.data?.totalCapped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / invoicePageSize));
  const hasNextPage = page < pageCount || (isTotalCapped && invoices.length === invoicePageSize);
  const isFiltered = search !== '' || status !== 'all' || issuedFrom !== undefined || issuedTo !== undefined;

  function setParam(name: string, value: string | undefined) {
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      if (value === undefined || value === '' || value === 'all') params.delete(name);
      else params.set(name, value);
      params.delete('page');
      return params;
    });
  }

  return (
    <section aria-labelledby="invoices-title" className="space-y-5">
      <div>
        <h1 id="invoices-title" className="text-2xl font-bold text-slate-900">
          Invoices
        </h1>
        <p className="mt-1 text-sm text-slate-600">Invoices, credit notes and what is owed. Create an invoice from a completed work order.</p>
      </div>

      <ReceivablesFigures />

      <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[1fr_12rem_10rem_10rem]">
        <SearchInput label="Search invoices" name="search" value={draft} onChange={setDraft} placeholder="Number or customer name" />
        <div>
          <label htmlFor={statusId} className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select id={statusId} value={status} onChange={(event) => setParam('status', event.target.value)} className={controlClass}>
            {invoiceListStatusFilters.map((value) => (
              <option key={value} value={value}>
                {statusFilterLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={fromId} className="block text-sm font-medium text-slate-800">
            Issued from
          </label>
          <input id={fromId} type="date" value={issuedFrom ?? ''} onChange={(event) => setParam('from', event.target.value)} className={controlClass} />
        </div>
        <div>
          <label htmlFor={toId} className="block text-sm font-medium text-slate-800">
            Issued to
          </label>
          <input id={toId} type="date" value={issuedTo ?? ''} onChange={(event) => setParam('to', event.target.value)} className={controlClass} />
        </div>
        <p role="status" className="text-sm font-medium text-slate-700 sm:col-span-2 lg:col-span-4">
          {list.isSuccess ? `${countLabel(total, isTotalCapped, { one: 'invoice', many: 'invoices' })}${list.isPlaceholderData ? ' · Updating…' : ''}` : null}
        </p>
      </div>

      {list.isPending ? (
        <LoadingCard>Loading invoices…</LoadingCard>
      ) : list.isError ? (
        <LoadErrorCard title="Invoices could not be loaded." isRetrying={list.isFetching} onRetry={() => void list.refetch()} />
      ) : invoices.length === 0 ? (
        <EmptyCard title={isFiltered ? 'No invoices match these filters.' : 'No invoices yet.'} />
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full text-sm" aria-busy={list.isPlaceholderData || undefined}>
              <caption className="sr-only">Invoices, newest first</caption>
              <thead className="bg-slate-50 text-left text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2">Number</th>
                  <th scope="col" className="px-3 py-2">Customer</th>
                  <th scope="col" className="px-3 py-2">Status</th>
                  <th scope="col" className="hidden px-3 py-2 sm:table-cell">Issued</th>
                  <th scope="col" className="hidden px-3 py-2 sm:table-cell">Due</th>
                  <th scope="col" className="px-3 py-2 text-right">Total</th>
                  <th scope="col" className="px-3 py-2 text-right">Balance</th>
                </tr>
              </thead>
              <tbody>
                {invoices.map((invoice) => {
                  const badge = invoiceStatusBadge(invoice.status);
                  const name = invoice.invoiceNumber ?? 'Draft';
                  return (
                    <tr key={invoice.id} className="border-t border-slate-200">
                      <td className="px-3 py-2 font-medium">
                        <Link to={invoiceDetailPath(invoice.id)} className="text-brand-700 underline" aria-label={`${invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice'} ${name} for ${invoice.billingName}`}>
                          {name}
                        </Link>
                        {invoice.kind === 'credit_note' ? <span className="block text-xs text-slate-600">Credit note</span> : null}
                      </td>
                      <td className="px-3 py-2 break-words">{invoice.billingName}</td>
                      <td className="px-3 py-2">
                        <span className="flex flex-wrap gap-1">
                          <Badge tone={badge.tone}>{badge.label}</Badge>
                          {invoice.overdue ? <Badge tone="danger">Overdue</Badge> : null}
                        </span>
                      </td>
                      <td className="hidden px-3 py-2 sm:table-cell">{invoice.issuedOn ? formatDay(invoice.issuedOn) : '—'}</td>
                      <td className="hidden px-3 py-2 sm:table-cell">{invoice.dueOn && invoice.kind === 'invoice' ? formatDay(invoice.dueOn) : '—'}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatCents(invoice.totalCents)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{invoice.kind === 'invoice' ? formatCents(invoice.balanceCents) : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager page={page} pageCount={pageCount} hasNextPage={hasNextPage} isCapped={isTotalCapped} onPageChange={(next) => setSearchParams((current) => withPage(current, next))} />
        </>
      )}
    </section>
  );
}
