import { Link } from 'react-router';
import type { WorkOrderStatus } from '#shared/enums.ts';
import { allowedTransitions } from '#shared/work-order.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { company } from '#client/lib/company.ts';
import { ViewActivityLink } from '#client/features/settings/index.ts';
import type { WorkOrderDetailResponse } from './api.ts';
import {
  formatDateTime,
  priorityClass,
  priorityLabel,
  priorityTone,
  workOrderListPath,
  workOrderNumberLabel,
  workOrderStatusLabel,
  workOrderStatusTone,
} from './labels.ts';
import { DetailCard } from './detail-card.tsx';

type WorkOrder = WorkOrderDetailResponse['workOrder'];

/** "← Back to List": the way out of the work order screen, also from its error states. */
export function BackToListLink() {
  return (
    <Link to={workOrderListPath} className={buttonClass('secondary')}>
      <span aria-hidden="true">←</span> Back to List
    </Link>
  );
}

/** The work order's title, number, activity link, status and priority, with "Edit Details". */
export function WorkOrderHeader({ workOrder, onEdit }: { workOrder: WorkOrder; onEdit: () => void }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0 space-y-2">
        <h1 id="work-order-title" className="text-2xl font-bold break-words text-slate-900">
          {workOrder.title}
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium text-slate-700">{workOrderNumberLabel(workOrder)}</span>
          <ViewActivityLink entityType="work_order" entityId={workOrder.id} />
          <Badge tone={workOrderStatusTone(workOrder.status)}>{workOrderStatusLabel(workOrder.status)}</Badge>
          <Badge tone={priorityTone(workOrder.priority)} className={priorityClass(workOrder.priority)}>
            {priorityLabel(workOrder.priority)} priority
          </Badge>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={onEdit}>
          Edit Details
        </Button>
        <BackToListLink />
      </div>
    </header>
  );
}

/**
 * The timeline (created, scheduled, started, completed) and the status changes the current status
 * allows: Start Job and Complete Job move at once, Schedule and Cancel ask first (through the screen).
 */
export function StatusActionsCard({
  workOrder,
  timeline,
  scheduledLine,
  isPending,
  onMove,
  onSchedule,
  onCancel,
}: {
  workOrder: WorkOrder;
  timeline: WorkOrderDetailResponse['timeline'];
  scheduledLine: string | undefined;
  isPending: boolean;
  onMove: (status: WorkOrderStatus) => void;
  onSchedule: () => void;
  onCancel: () => void;
}) {
  const transitions = allowedTransitions[workOrder.status] ?? [];
  return (
    <DetailCard title="Status & Actions">
      <ol aria-label="Timeline" className="space-y-3 text-sm">
        <TimelineStep label="Created" at={timeline.createdAt} />
        <TimelineStep label="Scheduled" at={timeline.scheduledAt ?? null} detail={scheduledLine} />
        <TimelineStep label="In Progress" at={timeline.startedAt} />
        <TimelineStep label="Completed" at={timeline.completedAt} />
      </ol>
      {workOrder.status === 'cancelled' ? <p className="mt-3 text-sm font-semibold text-red-800">This work order was cancelled.</p> : null}
      <div className="mt-4 flex flex-col gap-2">
        {transitions.includes('in-progress') ? (
          <Button variant="accent" onClick={() => onMove('in-progress')} disabled={isPending}>
            Start Job
          </Button>
        ) : null}
        {transitions.includes('scheduled') ? (
          <Button variant="primary" onClick={onSchedule} disabled={isPending}>
            Schedule
          </Button>
        ) : null}
        {transitions.includes('completed') ? (
          <Button variant="primary" onClick={() => onMove('completed')} disabled={isPending}>
            Complete Job
          </Button>
        ) : null}
        {transitions.includes('cancelled') ? (
          <Button variant="danger" onClick={onCancel} disabled={isPending}>
            Cancel Work Order
          </Button>
        ) : null}
      </div>
    </DetailCard>
  );
}

function TimelineStep({ label, at, detail }: { label: string; at: string | null; detail?: string }) {
  const done = Boolean(at);
  return (
    <li className="flex gap-3">
      <span aria-hidden="true" className={`mt-1 h-3 w-3 shrink-0 rounded-full ${done ? 'bg-green-700' : 'border-2 border-slate-400 bg-white'}`} />
      <div>
        <p className="font-semibold text-slate-900">{label}</p>
        <p className="text-slate-700">{done ? (detail ?? formatDateTime(at, company.timeZone)) : 'Not yet'}</p>
      </div>
    </li>
  );
}
