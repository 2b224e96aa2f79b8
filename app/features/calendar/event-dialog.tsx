import { useId, useState } from 'react';
import { calendarMessages, type CalendarEvent, type CalendarOverlap } from '#shared/calendar.ts';
import type { WorkOrderStatus } from '#shared/enums.ts';
import { canTransition, workOrderMessages } from '#shared/work-order.ts';
import { addressLine, workOrderPlace, workOrderPlaceMessages } from '#shared/work-order-place.ts';
import { fieldStepOf, fieldStepText } from '#shared/tech.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { company } from '#client/lib/company.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { ConfirmDialog, Dialog } from '#client/components/ui/dialog.tsx';
import { useActiveTechnicians, formatCalendarDate, serviceTypeLabel, workOrderStatusLabel, workOrderStatusTone } from '#client/features/work-orders/index.ts';
import { failureMessage, isStale, overlapsOf, useAssignTechnician, useChangeAppointmentStatus, useDeleteAppointment } from './api.ts';
import { OverlapList } from './overlap-list.tsx';

/** Spec 001 section 2: the modal's status buttons, in this order. */
const statusButtons: { status: WorkOrderStatus; label: string }[] = [
  { status: 'pending', label: 'Pending' },
  { status: 'scheduled', label: 'Scheduled' },
  { status: 'in-progress', label: 'Start Job' },
  { status: 'completed', label: 'Complete' },
];

/** Why a status button is disabled (decision 015: the same transition table as the detail screen). */
function statusRefusal(from: WorkOrderStatus, to: WorkOrderStatus): string | undefined {
  return canTransition(from, to) ? undefined : workOrderMessages.transitionRefused(from, to);
}

/**
 * An appointment's details and actions (spec 001 section 2): technician buttons (a double booking
 * is shown and confirmed first), the status buttons the transition table allows, Edit Details,
 * View Full Details (a new window) and Delete after the spec's confirmation. Every change is sent
 * with the version shown; a stale one refreshes the calendar and says so.
 */
