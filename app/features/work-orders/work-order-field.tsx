import type { WorkOrderDetailResponse } from '#shared/work-order.ts';
import { company } from '#client/lib/company.ts';
import { Detail, DetailCard } from './detail-card.tsx';
import { formatDateTime } from './labels.ts';

// The field's work on the work-order screen (issue 19): what the technician recorded at "Work
// complete" (summary, materials, signature, time on site, follow-up), their notes, and every step
// of the work order with who and when, read from its activity-log entries.

type Completion = NonNullable<WorkOrderDetailResponse['completion']>;
type TechNote = NonNullable<WorkOrderDetailResponse['techNotes']>[number];
type Step = NonNullable<WorkOrderDetailResponse['steps']>[number];

const when = (iso: string) => formatDateTime(iso, company.timeZone);

/** "1 h 25 min", "40 min". */
function durationText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

export function CompletionCard({ completion }: { completion: Completion }) {
  return (
    <DetailCard title="Completion">
      <p className="text-sm text-slate-700">
        Completed by <span className="font-semibold text-slate-900">{completion.completedByName}</span> on {when(completion.completedAt)}
      </p>
      {completion.followUpNote ? (
        <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">Needs follow-up</p>
          <p className="mt-1 whitespace-pre-wrap">{completion.followUpNote}</p>
        </div>
      ) : null}
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
        <div className="sm:col-span-2">
          <dt className="font-medium text-slate-700">Summary</dt>
          <dd className="whitespace-pre-wrap text-slate-900">{completion.summary}</dd>
        </div>
        <Detail label="Time on site">{completion.timeOnSiteMinutes === null ? 'Not recorded' : durationText(completion.timeOnSiteMinutes)}</Detail>
        <Detail label="Signed by">{completion.signerName ?? (completion.signatureUrl ? 'The customer (no name given)' : 'Not signed')}</Detail>
      </dl>
      <h3 className="mt-4 text-sm font-medium text-slate-700">Materials used</h3>
      {completion.materials.length > 0 ? (
        <ul aria-label="Materials used" className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-900">
          {completion.materials.map((line, index) => (
            <li key={index}>
              {line.quantity} × {line.description}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600">None recorded.</p>
      )}
      {completion.signatureUrl ? (
        <figure className="mt-4">
          <img
            src={completion.signatureUrl}
            alt={completion.signerName ? `Signature of ${completion.signerName}` : "The customer's signature"}
            className="h-32 w-auto max-w-full rounded border border-slate-300 bg-white object-contain"
          />
          <figcaption className="mt-1 text-xs text-slate-600">Signed on the technician's screen</figcaption>
        </figure>
      ) : null}
    </DetailCard>
  );
}

export function TechNotesCard({ notes }: { notes: TechNote[] }) {
  return (
    <DetailCard title="Technician notes">
      <ul aria-label="Technician notes" className="space-y-3 text-sm">
        {notes.map((note) => (
          <li key={note.id} className="rounded-md border border-slate-200 p-3">
            <p className="whitespace-pre-wrap text-slate-900">{note.text}</p>
            <p className="mt-1 text-xs text-slate-600">
              {note.authorName} · <time dateTime={note.createdAt}>{when(note.createdAt)}</time>
            </p>
          </li>
        ))}
      </ul>
    </DetailCard>
  );
}

/** Every step with who and when, oldest first ("Marked en route — Mike Tech, Nov 25, 2026, 9:42 AM"). */
export function StepsCard({ steps }: { steps: Step[] }) {
  return (
    <DetailCard title="History">
      {steps.length === 0 ? (
        <p className="text-sm text-slate-600">No steps recorded yet.</p>
      ) : (
        <ol aria-label="Steps" className="space-y-2 text-sm">
          {steps.map((step, index) => (
            <li key={index} className="flex gap-3">
              <span aria-hidden="true" className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-slate-500" />
              <p>
                <span className="font-semibold text-slate-900">{step.label}</span>
                <span className="text-slate-700">
                  {' '}
                  — {step.actorName}, <time dateTime={step.at}>{when(step.at)}</time>
                </span>
              </p>
            </li>
          ))}
        </ol>
      )}
    </DetailCard>
  );
}
