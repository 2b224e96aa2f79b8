import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import interactionPlugin from '@fullcalendar/react/interaction';
import classicThemePlugin from '@fullcalendar/react/themes/classic';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import type { CalendarRef, DateSelectInfo, EventClickInfo, EventDropInfo, EventInput, EventResizeDoneInfo } from '@fullcalendar/react';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { calendarDayEnd, calendarDayStart, calendarMessages, type CalendarEvent, type CalendarOverlap, type CalendarRangeEvent } from '#shared/calendar.ts';
import { todayIn } from '#shared/dates.ts';
import { activeWorkOrderStatuses } from '#shared/enums.ts';
import { fieldStepText } from '#shared/tech.ts';
import { workOrderMessages } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { company } from '#client/lib/company.ts';
import { failureMessage, isStale, overlapsOf, useCalendarEvent, useCalendarRange, useRescheduleAppointment } from './api.ts';
import { AppointmentDialog, type AppointmentDraft } from './appointment-dialog.tsx';
import { datePart, timePart, useCalendarAddress } from './calendar-address.ts';
import { CalendarLegend } from './calendar-legend.tsx';
import { contrastText, eventColor } from './colors.ts';
import { DoubleBookingDialog } from './double-booking-dialog.tsx';
import { EditAppointment } from './edit-appointment.tsx';
import { EventDialog } from './event-dialog.tsx';

// FullCalendar's options as constants: a new array or object on every render would make it
// rebuild, which drops a drag in progress whenever the screen re-renders.
const plugins = [dayGridPlugin, timeGridPlugin, interactionPlugin, classicThemePlugin];
const headerToolbar = { start: 'prev,next today', center: 'title', end: 'dayGridMonth,timeGridWeek,timeGridDay' };
const buttonTexts = { today: { text: 'Today' }, dayGridMonth: { text: 'Month' }, timeGridWeek: { text: 'Week' }, timeGridDay: { text: 'Day' } };
const slotMinTime = `${calendarDayStart}:00`;
const slotMaxTime = `${calendarDayEnd}:00`;

/** Spec 001 section 5: a new appointment runs 08:00-17:00 unless a range was selected. */
const defaultStart = '08:00';
const defaultEnd = '17:00';

type OverlapQuestion = { message: string; overlaps: CalendarOverlap[]; confirm: () => Promise<void>; cancel: () => void };
type Notice = { tone: 'error' | 'success'; text: string };

/**
 * The service calendar (spec 001 sections 2-9): FullCalendar fed from TanStack Query, one query per
 * visible range (key ['calendar', start, end]), so the live updates' invalidation of ['calendar']
 * refetches what is on screen. Drags and resizes save the whole appointment on the version shown
 * and revert on failure; a double booking is confirmed first.
 */
