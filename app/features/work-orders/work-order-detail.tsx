import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { customerMatchMessages } from '#shared/customer-match.ts';
import type { WorkOrderStatus } from '#shared/enums.ts';
import { allowedTransitions, workOrderMessages, workOrderTimePreferenceLabels } from '#shared/work-order.ts';
import { addressLine, workOrderPlace } from '#shared/work-order-place.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/dialog.tsx';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';
import { apiErrorMessage, customerProfilePath, fullAddress, mapsSearchUrl, telHref, PossibleMatchPanel } from '#client/features/customers/index.ts';
import { company } from '#client/lib/company.ts';
import {
  isConflict,
  isNotFound,
  useAddInspectionReport,
  useAddWorkOrderTask,
  useChangeWorkOrderStatus,
  useUpdateWorkOrderNotes,
  useUpdateWorkOrderTask,
  useWorkOrderDetail,
  type WorkOrderDetailResponse,
} from './api.ts';
import {
  formatCalendarDate,
  formatClockTime,
  formatDateTime,
  inspectionItemLabel,
  priorityClass,
  priorityLabel,
  priorityTone,
  serviceTypeLabel,
  workOrderListPath,
  workOrderNumberLabel,
  workOrderStatusLabel,
  workOrderStatusTone,
} from './labels.ts';
import { EditDetailsDialog } from './edit-details-dialog.tsx';
import { ScheduleDialog } from './schedule-dialog.tsx';
import { ViewActivityLink } from '#client/features/settings/index.ts';

type Notice = { tone: 'success' | 'error' | 'info'; text: string };

const backLink = (
  <Link to={workOrderListPath} className={buttonClass('secondary')}>
    <span aria-hidden="true">←</span> Back to List
  </Link>
);

/** Work order detail (spec 000 section 2). */
export function WorkOrderDetail({ id }: { id: string }) {
  const detail = useWorkOrderDetail(id);

  if (detail.isPending) {
    return (
      <p role="status" className="rounded-lg border border-slate-200 bg-white p-8 text-center text-slate-600">
        Loading work order...
      </p>
    );
  }
  if (detail.isError) {
    if (isNotFound(detail.error)) {
      return (
        <section aria-labelledby="not-found-title" className="mx-auto max-w-xl space-y-4 rounded-lg border border-slate-200 bg-white p-8 text-center">
          <h1 id="not-found-title" className="text-2xl font-bold text-slate-900">
            {workOrderMessages.notFound}
          </h1>
          <p className="text-slate-700">The work order may have been removed, or the link is wrong.</p>
          {backLink}
        </section>
      );
    }
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
        <p className="font-semibold">The work order could not be loaded.</p>
        <p className="mt-1 text-sm">{apiErrorMessage(detail.error) ?? workOrderMessages.unexpected}</p>
        <div className="mt-4 flex justify-center gap-3">
          <Button onClick={() => void detail.refetch()} disabled={detail.isFetching}>
            {detail.isFetching ? 'Retrying...' : 'Try again'}
          </Button>
          {backLink}
        </div>
      </div>
    );
  }
  return <WorkOrderDetailView data={detail.data} />;
}

