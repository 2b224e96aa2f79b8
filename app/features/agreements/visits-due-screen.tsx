import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { VisitDue } from '#shared/agreement.ts';
import { todayIn } from '#shared/dates.ts';
import { maintenancePlans } from '#shared/maintenance-plans.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { Pager } from '#client/components/ui/pager.tsx';
import { messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { workOrderStatusLabel, workOrderStatusTone } from '#client/lib/work-order-labels.ts';
import { useVisitsDue } from './api.ts';
import { formatDay, formatMonth, seasonOf } from './labels.ts';
import { PlanSignups } from './plan-signups.tsx';

const columns: readonly DataTableColumn<VisitDue>[] = [
  {
    key: 'customer',
    header: 'Customer',
    isRowHeader: true,
    cell: (visit) => (
      <>
        <Link to={`/admin/customers/${encodeURIComponent(visit.customerId)}`} className="font-medium text-brand-700 underline">
          {visit.customerName}
        </Link>
        <span className="block text-slate-600">{visit.customerPhone}</span>
      </>
    ),
  },
  { key: 'address', header: 'Address', cell: (visit) => `${visit.address}, ${visit.city}${visit.zip ? ` ${visit.zip}` : ''}` },
  {
    key: 'plan',
    header: 'Plan',
    cell: (visit) => (
      <>
        <Badge tone="accent">Member · {visit.planName}</Badge>
        <span className="mt-1 block font-mono text-xs text-slate-600">{visit.agreementNumber}</span>
      </>
    ),
  },
  {
    key: 'visit',
    header: 'Visit',
    cell: (visit) =>
      visit.workOrderId ? (
        <>
          <Link to={`/admin/workorders/${encodeURIComponent(visit.workOrderId)}`} className="font-medium text-brand-700 underline">
            {visit.workOrderNumber}
          </Link>
          <span className="block text-slate-700">{visit.title}</span>
        </>
      ) : null,
  },
  { key: 'due', header: 'Due', cell: (visit) => `${seasonOf(visit.period)}: ${formatDay(visit.dueFrom)} – ${formatDay(visit.dueBy)}` },
  {
    key: 'status',
    header: 'Status',
    cell: (visit) => (
      <>
        <Badge tone={workOrderStatusTone(visit.status ?? '')}>{visit.scheduledDate && visit.status === 'scheduled' ? 'Scheduled' : workOrderStatusLabel(visit.status ?? '')}</Badge>
        {visit.scheduledDate ? <span className="block text-slate-700">{formatDay(visit.scheduledDate)}</span> : null}
      </>
    ),
  },
];

/**
 * Visits due (issue 22): the site's plan sign-ups waiting for the office on top, then the agreements' visits whose season covers a month, unscheduled ones by
 * default, by area and plan, soonest due first. A visit opens its work order, where it is
 * scheduled; it then leaves the list (live: the work order's change refreshes it).
 */
export function VisitsDueScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const id = useId();
  const month = searchParams.get('month') || todayIn(company.timeZone).slice(0, 7);
  const area = searchParams.get('area') ?? '';
  const plan = searchParams.get('plan') ?? '';
  const include = searchParams.get('include') === 'all' ? 'all' : 'unscheduled';
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const visits = useVisitsDue({ month, area, plan, include, page, pageSize: 50 });

  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setSearchParams(next, { replace: true });
  };

  const total = visits.data?.total ?? 0;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Visits Due</h1>
        <p className="text-slate-700">Maintenance plan visits to schedule, by the month their season covers.</p>
      </div>
      <PlanSignups />
      <h2 className="pt-2 text-xl font-bold text-slate-900">Visits to schedule</h2>
      <form className={`${cardClassName('p-4')} grid gap-3 sm:grid-cols-4`} onSubmit={(event) => event.preventDefault()} aria-label="Filter visits due">
        <div className="text-sm font-medium text-slate-800">
          <label htmlFor={`${id}-month`}>Month</label>
          <input id={`${id}-month`} type="month" value={month} onChange={(event) => setFilter('month', event.target.value)} className={controlClass} />
        </div>
        <div className="text-sm font-medium text-slate-800">
          <label htmlFor={`${id}-area`}>Area</label>
          <select id={`${id}-area`} value={area} onChange={(event) => setFilter('area', event.target.value)} className={controlClass}>
            <option value="">All areas</option>
            {serviceAreas.map((serviceArea) => (
              <option key={serviceArea.slug} value={serviceArea.slug}>
                {serviceArea.name}
              </option>
            ))}
          </select>
        </div>
        <div className="text-sm font-medium text-slate-800">
          <label htmlFor={`${id}-plan`}>Plan</label>
          <select id={`${id}-plan`} value={plan} onChange={(event) => setFilter('plan', event.target.value)} className={controlClass}>
            <option value="">All plans</option>
            {maintenancePlans.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </div>
        <div className="text-sm font-medium text-slate-800">
          <label htmlFor={`${id}-include`}>Show</label>
          <select id={`${id}-include`} value={include} onChange={(event) => setFilter('include', event.target.value === 'all' ? 'all' : '')} className={controlClass}>
            <option value="unscheduled">Not yet scheduled</option>
            <option value="all">All visits of the month</option>
          </select>
        </div>
      </form>
      {visits.isError ? <Alert>{messageOf(visits.error)}</Alert> : null}
      <p role="status" className="text-sm text-slate-700">
        {visits.data ? `${total} visit${total === 1 ? '' : 's'} ${include === 'all' ? 'in' : 'to schedule in'} ${formatMonth(visits.data.month)}` : ''}
      </p>
      {/* Scrolls sideways on a phone: reachable by keyboard even when it holds no link. */}
      <div className={cardClassName('p-0 overflow-x-auto')} tabIndex={0} role="region" aria-label="Visits due, scrollable">
        <DataTable
          caption={`Visits due in ${formatMonth(month)}`}
          columns={columns}
          rows={visits.data?.visits ?? []}
          rowKey={(visit) => visit.id}
          isLoading={visits.isPending}
          isBusy={visits.isFetching}
          empty={<p className="p-4 text-slate-600">No visit to schedule for this month and these filters.</p>}
        />
      </div>
      {total > 50 ? (
        <Pager
          page={page}
          pageCount={Math.ceil(total / 50)}
          onPageChange={(next) => {
            const params = new URLSearchParams(searchParams);
            params.set('page', String(next));
            setSearchParams(params);
          }}
        />
      ) : null}
    </div>
  );
}
