import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { countLabel } from '#shared/api.ts';
import { listTransitions, workOrderMessages, workOrderStatusFilters, type WorkOrderListItem } from '#shared/work-order.ts';
import { addressLine, workOrderPlace, workOrderPlaceMessages } from '#shared/work-order-place.ts';
import { LoadErrorCard, LoadingCard } from '#client/components/ui/card.tsx';
import { Pager, readPage } from '#client/components/ui/pager.tsx';
import { SearchInput, useSearchInput } from '#client/components/ui/search-input.tsx';
import { withPage } from '#client/components/ui/use-url-search.ts';
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

function readStatus(value: string | null): WorkOrderStatusFilter {
  return (workOrderStatusFilters as readonly string[]).includes(value ?? '') ? (value as WorkOrderStatusFilter) : 'all';
}

const statusFilterLabel = (status: WorkOrderStatusFilter) => (status === 'all' ? 'All' : workOrderStatusLabel(status));

/**
 * Work order list (spec 000 section 2): search and status in the URL, cards with quick status
 * changes (pending → in progress, in progress → completed), paging and the spec's empty states.
 */
export function WorkOrderList() {
  const { draft, setDraft, search, searchParams, setSearchParams } = useSearchInput();
  const location = useLocation();
  const createdMessage = (location.state as WorkOrderListLocationState)?.message;
  const status = readStatus(searchParams.get('status'));
  const page = readPage(searchParams.get('page'));
  const statusId = useId();
  const [actionError, setActionError] = useState<string>();
  const changeStatus = useChangeWorkOrderStatus();

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
        <SearchInput label="Search work orders" name="search" value={draft} onChange={setDraft} placeholder={workOrderMessages.searchPlaceholder} />
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
            ? `${countLabel(total, isTotalCapped, { one: 'work order', many: 'work orders' })}${list.isPlaceholderData ? ' · Updating…' : ''}`
            : null}
        </p>
      </div>

      {list.isPending ? (
        <LoadingCard>{workOrderMessages.loading}</LoadingCard>
      ) : list.isError ? (
        <LoadErrorCard title="Work orders could not be loaded." isRetrying={list.isFetching} onRetry={() => void list.refetch()} />
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
          <Pager page={page} pageCount={pageCount} hasNextPage={hasNextPage} isCapped={isTotalCapped} onPageChange={goToPage} />
        </>
      )}
    </section>
  );
}

function WorkOrderCard({ workOrder, isUpdating, onQuickChange }: { workOrder: WorkOrderListItem; isUpdating: boolean; onQuickChange: () => void }) {
  const titleId = useId();
  const next = listTransitions[workOrder.status];
  const place = workOrderPlace(workOrder, workOrder.customer);
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
        <dt className="font-medium text-slate-700">{place.isServiceAddress ? workOrderPlaceMessages.serviceAddress : 'Address'}</dt>
        <dd className="break-words text-slate-900">{addressLine(place)}</dd>
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
