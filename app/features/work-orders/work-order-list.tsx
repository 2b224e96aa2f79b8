import { useId, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { listTransitions, workOrderMessages, workOrderStatusFilters, type WorkOrderListItem } from '#shared/work-order.ts';
import { useUrlSearch, withPage } from '#client/components/ui/use-url-search.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useChangeWorkOrderStatus, useWorkOrderList, workOrderPageSize, type WorkOrderStatusFilter } from './api.ts';
import {
  formatCalendarDate,
  priorityClass,
  priorityLabel,
  priorityTone,
  serviceTypeLabel,
  truncate,
  workOrderDetailPath,
  workOrderNumberLabel,
  workOrderStatusLabel,
  workOrderStatusTone,
} from './labels.ts';


/** The new work order screen hands over its success message. */
export type WorkOrderListLocationState = { message?: string } | null;

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function readStatus(value: string | null): WorkOrderStatusFilter {
  return (workOrderStatusFilters as readonly string[]).includes(value ?? '') ? (value as WorkOrderStatusFilter) : 'all';
}

const statusFilterLabel = (status: WorkOrderStatusFilter) => (status === 'all' ? 'All' : workOrderStatusLabel(status));

/**
 * Work order list (spec 000 section 2): search and status in the URL, cards with quick status
 * changes (pending → in progress, in progress → completed), paging and the spec's empty states.
 */
export function WorkOrderList() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const createdMessage = (location.state as WorkOrderListLocationState)?.message;
  const status = readStatus(searchParams.get('status'));
  const page = readPage(searchParams.get('page'));
  const searchId = useId();
  const statusId = useId();
  const [actionError, setActionError] = useState<string>();
  const changeStatus = useChangeWorkOrderStatus();

  const { draft, setDraft, search } = useUrlSearch(searchParams, setSearchParams);

  const list = useWorkOrderList({ status, search, page });
  const total = list.data?.total ?? 0;
  const pageSize = list.data?.pageSize ?? workOrderPageSize;
  const workOrders = list.data?.workOrders ?? [];
  // A common search word's matches are counted only up to a cap: "1,000+", and Next while pages are full.
  const isTotalCapped = list.data?.totalCapped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const hasNextPage = page < pageCount || (isTotalCapped && workOrders.length === pageSize);
  const isFiltered = search !== '' || status !== 'all';

  function setStatus(next: WorkOrderStatusFilter) {
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      if (next === 'all') params.delete('status');
      else params.set('status', next);
      params.delete('page');
      return params;
    });
  }

  function goToPage(next: number) {
    setSearchParams((current) => withPage(current, next));
    window.scrollTo({ top: 0 });
  }

  async function quickChange(workOrder: WorkOrderListItem) {
    const next = listTransitions[workOrder.status];
    if (!next) return;
    setActionError(undefined);
    try {
      await changeStatus.mutateAsync({ id: workOrder.id, status: next, expectedUpdatedAt: workOrder.updatedAt });
    } catch (error) {
      setActionError(error instanceof ApiError && error.code !== 'NETWORK' ? workOrderMessages.listUpdateFailed : workOrderMessages.listUnexpected);
    }
  }

  return (
    <section aria-labelledby="work-orders-title" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 id="work-orders-title" className="text-2xl font-bold text-slate-900">
            Work Orders
          </h1>
          <p className="mt-1 text-sm text-slate-600">Track service jobs from request to completion.</p>
        </div>
        <Link to="/admin/workorders/new" className={buttonClass('accent')}>
          <span aria-hidden="true">+</span>
          New Work Order
        </Link>
      </div>

      <div aria-live="polite" className="space-y-2">
        {createdMessage ? <Alert tone="success">{createdMessage}</Alert> : null}
      </div>
      <div aria-live="assertive">{actionError ? <Alert>{actionError}</Alert> : null}</div>

      <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[1fr_14rem]">
        <div>
          <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
            Search work orders
          </label>
          <input
            id={searchId}
            type="search"
            name="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder={workOrderMessages.searchPlaceholder}
            autoComplete="off"
            enterKeyHint="search"
            className={controlClass}
          />
        </div>
        <div>
          <label htmlFor={statusId} className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select id={statusId} value={status} onChange={(event) => setStatus(event.target.value as WorkOrderStatusFilter)} className={controlClass}>
            {workOrderStatusFilters.map((value) => (
              <option key={value} value={value}>
                {statusFilterLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <p role="status" className="text-sm font-medium text-slate-700 sm:col-span-2">
          {list.isSuccess
            ? `${total.toLocaleString('en-US')}${isTotalCapped ? '+' : ''} ${total === 1 && !isTotalCapped ? 'work order' : 'work orders'}${list.isPlaceholderData ? ' · Updating…' : ''}`
            : null}
        </p>
      </div>

      {list.isPending ? (
        <p role="status" className="rounded-lg border border-slate-200 bg-white p-8 text-center text-slate-600">
          {workOrderMessages.loading}
        </p>
      ) : list.isError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
          <p className="font-semibold">Work orders could not be loaded.</p>
          <Button className="mt-4" onClick={() => void list.refetch()} disabled={list.isFetching}>
            {list.isFetching ? 'Retrying...' : 'Try again'}
          </Button>
        </div>
      ) : workOrders.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center text-lg font-semibold text-slate-900">
          {isFiltered ? workOrderMessages.noMatches : workOrderMessages.noneYet}
        </p>
      ) : (
        <>
          <ul aria-label="Work orders" aria-busy={list.isPlaceholderData || undefined} className="grid gap-4 lg:grid-cols-2">
            {workOrders.map((workOrder) => (
              <WorkOrderCard
                key={workOrder.id}
                workOrder={workOrder}
                isUpdating={changeStatus.isPending && changeStatus.variables?.id === workOrder.id}
                onQuickChange={() => void quickChange(workOrder)}
              />
            ))}
          </ul>
          {pageCount > 1 || hasNextPage ? (
            <nav aria-label="Pagination" className="flex items-center justify-between gap-3">
              <Button variant="secondary" onClick={() => goToPage(page - 1)} disabled={page <= 1}>
                Previous
              </Button>
              <p className="text-sm text-slate-700">
                Page {page} of {Math.max(page, pageCount)}
                {isTotalCapped ? '+' : ''}
              </p>
              <Button variant="secondary" onClick={() => goToPage(page + 1)} disabled={!hasNextPage}>
                Next
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}

function WorkOrderCard({ workOrder, isUpdating, onQuickChange }: { workOrder: WorkOrderListItem; isUpdating: boolean; onQuickChange: () => void }) {
  const titleId = useId();
  const next = listTransitions[workOrder.status];
  return (
    <li aria-labelledby={titleId} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-semibold break-words text-slate-900">
            {workOrder.title}
          </h2>
          <p className="text-sm text-slate-600">{workOrderNumberLabel(workOrder)}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Badge tone={workOrderStatusTone(workOrder.status)}>{workOrderStatusLabel(workOrder.status)}</Badge>
          <Badge tone={priorityTone(workOrder.priority)} className={priorityClass(workOrder.priority)}>
            {priorityLabel(workOrder.priority)}
          </Badge>
        </div>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-slate-700">Customer</dt>
        <dd className="text-slate-900">{workOrder.customer.name}</dd>
        <dt className="font-medium text-slate-700">Service date</dt>
        <dd className="text-slate-900">{formatCalendarDate(workOrder.serviceDate)}</dd>
        <dt className="font-medium text-slate-700">Service type</dt>
        <dd className="text-slate-900">{serviceTypeLabel(workOrder.serviceType)}</dd>
      </dl>
      {workOrder.description ? <p className="text-sm break-words text-slate-700">{truncate(workOrder.description)}</p> : null}
      <div className="mt-auto flex flex-wrap gap-2">
        <Link to={workOrderDetailPath(workOrder.id)} className={buttonClass('secondary', 'sm')} aria-label={`View Details: ${workOrder.title}`}>
          View Details
        </Link>
        {next ? (
          <Button size="sm" variant={next === 'completed' ? 'primary' : 'accent'} onClick={onQuickChange} disabled={isUpdating} aria-label={`${next === 'completed' ? 'Complete' : 'Start Job'}: ${workOrder.title}`}>
            {isUpdating ? 'Updating...' : next === 'completed' ? 'Complete' : 'Start Job'}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
