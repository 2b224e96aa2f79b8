import { useState } from 'react';
import { techMessages, type TechVisit } from '#shared/tech.ts';
import { Button } from '#client/components/ui/button.tsx';
import { workOrderStatusLabel } from '#client/lib/work-order-labels.ts';
import { describeAction } from './apply-action.ts';
import type { QueuedAction, QueuedPhoto } from './db.ts';
import { shortDate, visitWindow } from './format.ts';
import { syncAndRefresh, techSync } from './runtime.ts';

/** The office's values that matter for one action, in words. */
function officeValues(item: QueuedAction, current: TechVisit): [string, string][] {
  const rows: [string, string][] = [
    ['Job', current.title],
    ['Status', workOrderStatusLabel(current.status)],
    ['When', `${shortDate(current.serviceDate)}, ${visitWindow(current)}`],
  ];
  const action = item.action;
  if (action.kind === 'task') {
    const task = current.tasks.find((candidate) => candidate.id === action.taskId);
    rows.push(['Task', task ? `${task.taskName}: ${task.status === 'completed' ? 'done' : 'not done'}` : 'removed by the office']);
  }
  if (action.kind === 'inspection' && current.inspectionReport) {
    const report = current.inspectionReport;
    rows.push(['Inspection', `MCA ${report.mca ?? '–'}, MOCP ${report.mocp ?? '–'}, split ${report.tempSplit ?? '–'}, static ${report.staticPressure ?? '–'}`]);
  }
  if (action.kind === 'en-route' || action.kind === 'on-site') {
    rows.push(['En route', current.enRouteAt ? 'yes' : 'no'], ['On site', current.onSiteAt ? 'yes' : 'no']);
  }
  if (current.officeNotes) rows.push(['Office notes', current.officeNotes]);
  if (current.specialInstructions) rows.push(['Instructions', current.specialInstructions]);
  return rows;
}

/** Changes the server did not take: a conflict to choose on (both versions shown), or a refusal. */
export function SyncIssues({
  visit,
  queue,
  photos,
  onCorrectPayment,
}: {
  visit: TechVisit;
  queue: QueuedAction[];
  photos: QueuedPhoto[];
  /** A refused payment: open the payment form with what was typed, to correct and send again (decision 025-a). */
  onCorrectPayment?: (seq: number) => void;
}) {
  const [isBusy, setIsBusy] = useState(false);
  const issues = queue.filter((item) => item.visitId === visit.id && item.state !== 'pending');
  const failedPhotos = photos.filter((photo) => photo.visitId === visit.id && photo.state === 'failed');
  if (issues.length === 0 && failedPhotos.length === 0) return null;

  async function run(work: () => Promise<void>) {
    setIsBusy(true);
    try {
      await work();
      await syncAndRefresh();
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <section aria-labelledby="sync-issues" className="space-y-3 rounded-lg border-2 border-red-700 bg-white p-4">
      <h2 id="sync-issues" className="text-lg font-bold text-red-800">
        Needs your choice
      </h2>
      {issues.map((item) =>
        item.state === 'conflict' && item.current ? (
          <div key={item.seq} role="alert" className="space-y-2">
            <p className="font-semibold">{techMessages.conflict}</p>
            <div className="grid gap-2 sm:grid-cols-2">
              <div className="rounded-md border border-slate-400 p-3">
                <h3 className="font-semibold">Yours (on this phone)</h3>
                <p>{describeAction(item.action, visit)}</p>
              </div>
              <div className="rounded-md border border-slate-400 p-3">
                <h3 className="font-semibold">The office's (now)</h3>
                <dl className="text-sm">
                  {officeValues(item, item.current).map(([term, value]) => (
                    <div key={term} className="flex gap-1">
                      <dt className="font-semibold">{term}:</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            </div>
            <div className="grid grid-cols-2 gap-2">
              <Button className="min-h-12" disabled={isBusy} onClick={() => void run(() => techSync.keepMine(item.seq!))}>
                Keep mine
              </Button>
              <Button variant="secondary" className="min-h-12" disabled={isBusy} onClick={() => void run(() => techSync.useOffice(item.seq!))}>
                Use the office's
              </Button>
            </div>
          </div>
        ) : (
          <div key={item.seq} role="alert" className="space-y-2">
            <p>
              <span className="font-semibold">Not accepted: </span>
              {describeAction(item.action, visit)}. {item.error}
            </p>
            {item.action.kind === 'payment' && item.action.note ? <p className="text-sm text-slate-800">Note: {item.action.note}</p> : null}
            {item.action.kind === 'payment' && onCorrectPayment ? (
              <Button variant="accent" className="min-h-12 w-full" disabled={isBusy} onClick={() => onCorrectPayment(item.seq!)}>
                Correct the payment
              </Button>
            ) : null}
            <div className="grid grid-cols-2 gap-2">
              <Button className="min-h-12" disabled={isBusy} onClick={() => void run(() => techSync.retryFailed(item.seq!))}>
                Try again
              </Button>
              <Button variant="danger" className="min-h-12" disabled={isBusy} onClick={() => void run(() => techSync.discardFailed(item.seq!))}>
                Discard
              </Button>
            </div>
          </div>
        ),
      )}
      {failedPhotos.map((photo) => (
        <div key={photo.seq} role="alert" className="space-y-2">
          <p>
            <span className="font-semibold">Photo not accepted: </span>
            {photo.name}. {photo.error}
          </p>
          <div className="grid grid-cols-2 gap-2">
            <Button className="min-h-12" disabled={isBusy} onClick={() => void run(() => techSync.retryFailed(photo.seq!, 'photos'))}>
              Try again
            </Button>
            <Button variant="danger" className="min-h-12" disabled={isBusy} onClick={() => void run(() => techSync.discardFailed(photo.seq!, 'photos'))}>
              Discard
            </Button>
          </div>
        </div>
      ))}
    </section>
  );
}
