import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  dashboardMessages,
  dashboardPaths,
  dashboardStatLabels,
  emptyDashboard,
  type DashboardStats,
  type DashboardWorkOrder,
} from '#shared/dashboard.ts';
import { workOrderTimePreferenceLabels } from '#shared/work-order.ts';
import { addressLine, workOrderPlace } from '#shared/work-order-place.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import {
  formatCalendarDate,
  formatClockTime,
  priorityClass,
  priorityLabel,
  priorityTone,
  workOrderDetailPath,
  workOrderNumberLabel,
  workOrderStatusLabel,
  workOrderStatusTone,
} from '#client/features/work-orders/index.ts';
import { ReceivablesFigures } from '#client/features/invoices/index.ts';
import { AgreementFigures } from '#client/features/agreements/index.ts';
import { useDashboard } from './api.ts';

/**
 * The staff dashboard (spec 000 section 2): twelve figure cards, four quick actions and three
 * work-order sections, all from one request. While it loads the cards show a placeholder; when it
 * fails they show zeros and the lists are empty (spec section 8), with an announced error and a retry.
 */
export function Dashboard({ userName }: { userName?: string }) {
  const dashboard = useDashboard();
  const [isInProgressOpen, setIsInProgressOpen] = useState(false);
  const inProgressSectionId = useId();

  const isLoading = dashboard.isPending;
  const data = dashboard.data ?? emptyDashboard;
  const { stats } = data;
  // A failed refresh keeps the last figures; only a dashboard that never loaded falls back to zeros.
  const hasFailed = dashboard.isError;

  const card = (key: keyof DashboardStats, suffix = '') => ({ label: dashboardStatLabels[key], value: isLoading ? undefined : `${stats[key]}${suffix}` });

  return (
    <section aria-labelledby="dashboard-title" className="space-y-6">
      <div>
        <h1 id="dashboard-title" className="text-2xl font-bold text-slate-900">
          {dashboardMessages.title}
        </h1>
        <p className="mt-1 text-slate-600">Welcome back{userName ? `, ${userName}` : ''}.</p>
      </div>

      <div aria-live="polite">
        {isLoading ? (
          <p role="status" className="text-sm text-slate-600">
            {dashboardMessages.loading}
          </p>
        ) : null}
      </div>
      <div aria-live="assertive">
        {hasFailed ? (
          <Alert className="flex flex-wrap items-center justify-between gap-3">
            <span>{dashboardMessages.loadFailed}</span>
            <Button size="sm" variant="secondary" onClick={() => void dashboard.refetch()} disabled={dashboard.isFetching}>
              {dashboard.isFetching ? dashboardMessages.retrying : dashboardMessages.retry}
            </Button>
          </Alert>
        ) : null}
      </div>

      <section aria-labelledby="dashboard-figures-title">
        <h2 id="dashboard-figures-title" className="sr-only">
          Figures
        </h2>
        <ul aria-busy={isLoading || undefined} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6">
          <StatCard {...card('pendingOrders')} />
          <StatCard {...card('inProgressOrders')}>
            {(content) => (
              <button
                type="button"
                aria-expanded={isInProgressOpen}
                aria-controls={inProgressSectionId}
                onClick={() => setIsInProgressOpen((open) => !open)}
                className={`${actionCardClass} w-full text-left`}
              >
                {content}
                <span className="mt-1 block text-xs font-medium text-brand-700">{isInProgressOpen ? 'Hide list' : 'Show list'}</span>
              </button>
            )}
          </StatCard>
          <StatCard {...card('todaysSchedule')} />
          <StatCard {...card('urgentEstimates')}>
            {(content) =>
              // Spec: the card leads to the urgent leads only when there are some.
              stats.urgentEstimates > 0 ? (
                <Link to={dashboardPaths.urgentEstimates} className={actionCardClass}>
                  {content}
                </Link>
              ) : (
                <div className={cardClass}>{content}</div>
              )
            }
          </StatCard>
          <StatCard {...card('pendingEstimates')}>
            {(content) => (
              <Link to={dashboardPaths.estimates} className={actionCardClass}>
                {content}
              </Link>
            )}
          </StatCard>
          <StatCard {...card('aiChatsToday')} />
          <StatCard {...card('leadsThisWeek')} />
          <StatCard {...card('completedThisMonth')} />
          <StatCard {...card('totalCustomers')} />
          <StatCard {...card('totalWorkOrders')} />
          <StatCard {...card('conversionRate', '%')} />
          <StatCard {...card('chatConversion', '%')} />
        </ul>
      </section>

      <ReceivablesFigures />
      <AgreementFigures />

      <nav aria-label="Quick actions" className="flex flex-wrap gap-2">
        <Link to={dashboardPaths.calendar} className={buttonClass('secondary')}>
          Open Calendar
        </Link>
        <Link to={dashboardPaths.estimates} className={buttonClass('secondary')}>
          Review Estimates
        </Link>
        <Link to={dashboardPaths.newWorkOrder} className={buttonClass('accent')}>
          <span aria-hidden="true">+</span>
          New Work Order
        </Link>
        <Link to={dashboardPaths.newCustomer} className={buttonClass('primary')}>
          <span aria-hidden="true">+</span>
          New Customer
        </Link>
      </nav>

      <WorkOrderSection
        id={inProgressSectionId}
        hidden={!isInProgressOpen}
        title={dashboardMessages.inProgressSection}
        workOrders={data.inProgressWorkOrders}
        isLoading={isLoading}
        empty={dashboardMessages.noneInProgress}
        footer={
          <Link to={dashboardPaths.inProgressWorkOrders} className={buttonClass('ghost', 'sm')} aria-label={`${dashboardMessages.viewAll} in-progress work orders`}>
            {dashboardMessages.viewAll}
          </Link>
        }
        action={(workOrder) => ({ label: dashboardMessages.completeJob, variant: 'primary', workOrder })}
        when="date"
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <WorkOrderSection
          title={dashboardMessages.todaysScheduleSection}
          workOrders={data.todaysSchedule}
          isLoading={isLoading}
          empty={dashboardMessages.nothingToday}
          count={stats.todaysSchedule}
          footer={
            <Link to={dashboardPaths.calendar} className={buttonClass('ghost', 'sm')}>
              {dashboardMessages.viewCalendar}
            </Link>
          }
          // Spec: 'Start Job' on today's pending items; it opens the work order, where the job is started.
          action={(workOrder) => (workOrder.status === 'pending' ? { label: dashboardMessages.startJob, variant: 'accent', workOrder } : undefined)}
          when="time"
        />
        <WorkOrderSection
          title={dashboardMessages.pendingSection}
          workOrders={data.pendingWorkOrders}
          isLoading={isLoading}
          empty={dashboardMessages.nonePending}
          footer={
            <Link to={dashboardPaths.pendingWorkOrders} className={buttonClass('ghost', 'sm')} aria-label={`${dashboardMessages.viewAll} pending work orders`}>
              {dashboardMessages.viewAll}
            </Link>
          }
          when="date"
        />
      </div>
    </section>
  );
}

