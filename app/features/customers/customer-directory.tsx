import { useId } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { customerCountLabel, customerMessages, type CustomerListItem } from '#shared/customer.ts';
import { useUrlSearch, withPage } from '#client/components/ui/use-url-search.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { apiErrorMessage, customerPageSize, useCustomerList } from './api.ts';
import { cityLine, customerProfilePath, customerTypeLabels, customerTypeTones, newWorkOrderPath, telHref } from './labels.ts';

/** Live search waits this long after the last keystroke. */

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The new-customer screen hands over the name it saved, for a confirmation here. */
export type DirectoryLocationState = { createdCustomerName?: string; deletedCustomerName?: string } | null;

/**
 * Customer Directory (spec 000 section 2): live search kept in the URL (?search=, ?page=), the
 * count, a table on wide screens and cards on phones, server-side paging, and the spec's empty
 * states. A failed load is shown with a retry (the spec only logs it).
 */
export function CustomerDirectory() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const { createdCustomerName, deletedCustomerName } = (location.state as DirectoryLocationState) ?? {};
  const page = readPage(searchParams.get('page'));
  const searchId = useId();

  const { draft, setDraft, search } = useUrlSearch(searchParams, setSearchParams);

  const list = useCustomerList({ search, page });
  const total = list.data?.total ?? 0;
  const pageSize = list.data?.pageSize ?? customerPageSize;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const customers = list.data?.customers ?? [];
  const isSearching = search !== '';

  function goToPage(next: number) {
    setSearchParams((current) => withPage(current, next));
    window.scrollTo({ top: 0 });
  }

  return (
    <section aria-labelledby="customers-title" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 id="customers-title" className="text-2xl font-bold text-slate-900">
            Customer Directory
          </h1>
          <p className="mt-1 text-sm text-slate-600">Search, view and manage your customers and their equipment.</p>
        </div>
        <Link to="/admin/customers/new" className={buttonClass('accent')}>
          <PlusIcon />
          Add Customer
        </Link>
      </div>

      <div aria-live="polite">
        {createdCustomerName ? <Alert tone="success">Customer {createdCustomerName} was added.</Alert> : null}
        {deletedCustomerName ? <Alert tone="success">Customer {deletedCustomerName} was deleted.</Alert> : null}
      </div>

      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
          Search customers
        </label>
        <div className="relative mt-1">
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">
            <SearchIcon />
          </span>
          <input
            id={searchId}
            type="search"
            name="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Name, phone, email or address"
            autoComplete="off"
            enterKeyHint="search"
            className="block w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600"
          />
        </div>
        <p role="status" className="mt-3 text-sm font-medium text-slate-700">
          {list.isSuccess ? (
            <>
              <span>{customerCountLabel(total)}</span>
              {isSearching ? <span className="font-normal text-slate-600"> matching “{search}”</span> : null}
              {list.isPlaceholderData ? <span className="font-normal text-slate-600"> · Updating…</span> : null}
            </>
          ) : null}
        </p>
      </div>

      {list.isPending ? (
        <p role="status" className="rounded-lg border border-slate-200 bg-white p-8 text-center text-slate-600">
          Loading customers...
        </p>
      ) : list.isError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
          <p className="font-semibold">Customers could not be loaded.</p>
          <p className="mt-1 text-sm">{apiErrorMessage(list.error) ?? customerMessages.unexpected}</p>
          <Button className="mt-4" onClick={() => void list.refetch()} disabled={list.isFetching}>
            {list.isFetching ? 'Retrying...' : 'Try again'}
          </Button>
        </div>
      ) : customers.length === 0 && total > 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
          <p className="text-lg font-semibold text-slate-900">There is no page {page}.</p>
          <Button variant="secondary" className="mt-4" onClick={() => goToPage(1)}>
            Go to the first page
          </Button>
        </div>
      ) : customers.length === 0 ? (
        <EmptyState isSearching={isSearching} />
      ) : (
        <div aria-busy={list.isPlaceholderData || undefined} className={list.isPlaceholderData ? 'opacity-70 transition-opacity' : ''}>
          <CustomerTable customers={customers} />
          <CustomerCards customers={customers} />
          {pageCount > 1 ? (
            <nav aria-label="Customer pages" className="mt-4 flex items-center justify-between gap-3">
              <Button variant="secondary" onClick={() => goToPage(page - 1)} disabled={page <= 1}>
                Previous
              </Button>
              <p className="text-sm text-slate-700">
                Page {Math.min(page, pageCount)} of {pageCount}
              </p>
              <Button variant="secondary" onClick={() => goToPage(page + 1)} disabled={page >= pageCount}>
                Next
              </Button>
            </nav>
          ) : null}
        </div>
      )}
    </section>
  );
}

