import { Link, useLocation } from 'react-router';
import { customerCountLabel, customerMessages, type CustomerListItem } from '#shared/customer.ts';
import { Card, EmptyCard, LoadErrorCard, LoadingCard } from '#client/components/ui/card.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { Pager, readPage } from '#client/components/ui/pager.tsx';
import { SearchInput, useSearchInput } from '#client/components/ui/search-input.tsx';
import { withPage } from '#client/components/ui/use-url-search.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { apiErrorMessage, customerPageSize, useCustomerList } from './api.ts';
import { cityLine, customerProfilePath, customerTypeLabels, customerTypeTones, newWorkOrderPath, telHref } from './labels.ts';

/** The new-customer screen hands over the name it saved, for a confirmation here. */
export type DirectoryLocationState = { createdCustomerName?: string; deletedCustomerName?: string } | null;

/**
 * Customer Directory (spec 000 section 2): live search kept in the URL (?search=, ?page=), the
 * count, a table on wide screens and cards on phones, server-side paging, and the spec's empty
 * states. A failed load is shown with a retry (the spec only logs it).
 */
export function CustomerDirectory() {
  const { draft, setDraft, search, searchParams, setSearchParams } = useSearchInput();
  const location = useLocation();
  const { createdCustomerName, deletedCustomerName } = (location.state as DirectoryLocationState) ?? {};
  const page = readPage(searchParams.get('page'));

  const list = useCustomerList({ search, page });
  const total = list.data?.total ?? 0;
  const pageSize = list.data?.pageSize ?? customerPageSize;
  const customers = list.data?.customers ?? [];
  // Matches are counted only up to a cap: "1,000+ customers", and Next while pages are full.
  const isTotalCapped = list.data?.totalCapped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const hasNextPage = page < pageCount || (isTotalCapped && customers.length === pageSize);
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

      <Card>
        <SearchInput label="Search customers" name="search" value={draft} onChange={setDraft} placeholder="Name, phone, email or address" withIcon>
          <p role="status" className="mt-3 text-sm font-medium text-slate-700">
            {list.isSuccess ? (
              <>
                <span>{customerCountLabel(total, isTotalCapped)}</span>
                {isSearching ? <span className="font-normal text-slate-600"> matching “{search}”</span> : null}
                {list.isPlaceholderData ? <span className="font-normal text-slate-600"> · Updating…</span> : null}
              </>
            ) : null}
          </p>
        </SearchInput>
      </Card>

      {list.isPending ? (
        <LoadingCard>Loading customers...</LoadingCard>
      ) : list.isError ? (
        <LoadErrorCard
          title="Customers could not be loaded."
          detail={apiErrorMessage(list.error) ?? customerMessages.unexpected}
          isRetrying={list.isFetching}
          onRetry={() => void list.refetch()}
        />
      ) : customers.length === 0 && total > 0 ? (
        <EmptyCard title={`There is no page ${page}.`}>
          <Button variant="secondary" className="mt-4" onClick={() => goToPage(1)}>
            Go to the first page
          </Button>
        </EmptyCard>
      ) : customers.length === 0 ? (
        <EmptyState isSearching={isSearching} />
      ) : (
        <div aria-busy={list.isPlaceholderData || undefined} className={list.isPlaceholderData ? 'opacity-70 transition-opacity' : ''}>
          <CustomerTable customers={customers} />
          <CustomerCards customers={customers} />
          <Pager
            label="Customer pages"
            className="mt-4"
            page={page}
            pageCount={pageCount}
            hasNextPage={hasNextPage}
            isCapped={isTotalCapped}
            onPageChange={goToPage}
          />
        </div>
      )}
    </section>
  );
}

function EmptyState({ isSearching }: { isSearching: boolean }) {
  return (
    <EmptyCard title={isSearching ? customerMessages.noResultsTitle : customerMessages.emptyTitle}>
      <p className="mt-1 text-slate-600">{isSearching ? customerMessages.noResultsText : customerMessages.emptyText}</p>
      {isSearching ? null : (
        <Link to="/admin/customers/new" className={buttonClass('accent', 'md', 'mt-5')}>
          <PlusIcon />
          Add Customer
        </Link>
      )}
    </EmptyCard>
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
const customerColumns: DataTableColumn<CustomerListItem>[] = [
  {
    key: 'name',
    header: 'Name',
    isRowHeader: true,
    cell: (customer) => (
      <>
        <span className="block font-semibold text-slate-900">{customer.name}</span>
        <Badge tone={customerTypeTones[customer.type]} className="mt-1">
          {customerTypeLabels[customer.type]}
        </Badge>
      </>
    ),
  },
  { key: 'contact', header: 'Contact', cellClassName: 'px-4 py-3 text-slate-700', cell: (customer) => <ContactLinks customer={customer} /> },
  {
    key: 'address',
    header: 'Address',
    cellClassName: 'px-4 py-3 text-slate-700',
    cell: (customer) => (
      <>
        <span className="block">{customer.address}</span>
        <span className="block text-slate-600">{cityLine(customer)}</span>
      </>
    ),
  },
  {
    key: 'actions',
    header: 'Actions',
    headerClassName: 'px-4 py-3 text-right',
    cell: (customer) => (
      <div className="flex flex-wrap justify-end gap-2">
        <RowActions customer={customer} />
      </div>
    ),
  },
];

function CustomerTable({ customers }: { customers: CustomerListItem[] }) {
  return (
    <DataTable
      caption="Customers"
      columns={customerColumns}
      rows={customers}
      rowKey={(customer) => customer.id}
      className="hidden overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm md:block"
    />
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

export function PlusIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}