const cardClass = 'block h-full rounded-lg border border-slate-200 bg-white p-4 shadow-sm';
const actionCardClass = `${cardClass} transition-colors hover:border-brand-600 hover:bg-brand-50`;

/** One figure: its label and value; `children` wraps them when the card is a link or a button. */
function StatCard({ label, value, children }: { label: string; value: string | undefined; children?: (content: ReactNode) => ReactNode }) {
  const content = (
    <>
      <span className="block text-sm font-medium text-slate-700">{label}</span>
      <span className="mt-1 block text-2xl font-bold text-slate-900 tabular-nums sm:text-3xl">
        {value ?? <span aria-hidden="true">–</span>}
      </span>
    </>
  );
  return <li>{children ? children(content) : <div className={cardClass}>{content}</div>}</li>;
}

type ItemAction = { label: string; variant: 'primary' | 'accent'; workOrder: DashboardWorkOrder };

function WorkOrderSection(props: {
  id?: string;
  hidden?: boolean;
  title: string;
  workOrders: DashboardWorkOrder[];
  isLoading: boolean;
  empty: string;
  /** How many there are in all, when the list shows only the first of them. */
  count?: number;
  footer: ReactNode;
  action?: (workOrder: DashboardWorkOrder) => ItemAction | undefined;
  /** Show each item's service date, or (today's schedule) its time. */
  when: 'date' | 'time';
}) {
  const titleId = useId();
  const { workOrders, count } = props;
  return (
    <section id={props.id} hidden={props.hidden} aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {props.title}
        </h2>
        {props.footer}
      </div>
      {props.isLoading ? (
        <p className="px-4 py-6 text-center text-sm text-slate-600">{dashboardMessages.loading}</p>
      ) : workOrders.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-slate-600">{props.empty}</p>
      ) : (
        <>
          <ul aria-label={props.title} className="divide-y divide-slate-200">
            {workOrders.map((workOrder) => (
              <WorkOrderItem key={workOrder.id} workOrder={workOrder} action={props.action?.(workOrder)} when={props.when} />
            ))}
          </ul>
          {count !== undefined && count > workOrders.length ? (
            <p className="border-t border-slate-200 px-4 py-2 text-sm text-slate-600">
              Showing {workOrders.length} of {count}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function WorkOrderItem({ workOrder, action, when }: { workOrder: DashboardWorkOrder; action: ItemAction | undefined; when: 'date' | 'time' }) {
  const detailPath = workOrderDetailPath(workOrder.id);
  const time = formatClockTime(workOrder.scheduledStartTime) || workOrderTimePreferenceLabels[workOrder.timePreference];
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <Link to={detailPath} className="font-semibold break-words text-brand-700 underline-offset-2 hover:underline">
            {workOrder.title}
          </Link>
          <span className="text-sm text-slate-600">{workOrderNumberLabel(workOrder)}</span>
        </p>
        <p className="text-sm break-words text-slate-700">
          {workOrder.customer.name} · {addressLine(workOrderPlace(workOrder, workOrder.customer))}
        </p>
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <span>{when === 'time' ? time : formatCalendarDate(workOrder.serviceDate)}</span>
          <Badge tone={workOrderStatusTone(workOrder.status)}>{workOrderStatusLabel(workOrder.status)}</Badge>
          <Badge tone={priorityTone(workOrder.priority)} className={priorityClass(workOrder.priority)}>
            {priorityLabel(workOrder.priority)}
          </Badge>
        </p>
      </div>
      {action ? (
        <Link to={detailPath} className={`${buttonClass(action.variant, 'sm')} shrink-0`} aria-label={`${action.label}: ${workOrder.title}`}>
          {action.label}
        </Link>
      ) : null}
    </li>
  );
}
