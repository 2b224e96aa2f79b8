import { useId, useState } from 'react';
import type { DocumentLine, DocumentLineValues } from '#shared/document-line.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { blankDraftLine, DocumentLinesFields, draftLinesFrom, readDraftLines, type DraftLine } from './document-lines.tsx';

/**
 * An invoice draft's lines and notes: the shared line fields with their live totals
 * (document-lines.tsx, also used by quote options), then Save or Cancel.
 */
export function LineEditor({
  lines,
  notes: initialNotes,
  defaultTaxRatePpm,
  isSaving,
  onSave,
  onCancel,
}: {
  lines: DocumentLine[];
  notes: string;
  defaultTaxRatePpm: number;
  isSaving: boolean;
  onSave: (lines: DocumentLineValues[], notes: string) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<DraftLine[]>(() => (lines.length > 0 ? draftLinesFrom(lines) : [blankDraftLine(defaultTaxRatePpm)]));
  const [notes, setNotes] = useState(initialNotes);
  const [showErrors, setShowErrors] = useState(false);
  const notesId = useId();
  const read = readDraftLines(draft);

  function save() {
    setShowErrors(true);
    if (!read.values) return;
    onSave(read.values, notes);
  }

  return (
    <form
      aria-label="Edit lines"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <h2 className="text-lg font-semibold text-slate-900">Lines</h2>
      <DocumentLinesFields lines={draft} onChange={setDraft} defaultTaxRatePpm={defaultTaxRatePpm} showErrors={showErrors} />
      <div>
        <label htmlFor={notesId} className="block text-sm font-medium text-slate-800">
          Notes for the customer
        </label>
        <textarea id={notesId} value={notes} maxLength={4000} rows={3} onChange={(event) => setNotes(event.target.value)} className={controlClass} />
      </div>
      <div aria-live="assertive">{showErrors && !read.values ? <Alert>{read.ruleError ?? 'Correct the marked fields.'}</Alert> : null}</div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSaving}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSaving}>
          {isSaving ? 'Saving…' : 'Save lines'}
        </Button>
      </div>
    </form>
  );
}