function WorkOrderDetailView({ data }: { data: WorkOrderDetailResponse }) {
  const { workOrder, customer, technician, equipment, inspectionReport, tasks, timeline, possibleMatch } = data;
  const [notice, setNotice] = useState<Notice>();
  const [isScheduling, setIsScheduling] = useState(false);
  const [isEditing, setIsEditing] = useState(false);
  const [isConfirmingCancel, setIsConfirmingCancel] = useState(false);
  const changeStatus = useChangeWorkOrderStatus();
  const transitions = allowedTransitions[workOrder.status] ?? [];

  async function moveTo(status: WorkOrderStatus) {
    setNotice(undefined);
    try {
      await changeStatus.mutateAsync({ id: workOrder.id, status, expectedUpdatedAt: workOrder.updatedAt });
      setNotice({ tone: 'success', text: `Status changed to ${workOrderStatusLabel(status)}.` });
      setIsConfirmingCancel(false);
    } catch (error) {
      setIsConfirmingCancel(false);
      setNotice(
        isConflict(error)
          ? { tone: 'error', text: workOrderMessages.conflict }
          : { tone: 'error', text: workOrderMessages.statusUpdateFailed(apiErrorMessage(error) ?? workOrderMessages.unexpected) },
      );
    }
  }

  const place = workOrderPlace(workOrder, customer);
  const scheduledLine = workOrder.scheduledDate
    ? `${formatCalendarDate(workOrder.scheduledDate.slice(0, 10))}${workOrder.scheduledStartTime ? ` at ${formatClockTime(workOrder.scheduledStartTime)}` : ''}${
        workOrder.scheduledEndTime ? ` – ${formatClockTime(workOrder.scheduledEndTime)}` : ''
      }`
    : undefined;

  return (
    <article aria-labelledby="work-order-title" className="space-y-5">
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
          <Button variant="secondary" onClick={() => setIsEditing(true)}>
            Edit Details
          </Button>
          {backLink}
        </div>
      </header>

      <div aria-live="polite" aria-atomic="true">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      </div>

      {possibleMatch ? (
        <PossibleMatchPanel
          match={possibleMatch}
          target={{ kind: 'work_order', id: workOrder.id }}
          expectedUpdatedAt={workOrder.updatedAt}
          onResolved={(text) => setNotice({ tone: 'success', text })}
        />
      ) : null}

      <div className="grid gap-5 lg:grid-cols-3">
        <div className="space-y-5 lg:col-span-2">
          <Card title="Customer">
            <p className="font-semibold">
              <Link to={customerProfilePath(customer.id)} className="text-brand-700 underline hover:text-brand-800">
                {customer.name}
              </Link>
            </p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="font-medium text-slate-700">Phone</dt>
              <dd>
                <a href={telHref(customer.phone)} className="text-brand-700 underline">
                  {customer.phone}
                </a>
              </dd>
              <dt className="font-medium text-slate-700">Email</dt>
              <dd className="break-all">
                {customer.email ? (
                  <a href={`mailto:${customer.email}`} className="text-brand-700 underline">
                    {customer.email}
                  </a>
                ) : (
                  'Not provided'
                )}
              </dd>
              <dt className="font-medium text-slate-700">Address</dt>
              <dd>
                <a href={mapsSearchUrl(customer)} target="_blank" rel="noreferrer" className="text-brand-700 underline">
                  {fullAddress(customer)}
                  <span className="sr-only"> (opens Google Maps in a new tab)</span>
                </a>
              </dd>
            </dl>
          </Card>

          <Card title="Service Details">
            <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-2">
              <Detail label={scheduledLine ? 'Scheduled' : 'Requested date'}>{scheduledLine ?? formatCalendarDate(workOrder.serviceDate)}</Detail>
              <Detail label="Time preference">
                {workOrderTimePreferenceLabels[workOrder.timePreference as keyof typeof workOrderTimePreferenceLabels] ?? workOrder.timePreference}
              </Detail>
              {place.isServiceAddress ? (
                <Detail label={customerMatchMessages.serviceAddress}>
                  <a href={mapsSearchUrl(addressLine(place))} target="_blank" rel="noreferrer" className="text-brand-700 underline">
                    {addressLine(place)}
                    <span className="sr-only"> (opens Google Maps in a new tab)</span>
                  </a>
                </Detail>
              ) : null}
              <Detail label="Service type">{serviceTypeLabel(workOrder.serviceType)}</Detail>
              <Detail label="Technician">{technician?.name ?? 'Unassigned'}</Detail>
              <Detail label="Estimated duration">
                {workOrder.estimatedDuration != null ? `${workOrder.estimatedDuration} ${workOrder.estimatedDuration === 1 ? 'hour' : 'hours'}` : 'Not set'}
              </Detail>
            </dl>
            <h3 className="mt-4 text-sm font-semibold text-slate-800">Description</h3>
            <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">{workOrder.description || 'No description'}</p>
            {workOrder.specialInstructions ? (
              <>
                <h3 className="mt-4 text-sm font-semibold text-slate-800">Special instructions</h3>
                <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">{workOrder.specialInstructions}</p>
              </>
            ) : null}
          </Card>

          {equipment ? (
            <Card title="Equipment">
              <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-2">
                <Detail label="Type">{equipment.equipmentType}</Detail>
                {equipment.location ? <Detail label="Location">{equipment.location}</Detail> : null}
                {equipment.brand ? <Detail label="Brand">{equipment.brand}</Detail> : null}
                {equipment.model ? <Detail label="Model">{equipment.model}</Detail> : null}
                {equipment.serialNumber ? <Detail label="Serial number">{equipment.serialNumber}</Detail> : null}
                {equipment.warrantyStatus ? <Detail label="Warranty">{equipment.warrantyStatus}</Detail> : null}
              </dl>
            </Card>
          ) : null}

          {inspectionReport ? (
            <Card title="Inspection Report">
              <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
                <Detail label="MCA">{inspectionReport.mca ?? '—'}</Detail>
                <Detail label="MOCP">{inspectionReport.mocp ?? '—'}</Detail>
                <Detail label="Temp split">{inspectionReport.tempSplit != null ? `${inspectionReport.tempSplit}°F` : '—'}</Detail>
                <Detail label="Static pressure">{inspectionReport.staticPressure != null ? `${inspectionReport.staticPressure} in. WC` : '—'}</Detail>
              </dl>
              {inspectionReport.inspectionItems.length > 0 ? (
                <ul aria-label="Inspection items" className="mt-3 flex flex-wrap gap-2">
                  {inspectionReport.inspectionItems.map((item) => (
                    <li key={item}>
                      <Badge tone="success">{inspectionItemLabel(item)}</Badge>
                    </li>
                  ))}
                </ul>
              ) : null}
            </Card>
          ) : null}

          <TasksCard workOrderId={workOrder.id} tasks={tasks} />
          <InspectionReportForm workOrderId={workOrder.id} />
          <NotesCard key={workOrder.updatedAt} workOrderId={workOrder.id} notes={workOrder.notes} updatedAt={workOrder.updatedAt} onNotice={setNotice} />
        </div>

        <div className="space-y-5">
          <Card title="Status & Actions">
            <ol aria-label="Timeline" className="space-y-3 text-sm">
              <TimelineStep label="Created" at={timeline.createdAt} />
              <TimelineStep label="Scheduled" at={timeline.scheduledAt ?? null} detail={scheduledLine} />
              <TimelineStep label="In Progress" at={timeline.startedAt} />
              <TimelineStep label="Completed" at={timeline.completedAt} />
            </ol>
            {workOrder.status === 'cancelled' ? <p className="mt-3 text-sm font-semibold text-red-800">This work order was cancelled.</p> : null}
            <div className="mt-4 flex flex-col gap-2">
              {transitions.includes('in-progress') ? (
                <Button variant="accent" onClick={() => void moveTo('in-progress')} disabled={changeStatus.isPending}>
                  Start Job
                </Button>
              ) : null}
              {transitions.includes('scheduled') ? (
                <Button variant="primary" onClick={() => setIsScheduling(true)} disabled={changeStatus.isPending}>
                  Schedule
                </Button>
              ) : null}
              {transitions.includes('completed') ? (
                <Button variant="primary" onClick={() => void moveTo('completed')} disabled={changeStatus.isPending}>
                  Complete Job
                </Button>
              ) : null}
              {transitions.includes('cancelled') ? (
                <Button variant="danger" onClick={() => setIsConfirmingCancel(true)} disabled={changeStatus.isPending}>
                  Cancel Work Order
                </Button>
              ) : null}
            </div>
          </Card>
        </div>
      </div>

      {isEditing ? (
        <EditDetailsDialog
          workOrder={workOrder}
          technicianName={technician?.name}
          onClose={() => setIsEditing(false)}
          onSaved={() => {
            setIsEditing(false);
            setNotice({ tone: 'success', text: workOrderMessages.updated });
          }}
        />
      ) : null}
      {isScheduling ? (
        <ScheduleDialog
          workOrder={workOrder}
          onClose={() => setIsScheduling(false)}
          onScheduled={() => {
            setIsScheduling(false);
            setNotice({ tone: 'success', text: workOrderMessages.scheduled });
          }}
          onConflict={() => {
            setIsScheduling(false);
            setNotice({ tone: 'error', text: workOrderMessages.conflict });
          }}
        />
      ) : null}
      {isConfirmingCancel ? (
        <ConfirmDialog
          title="Cancel this work order?"
          message={`${workOrderNumberLabel(workOrder)} “${workOrder.title}” will be marked cancelled. This cannot be undone.`}
          confirmLabel="Cancel Work Order"
          pendingLabel="Cancelling..."
          isPending={changeStatus.isPending}
          onConfirm={() => void moveTo('cancelled')}
          onCancel={() => setIsConfirmingCancel(false)}
        />
      ) : null}
    </article>
  );
}

