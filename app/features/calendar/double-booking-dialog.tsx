import type { CalendarOverlap } from '#shared/calendar.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { OverlapList } from './overlap-list.tsx';

/** A drag or resize that double-books a technician: what it collides with, then Cancel or Book Anyway. */
export function DoubleBookingDialog({
  message,
  overlaps,
  isPending,
  onCancel,
  onConfirm,
}: {
  message: string;
  overlaps: CalendarOverlap[];
  isPending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog title="Double booking" description={message} onClose={onCancel}>
      <OverlapList overlaps={overlaps} />
      <p className="mt-3 text-sm text-slate-700">Book the technician for both appointments anyway?</p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" autoFocus onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="destructive" disabled={isPending} onClick={onConfirm}>
          Book Anyway
        </Button>
      </div>
    </Dialog>
  );
}
