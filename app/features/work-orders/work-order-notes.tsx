import { useId, useRef, useState, type FormEvent } from 'react';
import { workOrderMessages } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { apiErrorMessage } from '#client/features/customers/index.ts';
import { isConflict, useUpdateWorkOrderNotes } from './api.ts';
import { DetailCard, type Notice } from './detail-card.tsx';

/** The technician's notes: shown, or edited in place and saved against the version on screen. */
export function NotesCard({
  workOrderId,
  notes,
  updatedAt,
  onNotice,
}: {
  workOrderId: string;
  notes: string | null;
  updatedAt: string;
  onNotice: (notice: Notice) => void;
}) {
  const notesId = useId();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const [isEditing, setIsEditing] = useState(false);
  const [draft, setDraft] = useState(notes ?? '');
  const [error, setError] = useState<string>();
  const save = useUpdateWorkOrderNotes(workOrderId);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    try {
      await save.mutateAsync({ notes: draft, expectedUpdatedAt: updatedAt });
      setIsEditing(false);
      onNotice({ tone: 'success', text: 'Notes saved.' });
    } catch (failure) {
      if (isConflict(failure)) {
        setError(workOrderMessages.conflict);
        return;
      }
      setError(workOrderMessages.notesUpdateFailed(apiErrorMessage(failure) ?? workOrderMessages.unexpected));
    }
  }

  return (
    <DetailCard
      title="Technical Notes"
      actions={
        isEditing ? null : (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setDraft(notes ?? '');
              setIsEditing(true);
              requestAnimationFrame(() => textareaRef.current?.focus());
            }}
          >
            {notes ? 'Edit Notes' : 'Add Notes'}
          </Button>
        )
      }
    >
      <div aria-live="assertive">{error ? <Alert className="mb-3">{error}</Alert> : null}</div>
      {isEditing ? (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Technical notes" className="space-y-3">
          <label htmlFor={notesId} className="block text-sm font-medium text-slate-800">
            Notes
          </label>
          <textarea ref={textareaRef} id={notesId} rows={5} maxLength={10_000} value={draft} onChange={(event) => setDraft(event.target.value)} className={controlClass} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setIsEditing(false)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Notes'}
            </Button>
          </div>
        </form>
      ) : notes ? (
        <p className="text-sm whitespace-pre-wrap text-slate-800">{notes}</p>
      ) : (
        <p className="text-sm text-slate-600">No technical notes yet.</p>
      )}
    </DetailCard>
  );
}