export function EventDialog({
  event,
  onClose,
  onEdit,
  onDeleted,
}: {
  event: CalendarEvent;
  onClose: () => void;
  onEdit: () => void;
  onDeleted: (message: string) => void;
}) {
  const reasonId = useId();
  const technicians = useActiveTechnicians();
  const assign = useAssignTechnician();
  const changeStatus = useChangeAppointmentStatus();
  const remove = useDeleteAppointment();
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string }>();
  const [overlap, setOverlap] = useState<{ technicianId: string; message: string; overlaps: CalendarOverlap[] }>();
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const isBusy = assign.isPending || changeStatus.isPending || remove.isPending;
  const field = fieldStepOf(event);

  function fail(alert: string, error: unknown) {
    setMessage({ tone: 'error', text: isStale(error) ? `${alert}: ${workOrderMessages.conflict}` : failureMessage(alert, error) });
  }

  async function assignTo(technicianId: string | null, allowOverlap = false) {
    setMessage(undefined);
    setOverlap(undefined);
    try {
      await assign.mutateAsync({ id: event.id, technicianId, expectedUpdatedAt: event.updatedAt, allowOverlap });
      const name = technicians.data?.technicians.find((technician) => technician.id === technicianId)?.name;
      setMessage({ tone: 'success', text: name ? `Assigned to ${name}.` : 'Technician removed.' });
    } catch (error) {
      const overlaps = overlapsOf(error);
      if (overlaps && technicianId) setOverlap({ technicianId, ...overlaps });
      else fail(calendarMessages.assignFailed, error);
    }
  }

  async function setStatus(status: WorkOrderStatus) {
    setMessage(undefined);
    try {
      await changeStatus.mutateAsync({ id: event.id, status, expectedUpdatedAt: event.updatedAt });
      setMessage({ tone: 'success', text: `Status changed to ${workOrderStatusLabel(status)}.` });
    } catch (error) {
      fail(calendarMessages.statusFailed, error);
    }
  }

  async function confirmDelete() {
    try {
      await remove.mutateAsync({ id: event.id, expectedUpdatedAt: event.updatedAt });
      setIsConfirmingDelete(false);
      onDeleted(`Work order ${event.workOrderNumber} deleted.`);
    } catch (error) {
      setIsConfirmingDelete(false);
      fail(calendarMessages.deleteFailed, error);
    }
  }

  const activeTechnicians = technicians.data?.technicians ?? [];

  return (
    <>
      <Dialog
        title={event.title}
        description={`${event.workOrderNumber} · ${formatCalendarDate(event.serviceDate)}, ${event.startTime}-${event.endTime}`}
        onClose={() => (isBusy ? undefined : onClose())}
        className="max-w-lg"
      >
        <div aria-live="polite" className="mt-3">
          {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
          {overlap ? (
            <Alert>
              <p>{overlap.message}</p>
              <OverlapList overlaps={overlap.overlaps} />
              <div className="mt-3 flex flex-wrap gap-2">
                <Button size="sm" variant="destructive" onClick={() => void assignTo(overlap.technicianId, true)} disabled={isBusy}>
                  Assign Anyway
                </Button>
                <Button size="sm" variant="secondary" onClick={() => setOverlap(undefined)} disabled={isBusy}>
                  Keep Current Technician
                </Button>
              </div>
            </Alert>
          ) : null}
        </div>

        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="font-semibold text-slate-700">Customer</dt>
          <dd>
            {event.customer.name}
            {event.isMember ? (
              <Badge tone="accent" className="ml-2">
                Plan member
              </Badge>
            ) : null}
          </dd>
          <dt className="font-semibold text-slate-700">Phone</dt>
          <dd>{event.customer.phone ? <a className="text-brand-700 underline" href={`tel:${event.customer.phone}`}>{event.customer.phone}</a> : '—'}</dd>
          <dt className="font-semibold text-slate-700">Address</dt>
          <dd data-testid="event-address">
            <PlaceText place={workOrderPlace(event, event.customer)} />
          </dd>
          <dt className="font-semibold text-slate-700">Service Type</dt>
          <dd>{serviceTypeLabel(event.serviceType)}</dd>
          <dt className="font-semibold text-slate-700">Status</dt>
          <dd>
            <Badge tone={workOrderStatusTone(event.status)}>{workOrderStatusLabel(event.status)}</Badge>
            {field ? (
              <span className="ml-2 text-slate-700" data-testid="event-field-step">
                {fieldStepText(field, company.timeZone)}
              </span>
            ) : null}
          </dd>
          <dt className="font-semibold text-slate-700">Technician</dt>
          <dd data-testid="event-technician">{event.technician?.name ?? 'Unassigned'}</dd>
        </dl>

        <section aria-label="Assign technician" className="mt-5">
          <h3 className="text-sm font-semibold text-slate-900">Assign Technician</h3>
          <div className="mt-2 flex flex-wrap gap-2">
            {activeTechnicians.map((technician) => {
              const isCurrent = technician.id === event.technician?.id;
              return (
                <Button key={technician.id} size="sm" variant={isCurrent ? 'primary' : 'secondary'} aria-pressed={isCurrent} disabled={isBusy} onClick={() => void assignTo(technician.id)}>
                  <span aria-hidden="true" className="inline-block size-3 rounded-full" style={{ backgroundColor: technician.color }} />
                  {technician.name}
                </Button>
              );
            })}
            {event.technician ? (
              <Button size="sm" variant="ghost" disabled={isBusy} onClick={() => void assignTo(null)}>
                Unassign
              </Button>
            ) : null}
          </div>
        </section>

        <section aria-label="Change status" className="mt-5">
          <h3 className="text-sm font-semibold text-slate-900">Status</h3>
          <div className="mt-2 flex flex-wrap gap-2">
            {statusButtons.map(({ status, label }) => {
              const refusal = statusRefusal(event.status, status);
              return (
                <Button
                  key={status}
                  size="sm"
                  variant="secondary"
                  disabled={isBusy || Boolean(refusal)}
                  title={refusal}
                  aria-describedby={refusal ? `${reasonId}-${status}` : undefined}
                  onClick={() => void setStatus(status)}
                >
                  {label}
                </Button>
              );
            })}
          </div>
          {statusButtons.map(({ status }) => {
            const refusal = statusRefusal(event.status, status);
            return refusal ? (
              <span key={status} id={`${reasonId}-${status}`} className="sr-only">
                {refusal}
              </span>
            ) : null;
          })}
          <p className="mt-2 text-xs text-slate-600">
            {event.status === 'completed' || event.status === 'cancelled'
              ? `A ${event.status} work order keeps its status.`
              : 'Only the next steps of the work-order flow are available; cancel from Edit Details.'}
          </p>
        </section>

        <div className="mt-6 flex flex-wrap gap-2 border-t border-slate-200 pt-4">
          <Button variant="accent" size="sm" onClick={onEdit} disabled={isBusy}>
            Edit Details
          </Button>
          <a
            href={`/admin/workorders/${encodeURIComponent(event.id)}`}
            target="_blank"
            rel="noopener"
            className={buttonClass('secondary', 'sm')}
          >
            View Full Details<span className="sr-only"> (opens in a new window)</span>
          </a>
          <Button variant="danger" size="sm" onClick={() => setIsConfirmingDelete(true)} disabled={isBusy}>
            Delete
          </Button>
          <Button variant="ghost" size="sm" onClick={onClose} disabled={isBusy} className="ml-auto">
            Close
          </Button>
        </div>
      </Dialog>
      {isConfirmingDelete ? (
        <ConfirmDialog
          title="Delete Work Order"
          message={calendarMessages.confirmDelete}
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          isPending={remove.isPending}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setIsConfirmingDelete(false)}
        />
      ) : null}
    </>
  );
}

/** Where the job is: the work order's service address (so marked) or the customer's address. */
function PlaceText({ place }: { place: ReturnType<typeof workOrderPlace> }) {
  if (!place.address) return <>—</>;
  return (
    <>
      {addressLine(place)}
      {place.isServiceAddress ? <span className="block text-xs text-slate-600">{workOrderPlaceMessages.serviceAddress}</span> : null}
    </>
  );
}
