import type { DatesSetInfo } from '@fullcalendar/react';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isValidIsoDate, todayIn } from '#shared/dates.ts';
import { company } from '#client/lib/company.ts';

const views = ['dayGridMonth', 'timeGridWeek', 'timeGridDay'] as const;
type ViewName = (typeof views)[number];

/** 'YYYY-MM-DDTHH:MM...' (FullCalendar's local strings) → date and 'HH:MM'. */
export const datePart = (value: string) => value.slice(0, 10);
export const timePart = (value: string) => value.slice(11, 16);

function phoneSized(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(max-width: 639px)').matches;
}

/** A Date at local midnight as 'YYYY-MM-DD' on the browser's clock (FullCalendar's local dates). */
function toLocalDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/**
 * What the calendar shows, kept in the address: it opens on `?date=YYYY-MM-DD&view=...` (else today,
 * the week view, or the day view on a phone), and the visible date and view go back into the address
 * after each change (after render: FullCalendar reports them while rendering), so a reload or a
 * shared link opens the same week. `range` is the visible range the calendar's query reads.
 */
export function useCalendarAddress() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [initialDate] = useState(() => {
    const requested = searchParams.get('date') ?? '';
    return isValidIsoDate(requested) ? requested : todayIn(company.timeZone);
  });
  const [initialView] = useState<ViewName>(() => {
    const requested = searchParams.get('view') as ViewName | null;
    if (requested && views.includes(requested)) return requested;
    return phoneSized() ? 'timeGridDay' : 'timeGridWeek';
  });
  const [range, setRange] = useState<{ start: string; end: string }>();

  const [visible, setVisible] = useState<{ date: string; view: string }>();
  const onDatesSet = useCallback((info: DatesSetInfo) => {
    const next = { start: datePart(info.startStr), end: datePart(info.endStr) };
    setRange((current) => (current?.start === next.start && current.end === next.end ? current : next));
    const date = toLocalDate(info.view.currentStart);
    setVisible((current) => (current?.date === date && current.view === info.view.type ? current : { date, view: info.view.type }));
  }, []);
  useEffect(() => {
    if (!visible) return;
    setSearchParams(
      (current) => {
        if (current.get('date') === visible.date && current.get('view') === visible.view) return current;
        const params = new URLSearchParams(current);
        params.set('date', visible.date);
        params.set('view', visible.view);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [visible, setSearchParams]);

  return { initialDate, initialView, range, onDatesSet };
}
