import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { techOfflineDays, type TechVisit } from '#shared/tech.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { priorityLabel, priorityTone } from '#client/lib/work-order-labels.ts';
import { navigateUrl, offlineDays, siteAddress, stepLabels, techToday, telUrl, visitStep, visitWindow } from './format.ts';
import { useTechSnapshot, useTechStatus } from './runtime.ts';

export const techVisitPath = (id: string) => `/tech/visits/${encodeURIComponent(id)}`;

/** Set once a page load, when My day first shows visits (from the device's copy or the server): what bench/tech.ts times. */
export const techDayReadyMark = 'tech:day-ready';

/**
 * Marks `tech:day-ready` after the visits are painted (the next frame) and the main thread has
 * taken its next task (a tap would be handled), once per page load.
 */
function useDayReadyMark(hasVisits: boolean) {
  useEffect(() => {
    if (!hasVisits || typeof performance === 'undefined' || performance.getEntriesByName(techDayReadyMark).length > 0) return;
    const frame = requestAnimationFrame(() =>
      setTimeout(() => {
        if (performance.getEntriesByName(techDayReadyMark).length === 0) performance.mark(techDayReadyMark);
      }, 0),
    );
    return () => cancelAnimationFrame(frame);
  }, [hasVisits]);
}

function StepBadge({ visit }: { visit: TechVisit }) {
  const step = visitStep(visit);
  const tone = step === 'completed' ? 'success' : step === 'cancelled' ? 'danger' : step === 'not-started' ? 'neutral' : 'primary';
  return <Badge tone={tone}>{step === 'not-started' ? 'Scheduled' : stepLabels[step]}</Badge>;
}

/** My day: the chosen day's visits in time order, the next visit on top with Navigate and Call. */
export function MyDay() {
  const snapshot = useTechSnapshot();
  const status = useTechStatus();
  const [searchParams, setSearchParams] = useSearchParams();
  // The business's days (its time zone), read at each render so a page left open past midnight moves on.
  const today = techToday();
  const days = useMemo(() => offlineDays(today, techOfflineDays), [today]);
  const selected = days.find((day) => day.date === searchParams.get('day')) ?? days[0]!;
  useDayReadyMark(Boolean(snapshot && snapshot.visits.length > 0));

  if (!snapshot || (!status.checked && snapshot.visits.length === 0)) {
    return (
      <p role="status" className="rounded-lg bg-white p-8 text-center text-slate-700">
        Loading your day...
      </p>
    );
  }
  const upcoming = snapshot.visits.filter((visit) => visit.serviceDate >= days[0]!.date);
  const next = upcoming.find((visit) => visit.status !== 'completed' && visit.status !== 'cancelled');
  const dayVisits = upcoming.filter((visit) => visit.serviceDate === selected.date);
  const needsChoice = snapshot.queue.filter((item) => item.state !== 'pending');

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-950">My day</h1>
      {needsChoice.length > 0 ? (
        <div role="alert" className="rounded-lg border-2 border-red-700 bg-red-50 p-3 text-red-900">
          <p className="font-semibold">
            {needsChoice.length === 1 ? 'A change needs your attention' : `${needsChoice.length} changes need your attention`}
          </p>
          <ul className="mt-1">
            {[...new Set(needsChoice.map((item) => item.visitId))].map((visitId) => (
              <li key={visitId}>
                <Link className="inline-flex min-h-12 items-center font-semibold underline" to={techVisitPath(visitId)}>
                  Open {snapshot.visits.find((visit) => visit.id === visitId)?.title ?? 'the visit'}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {next ? <NextVisit visit={next} /> : null}
      <nav aria-label="Days">
        <ul className="grid grid-cols-3 gap-2">
          {days.map((day) => {
            const count = upcoming.filter((visit) => visit.serviceDate === day.date).length;
            const isSelected = day.date === selected.date;
            return (
              <li key={day.date}>
                <button
                  type="button"
                  aria-pressed={isSelected}
                  onClick={() => setSearchParams(day.date === days[0]!.date ? {} : { day: day.date }, { replace: true })}
                  className={`min-h-12 w-full rounded-md px-2 text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${isSelected ? 'bg-brand-800 text-white' : 'border border-slate-300 bg-white text-slate-900'}`}
                >
                  {day.label} <span className="font-normal">({count})</span>
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      <section aria-labelledby="day-heading">
        <h2 id="day-heading" className="mb-2 text-lg font-semibold">
          {selected.label === 'Today' ? "Today's visits" : selected.label === 'Tomorrow' ? "Tomorrow's visits" : `Visits on ${selected.label}`}
        </h2>
        {dayVisits.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-400 bg-white p-6 text-center text-slate-800">
            {status.online || snapshot.syncedAt ? 'No visits this day.' : 'No visits on this phone yet. Connect to the internet to load your day.'}
          </p>
        ) : (
          <ol className="space-y-2">
            {dayVisits.map((visit) => (
              <li key={visit.id}>
                <Link
                  to={techVisitPath(visit.id)}
                  className="block rounded-lg border border-slate-300 bg-white p-3 shadow-sm hover:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                >
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="text-base font-bold text-slate-950">{visitWindow(visit)}</span>
                    <Badge tone={priorityTone(visit.priority)}>{priorityLabel(visit.priority)}</Badge>
                    <StepBadge visit={visit} />
                  </span>
                  <span className="mt-1 block text-lg font-semibold text-slate-950">{visit.customer.name}</span>
                  <span className="block text-slate-800">{siteAddress(visit.site)}</span>
                  <span className="block text-slate-800">{visit.title}</span>
                </Link>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function NextVisit({ visit }: { visit: TechVisit }) {
  return (
    <section aria-labelledby="next-visit" className="rounded-lg border-2 border-brand-700 bg-white p-4 shadow">
      <h2 id="next-visit" className="text-sm font-bold tracking-wide text-brand-800 uppercase">
        Next visit
      </h2>
      <p className="mt-1 flex flex-wrap items-center gap-2">
        <span className="text-lg font-bold">{visitWindow(visit)}</span>
        <Badge tone={priorityTone(visit.priority)}>{priorityLabel(visit.priority)}</Badge>
        <StepBadge visit={visit} />
      </p>
      <p className="mt-1 text-xl font-semibold">{visit.customer.name}</p>
      <p className="text-slate-800">{siteAddress(visit.site)}</p>
      <p className="text-slate-800">{visit.title}</p>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <a href={navigateUrl(visit.site)} target="_blank" rel="noreferrer" className={buttonClass('primary', 'md', 'min-h-12 text-base')}>
          Navigate<span className="sr-only"> to {visit.customer.name}</span>
        </a>
        <a href={telUrl(visit.customer.phone)} className={buttonClass('secondary', 'md', 'min-h-12 text-base')}>
          Call<span className="sr-only"> {visit.customer.name}</span>
        </a>
      </div>
      <Link to={techVisitPath(visit.id)} className={buttonClass('accent', 'md', 'mt-2 min-h-12 w-full text-base')}>
        Open visit<span className="sr-only">: {visit.title}</span>
      </Link>
    </section>
  );
}
