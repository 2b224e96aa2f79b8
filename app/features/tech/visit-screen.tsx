import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { techHomePath, techMessages, type TechVisit } from '#shared/tech.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';
import { InspectionReportFields } from '#client/components/inspection-report-fields.tsx';
import { priorityLabel, priorityTone, serviceTypeLabel, workOrderStatusLabel } from '#client/lib/work-order-labels.ts';
import { describePayment, queuedPhotoUrl } from './apply-action.ts';
import { CompletionForm } from './completion-form.tsx';
import { PaymentSection, type PaymentFormState } from './payment-form.tsx';
import type { QueuedPhoto } from './db.ts';
import { businessDateOf, navigateUrl, shortDate, siteAddress, stepLabels, telUrl, timeOfDay, visitStep, visitWindow } from './format.ts';
import { syncAndRefresh, techSync, useTechSnapshot, useTechStatus, useThumbnailUrl } from './runtime.ts';
import { StorageFullError, type ActionInput } from './sync.ts';
import { SyncIssues } from './sync-issues.tsx';

const bigControl = `${controlClass} min-h-12`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-300 bg-white p-4 shadow-sm">
      <h2 id={id} className="mb-2 text-lg font-bold text-slate-950">
        {title}
      </h2>
      {children}
    </section>
  );
}

type Notice = { tone: 'success' | 'error' | 'info'; text: string };

