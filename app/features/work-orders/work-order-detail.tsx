import { useState } from 'react';
import type { WorkOrderStatus } from '#shared/enums.ts';
import { workOrderMessages } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/dialog.tsx';
import { apiErrorMessage, PossibleMatchPanel } from '#client/features/customers/index.ts';
import { CreateInvoiceButton } from '#client/features/invoices/index.ts';
import { QuotesPanel } from '#client/features/quotes/index.ts';
import { isConflict, isNotFound, useChangeWorkOrderStatus, useWorkOrderDetail, type WorkOrderDetailResponse } from './api.ts';
import { workOrderNumberLabel, workOrderStatusLabel } from './labels.ts';
import type { Notice } from './detail-card.tsx';
import { EditDetailsDialog } from './edit-details-dialog.tsx';
import { InspectionReportForm } from './inspection-report-form.tsx';
import { ScheduleDialog } from './schedule-dialog.tsx';
import { CustomerCard, EquipmentCard, InspectionReportCard, scheduledLine, ServiceDetailsCard } from './work-order-info.tsx';
import { CompletionCard, StepsCard, TechNotesCard } from './work-order-field.tsx';
import { NotesCard } from './work-order-notes.tsx';
import { BackToListLink, StatusActionsCard, WorkOrderHeader } from './work-order-status.tsx';
import { WorkOrderMessagesCard } from './work-order-messages.tsx';
import { TasksCard } from './work-order-tasks.tsx';

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
          <BackToListLink />
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
          <BackToListLink />
        </div>
      </div>
    );
  }
  return <WorkOrderDetailView data={detail.data} />;
}

/**
 * The loaded work order: its sections (each in its own file next to this one), the screen's notice,
 * and the status changes with the dialogs they open (edit details, schedule, confirm cancel).
 */
function WorkOrderDetailView({ data }: { data: WorkOrderDetailResponse }) {
  const { workOrder, customer, technician, equipment, inspectionReport, tasks, timeline, possibleMatch, completion, techNotes, steps } = data;
  const [notice, setNotice] = useState<Notice>();
  const [isScheduling, setIsScheduling] = useState(false);
  const [isEditing, setIsEditing] = useState(false);
  const [isConfirmingCancel, setIsConfirmingCancel] = useState(false);
  const changeStatus = useChangeWorkOrderStatus();

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

  return (
    <article aria-labelledby="work-order-title" className="space-y-5">
      <WorkOrderHeader workOrder={workOrder} onEdit={() => setIsEditing(true)} />

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
          {completion ? <CompletionCard completion={completion} /> : null}
          <CustomerCard customer={customer} />
          <ServiceDetailsCard workOrder={workOrder} customer={customer} technician={technician} />
          {equipment ? <EquipmentCard equipment={equipment} /> : null}
          {inspectionReport ? <InspectionReportCard report={inspectionReport} /> : null}
          <TasksCard workOrderId={workOrder.id} tasks={tasks} />
          {techNotes && techNotes.length > 0 ? <TechNotesCard notes={techNotes} /> : null}
          <InspectionReportForm workOrderId={workOrder.id} />
          <NotesCard key={workOrder.updatedAt} workOrderId={workOrder.id} notes={workOrder.notes} updatedAt={workOrder.updatedAt} onNotice={setNotice} />
        </div>

        <div className="space-y-5">
          <StatusActionsCard
            workOrder={workOrder}
            timeline={timeline}
            scheduledLine={scheduledLine(workOrder)}
            isPending={changeStatus.isPending}
            onMove={(status) => void moveTo(status)}
            onSchedule={() => setIsScheduling(true)}
            onCancel={() => setIsConfirmingCancel(true)}
          />
          {workOrder.status === 'completed' ? <CreateInvoiceButton workOrderId={workOrder.id} /> : null}
          <QuotesPanel
            source={{ customerId: workOrder.customerId, workOrderId: workOrder.id }}
            filter={{ workOrderId: workOrder.id }}
            defaultTitle={workOrder.title}
            showApprovedLines
          />
          {steps ? <StepsCard steps={steps} /> : null}
          <WorkOrderMessagesCard workOrder={workOrder} technicianName={technician?.name} />
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