export function ServiceCalendar() {
  const { initialDate, initialView, range, onDatesSet } = useCalendarAddress();
  const calendar = useCalendarRange(range);
  const reschedule = useRescheduleAppointment();
  const [notice, setNotice] = useState<Notice>();
  const [overlapQuestion, setOverlapQuestion] = useState<OverlapQuestion>();
  /** The clicked appointment; its modal shows the whole appointment, read when opened and again after each change. */
  const [clicked, setClicked] = useState<CalendarRangeEvent>();
  const opened = useCalendarEvent(clicked?.id);
  const [dialog, setDialog] = useState<{ mode: 'create'; draft: AppointmentDraft } | { mode: 'edit'; event: CalendarEvent }>();
  const calendarRef = useRef<CalendarRef>(null);

  const appointments = calendar.data?.events;
  const events = useMemo<EventInput[]>(
    () =>
      (appointments ?? []).map((appointment) => {
        const color = eventColor(appointment);
        // The field's latest step leads the title (issue 19): "On site 10:05 AM · Tune-up · Rivera".
        const field = appointment.field;
        return {
          id: appointment.id,
          // A maintenance plan member (issue 22) gets priority service: "Member" leads the title.
          title: `${field ? `${fieldStepText(field, company.timeZone)} · ` : ''}${appointment.isMember ? 'Member · ' : ''}${appointment.title} · ${appointment.customer.name}`,
          start: `${appointment.serviceDate}T${appointment.startTime}:00`,
          end: `${appointment.serviceDate}T${appointment.endTime}:00`,
          color,
          contrastColor: contrastText(color),
          // Completed and cancelled jobs are history: they stay where they are.
          editable: (activeWorkOrderStatuses as readonly string[]).includes(appointment.status),
          extendedProps: { appointment },
        };
      }),
    [appointments],
  );

  // While an appointment is dragged or resized, new data waits: a live update would redraw it.
  const [isInteracting, setIsInteracting] = useState(false);
  const [shownEvents, setShownEvents] = useState(events);
  if (!isInteracting && shownEvents !== events) setShownEvents(events);

  // The last copy read stays shown if a refetch fails (the appointment deleted meanwhile, say).
  const selected: CalendarEvent | undefined = clicked ? opened.data?.event : undefined;
  const openFailed = Boolean(clicked && !opened.data && opened.isError);

  async function saveTimes(info: EventDropInfo | EventResizeDoneInfo, failedAlert: string) {
    const appointment = info.event.extendedProps.appointment as CalendarRangeEvent;
    const start = info.event.startStr;
    const end = info.event.endStr || start;
    const body = {
      id: appointment.id,
      serviceDate: datePart(start),
      startTime: timePart(start),
      endTime: timePart(end),
      expectedUpdatedAt: appointment.updatedAt,
    };
    setNotice(undefined);
    const fail = (error: unknown) => {
      info.revert();
      setNotice({ tone: 'error', text: isStale(error) ? `${failedAlert}: ${workOrderMessages.conflict}` : failureMessage(failedAlert, error) });
    };
    const done = () => setNotice({ tone: 'success', text: `${appointment.title} moved to ${body.serviceDate}, ${body.startTime}-${body.endTime}.` });
    try {
      await reschedule.mutateAsync(body);
      done();
    } catch (error) {
      const overlap = overlapsOf(error);
      if (!overlap) {
        fail(error);
        return;
      }
      setOverlapQuestion({
        ...overlap,
        confirm: async () => {
          try {
            await reschedule.mutateAsync({ ...body, allowOverlap: true });
            done();
          } catch (again) {
            fail(again);
          }
        },
        cancel: () => info.revert(),
      });
    }
  }

  function openCreate(draft: AppointmentDraft) {
    setNotice(undefined);
    setDialog({ mode: 'create', draft });
  }

  function onSelect(info: DateSelectInfo) {
    calendarRef.current?.getApi().unselect();
    // A day picked in the month view has no times: the spec's defaults apply.
    const hasTimes = info.startStr.length > 10;
    openCreate({
      serviceDate: datePart(info.startStr),
      startTime: hasTimes ? timePart(info.startStr) : defaultStart,
      endTime: hasTimes ? timePart(info.endStr) : defaultEnd,
    });
  }

  // Not isFetching: a background refetch (a live update) must not re-render the calendar by itself.
  const isLoading = calendar.isPending || calendar.isPlaceholderData;

  // The handlers FullCalendar holds stay the same functions across renders; each calls the latest.
  const latest = useRef({ onSelect, saveTimes });
  useEffect(() => {
    latest.current = { onSelect, saveTimes };
  });
  const handlers = useMemo(
    () => ({
      select: (info: DateSelectInfo) => latest.current.onSelect(info),
      eventClick: (info: EventClickInfo) => {
        info.jsEvent.preventDefault();
        setNotice(undefined);
        setClicked(info.event.extendedProps.appointment as CalendarRangeEvent);
      },
      eventDrop: (info: EventDropInfo) => void latest.current.saveTimes(info, calendarMessages.rescheduleFailed),
      eventResize: (info: EventResizeDoneInfo) => void latest.current.saveTimes(info, calendarMessages.durationFailed),
      startInteraction: () => setIsInteracting(true),
      stopInteraction: () => setIsInteracting(false),
    }),
    [],
  );

  return (
    <section aria-labelledby="calendar-title" className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="calendar-title" className="text-2xl font-bold text-slate-900">
            {calendarMessages.title}
          </h1>
          <p className="mt-1 text-sm text-slate-600">{calendarMessages.subtitle}</p>
        </div>
        <Button variant="accent" onClick={() => openCreate({ serviceDate: todayIn(company.timeZone), startTime: defaultStart, endTime: defaultEnd })}>
          + New Appointment
        </Button>
      </div>

      <CalendarLegend />

      <div aria-live="assertive" className="space-y-2">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
        {openFailed ? (
          <Alert>
            {calendarMessages.openFailed}{' '}
            <Button size="sm" variant="secondary" onClick={() => void opened.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : null}
        {calendar.isError ? (
          <Alert>
            The calendar could not be loaded.{' '}
            <Button size="sm" variant="secondary" onClick={() => void calendar.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : null}
      </div>
      <p role="status" className="min-h-5 text-sm text-slate-600">
        {isLoading ? calendarMessages.loading : ''}
      </p>

      <div className="service-calendar rounded-lg border border-slate-200 bg-white p-2 shadow-sm sm:p-4" aria-busy={isLoading}>
        <FullCalendar
          ref={calendarRef}
          plugins={plugins}
          initialView={initialView}
          initialDate={initialDate}
          headerToolbar={headerToolbar}
          buttons={buttonTexts}
          weekends
          allDaySlot={false}
          slotMinTime={slotMinTime}
          slotMaxTime={slotMaxTime}
          slotDuration="01:00:00"
          // Taller hour rows than the theme's: a quarter hour is a 12 px target for drags and resizes.
          slotMinHeight={48}
          snapDuration="00:15:00"
          height="auto"
          editable
          selectable
          selectMirror
          eventInteractive
          dayMaxEventRows={5}
          longPressDelay={500}
          events={shownEvents}
          datesSet={onDatesSet}
          select={handlers.select}
          eventClick={handlers.eventClick}
          eventDragStart={handlers.startInteraction}
          eventDragStop={handlers.stopInteraction}
          eventResizeStart={handlers.startInteraction}
          eventResizeStop={handlers.stopInteraction}
          eventDrop={handlers.eventDrop}
          eventResize={handlers.eventResize}
        />
      </div>

      {selected && !dialog ? (
        <EventDialog
          event={selected}
          onClose={() => setClicked(undefined)}
          onEdit={() => setDialog({ mode: 'edit', event: selected })}
          onDeleted={(text) => {
            setClicked(undefined);
            setNotice({ tone: 'success', text });
          }}
        />
      ) : null}

      {dialog?.mode === 'create' ? (
        <AppointmentDialog
          mode="create"
          draft={dialog.draft}
          onClose={() => setDialog(undefined)}
          onSaved={(text) => {
            setDialog(undefined);
            setClicked(undefined);
            setNotice({ tone: 'success', text });
          }}
        />
      ) : null}
      {dialog?.mode === 'edit' ? (
        <EditAppointment
          event={dialog.event}
          onClose={() => setDialog(undefined)}
          onSaved={(text) => {
            setDialog(undefined);
            setClicked(undefined);
            setNotice({ tone: 'success', text });
          }}
        />
      ) : null}

      {overlapQuestion ? (
        <DoubleBookingDialog
          message={overlapQuestion.message}
          overlaps={overlapQuestion.overlaps}
          isPending={reschedule.isPending}
          onCancel={() => {
            overlapQuestion.cancel();
            setOverlapQuestion(undefined);
          }}
          onConfirm={() => {
            const question = overlapQuestion;
            setOverlapQuestion(undefined);
            void question.confirm();
          }}
        />
      ) : null}
    </section>
  );
}