/** One visit: the status flow, the customer and site, the office's notes, tasks, inspection, notes, photos, completion. */
export function VisitScreen({ visitId }: { visitId: string }) {
  const snapshot = useTechSnapshot();
  const status = useTechStatus();
  const [notice, setNotice] = useState<Notice>();
  const [isCompleting, setIsCompleting] = useState(false);
  const [paymentForm, setPaymentForm] = useState<PaymentFormState>();

  if (!snapshot || (!status.checked && !snapshot.visits.some((visit) => visit.id === visitId))) {
    return (
      <p role="status" className="rounded-lg bg-white p-8 text-center text-slate-700">
        Loading the visit...
      </p>
    );
  }
  const visit = snapshot.visits.find((candidate) => candidate.id === visitId);
  if (!visit) {
    return (
      <div className="space-y-3">
        <Alert>{techMessages.visitNotFound}</Alert>
        <Link to={techHomePath} className={buttonClass('primary', 'md', 'min-h-12 w-full')}>
          Back to my day
        </Link>
      </div>
    );
  }

  /** Takes an action on the phone (shown at once, queued, sent when there is signal). */
  async function act(input: ActionInput, done?: string): Promise<boolean> {
    setNotice(undefined);
    try {
      await techSync.enqueue(visitId, input);
      if (done) setNotice({ tone: 'success', text: done });
      void syncAndRefresh();
      return true;
    } catch (error) {
      setNotice({ tone: 'error', text: error instanceof StorageFullError ? techMessages.storageFull : error instanceof Error ? error.message : 'Could not save.' });
      return false;
    }
  }

  const step = visitStep(visit);
  const photos = snapshot.photos.filter((photo) => photo.visitId === visitId);
  return (
    <div className="space-y-4">
      <p>
        <Link to={techHomePath} className="inline-flex min-h-12 items-center font-semibold text-brand-800 underline">
          ← My day
        </Link>
      </p>
      <header>
        <h1 className="text-2xl font-bold text-slate-950">{visit.title}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-800">
          <span>{visit.workOrderNumber}</span>
          <span>
            {shortDate(visit.serviceDate)}, {visitWindow(visit)}
          </span>
          <Badge tone={priorityTone(visit.priority)}>{priorityLabel(visit.priority)}</Badge>
          <Badge tone="primary">{serviceTypeLabel(visit.serviceType)}</Badge>
        </p>
      </header>
      <div aria-live="polite">{notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}</div>
      <SyncIssues visit={visit} queue={snapshot.queue} photos={snapshot.photos} onCorrectPayment={(seq) => setPaymentForm({ mode: 'correct', seq })} />

      <Section title="Status">
        <p className="text-lg" data-testid="visit-step">
          <span className="font-semibold">{stepLabels[step]}</span>
          {step === 'en-route' && visit.enRouteAt ? <span> since {timeOfDay(visit.enRouteAt)}</span> : null}
          {step === 'on-site' && visit.onSiteAt ? <span> since {timeOfDay(visit.onSiteAt)}</span> : null}
          {step === 'completed' && visit.completedAt ? <span> at {timeOfDay(visit.completedAt)}</span> : null}
        </p>
        <div className="mt-3 grid gap-2">
          {step === 'not-started' ? (
            <Button className="min-h-14 text-lg" onClick={() => void act({ kind: 'en-route' }, 'Marked en route.')}>
              En route
            </Button>
          ) : null}
          {step === 'not-started' || step === 'en-route' ? (
            <Button variant={step === 'en-route' ? 'primary' : 'secondary'} className="min-h-14 text-lg" onClick={() => void act({ kind: 'on-site' }, 'Marked on site.')}>
              On site
            </Button>
          ) : null}
          {step === 'on-site' && !isCompleting ? (
            <Button variant="accent" className="min-h-14 text-lg" onClick={() => setIsCompleting(true)}>
              Work complete
            </Button>
          ) : null}
        </div>
        {step === 'on-site' && isCompleting ? (
          <div className="mt-4">
            <CompletionForm
              onCancel={() => setIsCompleting(false)}
              onComplete={async (input) => {
                const saved = await act(input, 'Work complete.');
                if (saved) setIsCompleting(false);
                return saved;
              }}
            />
          </div>
        ) : null}
        {visit.completion ? <CompletionSummary completion={visit.completion} /> : null}
      </Section>

      <Section title="Payment">
        <PaymentSection
          visit={visit}
          queue={snapshot.queue}
          form={paymentForm}
          onOpen={() => setPaymentForm({ mode: 'new' })}
          onClose={() => setPaymentForm(undefined)}
          onRecord={(input) => act(input, `${describePayment(input, visit)} recorded. It shows as waiting until the office has it.`)}
          onCorrect={async (seq, input) => {
            setNotice(undefined);
            try {
              await techSync.editPayment(seq, input);
              setNotice({ tone: 'success', text: `${describePayment(input, visit)} corrected; sending it again.` });
              void syncAndRefresh();
              return true;
            } catch (error) {
              setNotice({ tone: 'error', text: error instanceof StorageFullError ? techMessages.storageFull : 'Could not save.' });
              return false;
            }
          }}
        />
      </Section>

      <Section title="Customer and site">
        <p className="text-lg font-semibold">{visit.customer.name}</p>
        <p>{siteAddress(visit.site)}</p>
        <div className="mt-3 grid grid-cols-2 gap-2">
          <a href={navigateUrl(visit.site)} target="_blank" rel="noreferrer" className={buttonClass('primary', 'md', 'min-h-12 text-base')}>
            Navigate
          </a>
          <a href={telUrl(visit.customer.phone)} className={buttonClass('secondary', 'md', 'min-h-12 text-base')}>
            Call {visit.customer.phone}
          </a>
        </div>
      </Section>

      <Section title="From the office">
        {visit.description ? <p className="whitespace-pre-line">{visit.description}</p> : null}
        {visit.specialInstructions ? (
          <p className="mt-2 whitespace-pre-line">
            <span className="font-semibold">Instructions: </span>
            {visit.specialInstructions}
          </p>
        ) : null}
        {visit.officeNotes ? (
          <p className="mt-2 whitespace-pre-line">
            <span className="font-semibold">Notes: </span>
            {visit.officeNotes}
          </p>
        ) : null}
        {!visit.description && !visit.specialInstructions && !visit.officeNotes ? <p className="text-slate-700">No notes from the office.</p> : null}
      </Section>

      <Section title="Tasks">
        {visit.tasks.length === 0 ? (
          <p className="text-slate-700">No tasks on this job.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {visit.tasks.map((task) => (
              <li key={task.id}>
                <label className="flex min-h-12 items-center gap-3 py-1 text-base">
                  <input
                    type="checkbox"
                    className="size-6"
                    checked={task.status === 'completed'}
                    disabled={step === 'completed'}
                    onChange={(event) => void act({ kind: 'task', taskId: task.id, status: event.target.checked ? 'completed' : 'pending' })}
                  />
                  <span className={task.status === 'completed' ? 'line-through' : ''}>{task.taskName}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Inspection report">
        {visit.inspectionReport ? (
          <dl className="mb-2 grid grid-cols-2 gap-1 text-base">
            <dt className="font-semibold">MCA</dt>
            <dd>{visit.inspectionReport.mca ?? '–'} A</dd>
            <dt className="font-semibold">MOCP</dt>
            <dd>{visit.inspectionReport.mocp ?? '–'} A</dd>
            <dt className="font-semibold">Temp split</dt>
            <dd>{visit.inspectionReport.tempSplit ?? '–'} °F</dd>
            <dt className="font-semibold">Static pressure</dt>
            <dd>{visit.inspectionReport.staticPressure ?? '–'} in. WC</dd>
            <dt className="font-semibold">Checks</dt>
            <dd>{visit.inspectionReport.inspectionItems.map((item) => item.replaceAll('_', ' ')).join(', ') || '–'}</dd>
          </dl>
        ) : null}
        {step === 'completed' ? null : (
          <InspectionReportFields
            controlClassName={bigControl}
            buttonClassName="min-h-12"
            isSaving={false}
            onSave={(report) => act({ kind: 'inspection', report: { mca: null, mocp: null, tempSplit: null, staticPressure: null, inspectionItems: [], ...report } }, 'Inspection report saved.')}
          />
        )}
      </Section>

      <Section title="Notes">
        {visit.notes.length === 0 ? <p className="text-slate-700">No notes yet.</p> : null}
        <ul className="space-y-2">
          {visit.notes.map((note) => (
            <li key={note.id} className="rounded-md bg-slate-100 p-2">
              <p className="whitespace-pre-line">{note.text}</p>
              <p className="text-sm text-slate-700">
                {note.authorName}, {timeOfDay(note.createdAt)}
              </p>
            </li>
          ))}
        </ul>
        <AddNote onAdd={(text) => act({ kind: 'note', text }, 'Note added.')} />
      </Section>

      <Section title="Photos">
        <PhotoList visit={visit} queued={photos} />
        <PhotoInput
          onFiles={async (files) => {
            setNotice(undefined);
            try {
              for (const file of files) await techSync.addPhoto(visitId, file, file.name || 'photo.jpg');
              setNotice({ tone: 'success', text: files.length === 1 ? 'Photo kept.' : `${files.length} photos kept.` });
              void syncAndRefresh();
            } catch (error) {
              setNotice({ tone: 'error', text: error instanceof StorageFullError ? techMessages.storageFull : 'The photo could not be kept.' });
            }
          }}
        />
      </Section>

      <Section title="Equipment">
        {visit.equipment.length === 0 ? (
          <p className="text-slate-700">No equipment on file for this site.</p>
        ) : (
          <ul className="space-y-3">
            {visit.equipment.map((item) => (
              <li key={item.id} className="rounded-md border border-slate-300 p-2">
                <p className="font-semibold">
                  {item.equipmentType}
                  {item.location ? ` (${item.location})` : ''}
                  {item.id === visit.equipmentId ? <Badge tone="primary" className="ml-2">This job</Badge> : null}
                </p>
                <dl className="grid grid-cols-2 gap-x-2 text-sm">
                  <dt className="font-semibold">Brand</dt>
                  <dd>{item.brand ?? '–'}</dd>
                  <dt className="font-semibold">Model</dt>
                  <dd>{item.model ?? '–'}</dd>
                  <dt className="font-semibold">Serial</dt>
                  <dd>{item.serialNumber ?? '–'}</dd>
                  <dt className="font-semibold">Refrigerant</dt>
                  <dd>{item.refrigerant ?? '–'}</dd>
                  <dt className="font-semibold">Tonnage</dt>
                  <dd>{item.tonnage ?? '–'}</dd>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Past visits here">
        {visit.history.length === 0 ? (
          <p className="text-slate-700">No earlier visits.</p>
        ) : (
          <ul className="space-y-2">
            {visit.history.map((past) => (
              <li key={past.id}>
                <p className="font-semibold">
                  {shortDate(past.serviceDate)}: {past.title}
                </p>
                <p className="text-sm text-slate-800">
                  {past.workOrderNumber} · {workOrderStatusLabel(past.status)}
                  {past.summary ? ` · ${past.summary}` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

function CompletionSummary({ completion }: { completion: NonNullable<TechVisit['completion']> }) {
  return (
    <div className="mt-3 space-y-2" data-testid="completion">
      <p>
        <span className="font-semibold">Summary: </span>
        {completion.summary}
      </p>
      {completion.timeOnSiteMinutes !== null ? (
        <p>
          <span className="font-semibold">Time on site: </span>
          {completion.timeOnSiteMinutes} min
        </p>
      ) : null}
      {completion.materials.length > 0 ? (
        <div>
          <p className="font-semibold">Materials</p>
          <ul className="list-disc pl-5">
            {completion.materials.map((line, index) => (
              <li key={index}>
                {line.quantity} × {line.description}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {completion.signatureUrl ? (
        <div>
          <p className="font-semibold">Signed by {completion.signerName ?? 'the customer'}</p>
          <img src={completion.signatureUrl} alt={`Signature of ${completion.signerName ?? 'the customer'}`} className="mt-1 h-24 rounded border border-slate-300 bg-white" />
        </div>
      ) : completion.signerName ? (
        <p>
          <span className="font-semibold">Signed by: </span>
          {completion.signerName}
        </p>
      ) : null}
      {completion.followUpNote ? (
        <p>
          <span className="font-semibold">Needs follow-up: </span>
          {completion.followUpNote}
        </p>
      ) : null}
      <p className="text-sm text-slate-700">
        Completed by {completion.completedByName} at {timeOfDay(completion.completedAt)}
      </p>
    </div>
  );
}

function AddNote({ onAdd }: { onAdd: (text: string) => Promise<boolean> }) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (text.trim() === '') {
      setError('Write a note');
      return;
    }
    setError(undefined);
    if (await onAdd(text.trim())) setText('');
  }
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3 space-y-2" aria-label="Add a note">
      <FormField id={id} label="New note" error={error}>
        <textarea id={id} rows={2} value={text} onChange={(event) => setText(event.target.value)} className={bigControl} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
      </FormField>
      <Button type="submit" className="min-h-12 w-full">
        Add note
      </Button>
    </form>
  );
}

function PhotoInput({ onFiles }: { onFiles: (files: File[]) => Promise<void> }) {
  const id = useId();
  return (
    <div className="mt-3">
      <label htmlFor={id} className={buttonClass('secondary', 'md', 'min-h-12 w-full cursor-pointer text-base focus-within:ring-2 focus-within:ring-brand-600')}>
        Take a photo
      </label>
      <input
        id={id}
        type="file"
        accept="image/*"
        capture="environment"
        multiple
        className="sr-only"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) void onFiles(files);
        }}
      />
    </div>
  );
}

function QueuedThumb({ photo }: { photo: QueuedPhoto }) {
  const url = useMemo(() => queuedPhotoUrl(photo), [photo]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <li className="relative">
      <img src={url} alt={`Photo waiting to upload, taken at ${timeOfDay(photo.takenAt)}`} className="size-24 rounded-md object-cover" />
      <span className="absolute inset-x-0 bottom-0 rounded-b-md bg-slate-900/80 px-1 text-center text-xs text-white">Waiting</span>
    </li>
  );
}

function PhotoThumb({ photo }: { photo: TechVisit['photos'][number] }) {
  const src = useThumbnailUrl(photo.id, photo.thumbnailUrl);
  return (
    <li>
      <a href={photo.url} target="_blank" rel="noreferrer" className="block rounded-md focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
        <img src={src} alt={`Photo from ${shortDate(businessDateOf(photo.createdAt))}`} className="size-24 rounded-md bg-slate-200 object-cover" loading="lazy" />
      </a>
    </li>
  );
}

function PhotoList({ visit, queued }: { visit: TechVisit; queued: QueuedPhoto[] }) {
  if (visit.photos.length === 0 && queued.length === 0) return <p className="text-slate-700">No photos yet.</p>;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Photos">
      {visit.photos.map((photo) => (
        <PhotoThumb key={photo.id} photo={photo} />
      ))}
      {queued.map((photo) => (
        <QueuedThumb key={photo.seq} photo={photo} />
      ))}
    </ul>
  );
}
