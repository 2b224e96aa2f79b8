import type { CalendarOverlap } from '#shared/calendar.ts';
import { formatCalendarDate } from '#client/features/work-orders/index.ts';

/** The jobs a double booking would collide with (409 SCHEDULE_OVERLAP details). */
export function OverlapList({ overlaps }: { overlaps: CalendarOverlap[] }) {
  if (overlaps.length === 0) return null;
  return (
    <ul aria-label="Conflicting appointments" className="mt-2 list-disc space-y-1 pl-5">
      {overlaps.map((overlap) => (
        <li key={overlap.id}>
          {overlap.workOrderNumber ? `${overlap.workOrderNumber} · ` : ''}
          {overlap.title}: {formatCalendarDate(overlap.serviceDate)}, {overlap.startTime}-{overlap.endTime}
        </li>
      ))}
    </ul>
  );
}
