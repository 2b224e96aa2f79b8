import { calendarMessages, type CalendarEvent } from '#shared/calendar.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { apiErrorMessage } from '#client/features/customers/index.ts';
import { useWorkOrderDetail } from '#client/features/work-orders/index.ts';
import { AppointmentDialog } from './appointment-dialog.tsx';

/**
 * 'Edit Appointment': the calendar's range carries no long texts, so the description and notes are
 * read first. The edit stays based on the version the calendar showed (`event.updatedAt`): a change
 * made since then, to any field, is caught as a conflict when saving.
 */
export function EditAppointment({ event, onClose, onSaved }: { event: CalendarEvent; onClose: () => void; onSaved: (message: string) => void }) {
  const detail = useWorkOrderDetail(event.id);
  if (detail.isSuccess) {
    const { description, notes } = detail.data.workOrder;
    return <AppointmentDialog mode="edit" event={{ ...event, description, notes }} onClose={onClose} onSaved={onSaved} />;
  }
  return (
    <Dialog title="Edit Appointment" onClose={onClose}>
      {detail.isError ? (
        <div className="mt-4 space-y-4">
          <Alert>{`${calendarMessages.updateFailed}: ${apiErrorMessage(detail.error) ?? 'the appointment could not be loaded'}`}</Alert>
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button onClick={() => void detail.refetch()}>Try again</Button>
          </div>
        </div>
      ) : (
        <p role="status" className="mt-4 text-slate-600">
          Loading appointment...
        </p>
      )}
    </Dialog>
  );
}