function EmptyState({ isSearching }: { isSearching: boolean }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
      <p className="text-lg font-semibold text-slate-900">{isSearching ? customerMessages.noResultsTitle : customerMessages.emptyTitle}</p>
      <p className="mt-1 text-slate-600">{isSearching ? customerMessages.noResultsText : customerMessages.emptyText}</p>
      {isSearching ? null : (
        <Link to="/admin/customers/new" className={buttonClass('accent', 'md', 'mt-5')}>
          <PlusIcon />
          Add Customer
        </Link>
      )}
    </div>
  );
}

function ContactLinks({ customer }: { customer: CustomerListItem }) {
  return (
    <>
      <a href={telHref(customer.phone)} className="font-medium text-brand-700 underline-offset-2 hover:underline">
        {customer.phone}
      </a>
      <span className="block break-all">
        {customer.email ? (
          <a href={`mailto:${customer.email}`} className="text-brand-700 underline-offset-2 hover:underline">
            {customer.email}
          </a>
        ) : (
          <span className="text-slate-600">{customerMessages.notProvided}</span>
        )}
      </span>
    </>
  );
}

function RowActions({ customer }: { customer: CustomerListItem }) {
  return (
    <>
      <Link to={customerProfilePath(customer.id)} className={buttonClass('secondary', 'sm')}>
        View<span className="sr-only"> {customer.name}</span>
      </Link>
      <Link to={newWorkOrderPath(customer.id)} className={buttonClass('primary', 'sm')}>
        Work Order<span className="sr-only"> for {customer.name}</span>
      </Link>
    </>
  );
}

/** Wide screens: a table. */
function CustomerTable({ customers }: { customers: CustomerListItem[] }) {
  return (
    <div className="hidden overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm md:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Customers</caption>
        <thead className="bg-slate-100 text-xs font-semibold tracking-wide text-slate-700 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              Name
            </th>
            <th scope="col" className="px-4 py-3">
              Contact
            </th>
            <th scope="col" className="px-4 py-3">
              Address
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {customers.map((customer) => (
            <tr key={customer.id} className="align-top hover:bg-slate-50">
              <th scope="row" className="px-4 py-3 font-normal">
                <span className="block font-semibold text-slate-900">{customer.name}</span>
                <Badge tone={customerTypeTones[customer.type]} className="mt-1">
                  {customerTypeLabels[customer.type]}
                </Badge>
              </th>
              <td className="px-4 py-3 text-slate-700">
                <ContactLinks customer={customer} />
              </td>
              <td className="px-4 py-3 text-slate-700">
                <span className="block">{customer.address}</span>
                <span className="block text-slate-600">{cityLine(customer)}</span>
              </td>
              <td className="px-4 py-3">
                <div className="flex flex-wrap justify-end gap-2">
                  <RowActions customer={customer} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: stacked cards with the same content. */
function CustomerCards({ customers }: { customers: CustomerListItem[] }) {
  return (
    <ul aria-label="Customers" className="space-y-3 md:hidden">
      {customers.map((customer) => (
        <li key={customer.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <div className="flex items-start justify-between gap-3">
            <h2 className="font-semibold text-slate-900">{customer.name}</h2>
            <Badge tone={customerTypeTones[customer.type]}>{customerTypeLabels[customer.type]}</Badge>
          </div>
          <div className="mt-2 text-sm text-slate-700">
            <ContactLinks customer={customer} />
          </div>
          <p className="mt-2 text-sm text-slate-700">
            {customer.address}
            <br />
            <span className="text-slate-600">{cityLine(customer)}</span>
          </p>
          <div className="mt-3 grid grid-cols-2 gap-2">
            <RowActions customer={customer} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function SearchIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

export function PlusIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}
