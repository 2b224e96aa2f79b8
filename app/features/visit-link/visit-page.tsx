import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { OpenWindowText } from '#shared/booking.ts';
import { telHref } from '#shared/company-profile.ts';
import { formatAppointmentDate, formatAppointmentWindow } from '#shared/messaging.ts';
import { visitMessages, type VisitPage } from '#shared/visit.ts';
import { DocumentLinkProblem } from '#client/components/document-link-problem.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { cancelVisit, customerVisitKey, fetchVisit, fetchVisitWindows, rescheduleVisit } from './api.ts';

const statusLines: Record<VisitPage['status'], string> = {
  scheduled: 'Booked',
  pending: 'Waiting for a time',
  'in-progress': 'Under way',
  completed: 'Done',
  cancelled: 'Cancelled',
};

const windowKey = (window: OpenWindowText) => `${window.date} ${window.start}-${window.end}`;

/**
 * The customer's visit from its link (issue 21), no account: the day and arrival window, the
 * address, the technician's first name, what to have ready and the phone; "Choose another time"
 * (the open windows now) and "Cancel visit" up to the cut-off.
 */
export function VisitLinkPage({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const visit = useQuery({
    queryKey: customerVisitKey(token),
    queryFn: ({ signal }) => fetchVisit(token, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  const [mode, setMode] = useState<'view' | 'reschedule' | 'cancel'>('view');
  const [windows, setWindows] = useState<OpenWindowText[]>();
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const focusRef = useRef<HTMLElement | null>(null);
  const focusNext = useRef(false);

  useEffect(() => {
    if (!focusNext.current) return;
    focusNext.current = false;
    focusRef.current?.focus();
  });

  if (visit.isPending) {
    return (
      <p role="status" className="p-8 text-center text-slate-600">
        Loading your visit…
      </p>
    );
  }
  if (visit.isError) return <DocumentLinkProblem documentName="Visit" error={visit.error} onRetry={() => void visit.refetch()} />;
  const data = visit.data;

  const settle = (page: VisitPage, message: string) => {
    queryClient.setQueryData(customerVisitKey(token), page);
    setMode('view');
    setWindows(undefined);
    setChosen('');
    setDone(message);
    focusNext.current = true;
  };

  async function startReschedule() {
    setProblem(undefined);
    setDone(undefined);
    setBusy(true);
    try {
      const answer = await fetchVisitWindows(token);
      setWindows(answer.status === 'open' ? answer.windows : []);
      setMode('reschedule');
      focusNext.current = true;
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  async function confirmReschedule() {
    const window = windows?.find((candidate) => windowKey(candidate) === chosen);
    if (!window) {
      setProblem('Choose one of the open arrival times.');
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      settle(await rescheduleVisit(token, window), visitMessages.rescheduled);
    } catch (error) {
      const details = error instanceof ApiError ? (error.details as { windows?: OpenWindowText[] } | undefined) : undefined;
      if (error instanceof ApiError && error.status === 409 && details?.windows) {
        setWindows(details.windows);
        setChosen('');
      }
      setProblem(messageOf(error));
      void visit.refetch();
    } finally {
      setBusy(false);
    }
  }

  async function confirmCancel() {
    setBusy(true);
    setProblem(undefined);
    try {
      settle(await cancelVisit(token), visitMessages.cancelled);
    } catch (error) {
      setProblem(messageOf(error));
      void visit.refetch();
    } finally {
      setBusy(false);
    }
  }

  const days = [...new Set((windows ?? []).map((window) => window.date))].slice(0, 7);
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
          Your visit {data.workOrderNumber}
          <span className="sr-only"> with {company.name}</span>
        </h1>
        <p className="text-lg text-slate-800">
          {data.serviceLabel} · <span className="font-semibold">{statusLines[data.status]}</span>
        </p>
      </header>
      {done ? (
        <p role="status" tabIndex={-1} ref={(element) => { focusRef.current = element; }} className="rounded-md bg-green-50 p-4 font-semibold text-green-900 focus:outline-none">
          {done}
        </p>
      ) : null}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white p-5 sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold text-slate-700">When</dt>
        <dd>
          {data.date && data.window ? `${formatAppointmentDate(data.date)}, arriving between ${formatAppointmentWindow(data.window.start, data.window.end)}` : 'We will call you to set a time.'}
        </dd>
        <dt className="font-semibold text-slate-700">Where</dt>
        <dd>{data.address}</dd>
        {data.technicianFirstName ? (
          <>
            <dt className="font-semibold text-slate-700">Your technician</dt>
            <dd>{data.technicianFirstName}</dd>
          </>
        ) : null}
      </dl>
      {data.status !== 'cancelled' && data.prepare.length > 0 ? (
        <section aria-labelledby="visit-prepare" className="space-y-2">
          <h2 id="visit-prepare" className="text-xl font-bold text-slate-900">
            Before we come
          </h2>
          <ul className="list-disc space-y-1 pl-6 text-slate-800">
            {data.prepare.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {problem ? (
        <p role="alert" className="rounded-md bg-red-50 p-4 text-red-800">
          {problem}
        </p>
      ) : null}

      {data.canChange && mode === 'view' ? (
        <div className="flex flex-wrap gap-3">
          {data.canReschedule ? (
            <Button onClick={() => void startReschedule()} disabled={busy}>
              Choose another time
            </Button>
          ) : null}
          <Button
            variant="secondary"
            onClick={() => {
              setDone(undefined);
              setProblem(undefined);
              setMode('cancel');
              focusNext.current = true;
            }}
          >
            Cancel visit
          </Button>
        </div>
      ) : null}
      {data.canChange && data.changeableUntil && mode === 'view' ? (
        <p className="text-sm text-slate-600">You can change or cancel online until {new Date(data.changeableUntil).toLocaleString('en-US', { timeZone: company.timeZone, weekday: 'long', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' })}.</p>
      ) : null}

      {mode === 'reschedule' ? (
        <section aria-labelledby="visit-reschedule" className="space-y-4">
          <h2 id="visit-reschedule" tabIndex={-1} ref={(element) => { focusRef.current = element; }} className="text-xl font-bold text-slate-900 focus:outline-none">
            Choose another time
          </h2>
          {days.length === 0 ? (
            <p>No other times are open online. Call us at <a className="font-semibold underline" href={telHref(data.phone)}>{data.phone}</a>.</p>
          ) : (
            <fieldset>
              <legend className="text-sm text-slate-700">Arrival windows in our local time.</legend>
              {days.map((day) => (
                <fieldset key={day} className="mt-3">
                  <legend className="font-semibold text-slate-900">{formatAppointmentDate(day)}</legend>
                  <div className="mt-2 flex flex-wrap gap-2">
                    {windows!
                      .filter((window) => window.date === day)
                      .map((window) => (
                        <label key={windowKey(window)} className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                          <input type="radio" name="visit-window" value={windowKey(window)} checked={chosen === windowKey(window)} onChange={() => setChosen(windowKey(window))} className="h-4 w-4" />
                          {formatAppointmentWindow(window.start, window.end)}
                        </label>
                      ))}
                  </div>
                </fieldset>
              ))}
            </fieldset>
          )}
          <div className="flex flex-wrap gap-3">
            {days.length > 0 ? (
              <Button onClick={() => void confirmReschedule()} disabled={busy}>
                {busy ? 'Moving…' : 'Move my visit'}
              </Button>
            ) : null}
            <Button variant="ghost" onClick={() => { setMode('view'); setProblem(undefined); }}>
              Keep my time
            </Button>
          </div>
        </section>
      ) : null}

      {mode === 'cancel' ? (
        <section aria-labelledby="visit-cancel" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-5">
          <h2 id="visit-cancel" tabIndex={-1} ref={(element) => { focusRef.current = element; }} className="text-xl font-bold text-red-900 focus:outline-none">
            Cancel this visit?
          </h2>
          <p className="text-slate-800">We will let you know by e-mail. To book again later, use our booking page or call us.</p>
          <div className="flex flex-wrap gap-3">
            <Button variant="danger" onClick={() => void confirmCancel()} disabled={busy}>
              {busy ? 'Cancelling…' : 'Yes, cancel my visit'}
            </Button>
            <Button variant="ghost" onClick={() => { setMode('view'); setProblem(undefined); }}>
              Keep my visit
            </Button>
          </div>
        </section>
      ) : null}

      <p className="text-slate-700">
        Questions? Call us at{' '}
        <a className="font-semibold text-brand-800 underline" href={telHref(data.phone)}>
          {data.phone}
        </a>
        .
      </p>
    </div>
  );
}