function Card({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
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

function TasksCard({ workOrderId, tasks }: { workOrderId: string; tasks: WorkOrderDetailResponse['tasks'] }) {
  const idPrefix = useId();
  const [taskName, setTaskName] = useState('');
  const [minutes, setMinutes] = useState('');
  const [error, setError] = useState<string>();
  const addTask = useAddWorkOrderTask(workOrderId);
  const updateTask = useUpdateWorkOrderTask(workOrderId);
  // The box follows the click at once; the saved state replaces it when the refresh arrives.
  const [optimistic, setOptimistic] = useState<Record<string, boolean>>({});
  const isDone = (task: WorkOrderDetailResponse['tasks'][number]) => optimistic[task.id] ?? task.status === 'completed';
  const completed = tasks.filter(isDone).length;

  function toggle(taskId: string, done: boolean) {
    setError(undefined);
    setOptimistic((current) => ({ ...current, [taskId]: done }));
    updateTask.mutate(
      { taskId, status: done ? 'completed' : 'pending' },
      {
        onError: (failure) => setError(`Error updating task: ${apiErrorMessage(failure) ?? workOrderMessages.unexpected}`),
        onSettled: () =>
          setOptimistic((current) => {
            const next = { ...current };
            delete next[taskId];
            return next;
          }),
      },
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    if (!taskName.trim()) {
      setError('Task name is required');
      return;
    }
    try {
      await addTask.mutateAsync({ taskName: taskName.trim(), status: 'pending', timeSpentMinutes: minutes ? Number(minutes) : null });
      setTaskName('');
      setMinutes('');
    } catch (failure) {
      setError(`Error adding task: ${apiErrorMessage(failure) ?? workOrderMessages.unexpected}`);
    }
  }

  return (
    <Card title="Task Checklist">
      {tasks.length > 0 ? (
        <>
          <p className="text-sm text-slate-700">
            {completed} of {tasks.length} completed
          </p>
          <ul className="mt-2 space-y-2">
            {tasks.map((task) => (
              <li key={task.id} className="flex items-center gap-3">
                <input
                  id={`${idPrefix}-${task.id}`}
                  type="checkbox"
                  checked={isDone(task)}
                  onChange={(event) => toggle(task.id, event.target.checked)}
                  className="h-5 w-5 rounded border-slate-400 text-brand-700"
                />
                <label htmlFor={`${idPrefix}-${task.id}`} className={`text-sm ${isDone(task) ? 'text-slate-600 line-through' : 'text-slate-900'}`}>
                  {task.taskName}
                  {task.timeSpentMinutes != null ? <span className="text-slate-600"> · {task.timeSpentMinutes} min</span> : null}
                </label>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="text-sm text-slate-600">No tasks yet.</p>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Add task" className="mt-4 grid gap-3 sm:grid-cols-[1fr_8rem_auto] sm:items-end">
        <FormField id={`${idPrefix}-name`} label="New task">
          <input id={`${idPrefix}-name`} value={taskName} onChange={(event) => setTaskName(event.target.value)} maxLength={200} className={controlClass} />
        </FormField>
        <FormField id={`${idPrefix}-minutes`} label="Minutes">
          <input id={`${idPrefix}-minutes`} type="number" min={0} inputMode="numeric" value={minutes} onChange={(event) => setMinutes(event.target.value)} className={controlClass} />
        </FormField>
        <Button type="submit" variant="secondary" disabled={addTask.isPending}>
          {addTask.isPending ? 'Adding...' : 'Add Task'}
        </Button>
      </form>
      <div aria-live="assertive">{error ? <Alert className="mt-3">{error}</Alert> : null}</div>
    </Card>
  );
}

function InspectionReportForm({ workOrderId }: { workOrderId: string }) {
  const idPrefix = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [values, setValues] = useState({ mca: '', mocp: '', tempSplit: '', staticPressure: '', items: '' });
  const [message, setMessage] = useState<Notice>();
  const addReport = useAddInspectionReport(workOrderId);
  const toNumber = (value: string) => (value.trim() === '' || Number.isNaN(Number(value)) ? null : Number(value));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(undefined);
    const inspectionItems = values.items
      .split(/[,\n]/)
      .map((item) =>
        item
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_+|_+$/g, ''),
      )
      .filter(Boolean);
    try {
      await addReport.mutateAsync({
        mca: toNumber(values.mca),
        mocp: toNumber(values.mocp),
        tempSplit: toNumber(values.tempSplit),
        staticPressure: toNumber(values.staticPressure),
        inspectionItems,
      });
      setValues({ mca: '', mocp: '', tempSplit: '', staticPressure: '', items: '' });
      setIsOpen(false);
      setMessage({ tone: 'success', text: 'Inspection report saved.' });
    } catch (failure) {
      setMessage({ tone: 'error', text: `Error saving inspection report: ${apiErrorMessage(failure) ?? workOrderMessages.unexpected}` });
    }
  }

  const numberField = (name: 'mca' | 'mocp' | 'tempSplit' | 'staticPressure', label: string) => (
    <FormField id={`${idPrefix}-${name}`} label={label}>
      <input
        id={`${idPrefix}-${name}`}
        type="number"
        step="any"
        inputMode="decimal"
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        className={controlClass}
      />
    </FormField>
  );

  return (
    <Card
      title="Record Inspection"
      actions={
        <Button variant="secondary" size="sm" aria-expanded={isOpen} onClick={() => setIsOpen((open) => !open)}>
          {isOpen ? 'Close' : 'Record Inspection Report'}
        </Button>
      }
    >
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>
      {isOpen ? (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Inspection report" className="mt-3 space-y-3">
          <div className="grid gap-3 sm:grid-cols-2">
            {numberField('mca', 'MCA (A)')}
            {numberField('mocp', 'MOCP (A)')}
            {numberField('tempSplit', 'Temp split (°F)')}
            {numberField('staticPressure', 'Static pressure (in. WC)')}
          </div>
          <FormField id={`${idPrefix}-items`} label="Inspection items" hint="(one per line or comma-separated)">
            <textarea
              id={`${idPrefix}-items`}
              rows={3}
              value={values.items}
              onChange={(event) => setValues((current) => ({ ...current, items: event.target.value }))}
              placeholder="Filter replaced, Coils cleaned"
              className={controlClass}
            />
          </FormField>
          <div className="flex justify-end">
            <Button type="submit" disabled={addReport.isPending}>
              {addReport.isPending ? 'Saving...' : 'Save Inspection Report'}
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-sm text-slate-600">Readings and checks from the visit.</p>
      )}
    </Card>
  );
}

function NotesCard({
  workOrderId,
  notes,
  updatedAt,
  onNotice,
}: {
  workOrderId: string;
  notes: string | null;
  updatedAt: string;
  onNotice: (notice: Notice) => void;
}) {
  const notesId = useId();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const [isEditing, setIsEditing] = useState(false);
  const [draft, setDraft] = useState(notes ?? '');
  const [error, setError] = useState<string>();
  const save = useUpdateWorkOrderNotes(workOrderId);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    try {
      await save.mutateAsync({ notes: draft, expectedUpdatedAt: updatedAt });
      setIsEditing(false);
      onNotice({ tone: 'success', text: 'Notes saved.' });
    } catch (failure) {
      if (isConflict(failure)) {
        setError(workOrderMessages.conflict);
        return;
      }
      setError(workOrderMessages.notesUpdateFailed(apiErrorMessage(failure) ?? workOrderMessages.unexpected));
    }
  }

  return (
    <Card
      title="Technical Notes"
      actions={
        isEditing ? null : (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setDraft(notes ?? '');
              setIsEditing(true);
              requestAnimationFrame(() => textareaRef.current?.focus());
            }}
          >
            {notes ? 'Edit Notes' : 'Add Notes'}
          </Button>
        )
      }
    >
      <div aria-live="assertive">{error ? <Alert className="mb-3">{error}</Alert> : null}</div>
      {isEditing ? (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Technical notes" className="space-y-3">
          <label htmlFor={notesId} className="block text-sm font-medium text-slate-800">
            Notes
          </label>
          <textarea ref={textareaRef} id={notesId} rows={5} maxLength={10_000} value={draft} onChange={(event) => setDraft(event.target.value)} className={controlClass} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setIsEditing(false)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Notes'}
            </Button>
          </div>
        </form>
      ) : notes ? (
        <p className="text-sm whitespace-pre-wrap text-slate-800">{notes}</p>
      ) : (
        <p className="text-sm text-slate-600">No technical notes yet.</p>
      )}
    </Card>
  );
}
