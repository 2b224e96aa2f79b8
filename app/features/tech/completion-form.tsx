import { useId, useState, type FormEvent } from 'react';
import { techActionSchema, type MaterialLine } from '#shared/tech.ts';
import { SignatureField } from '#client/components/signature-field.tsx';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import type { ActionInput } from './sync.ts';

type Line = { key: number; description: string; quantity: string };
type Errors = Partial<Record<'summary' | 'materials' | 'signature' | 'followUp' | 'signerName', string>>;

const bigControl = `${controlClass} min-h-12`;

/** "Work complete": summary, materials as free lines, the customer's signature and name, optional follow-up. */
export function CompletionForm({ onComplete, onCancel }: { onComplete: (input: ActionInput) => Promise<boolean>; onCancel: () => void }) {
  const id = useId();
  const [summary, setSummary] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const [signature, setSignature] = useState<string | null>(null);
  const [signerName, setSignerName] = useState('');
  const [needsFollowUp, setNeedsFollowUp] = useState(false);
  const [followUpNote, setFollowUpNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [isSaving, setIsSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const materials: MaterialLine[] = lines.map((line) => ({ description: line.description, quantity: Number(line.quantity) }));
    const input = {
      kind: 'complete' as const,
      summary,
      materials,
      signerName: signerName.trim() === '' ? null : signerName.trim(),
      signature,
      followUp: needsFollowUp ? { note: followUpNote } : null,
    };
    const parsed = techActionSchema.safeParse({ ...input, idempotencyKey: crypto.randomUUID(), baseUpdatedAt: new Date().toISOString(), takenAt: new Date().toISOString() });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        if (field === 'materials') found.materials ??= `Material line ${Number(issue.path[1]) + 1}: ${issue.message}`;
        else found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setIsSaving(true);
    const saved = await onComplete(input);
    setIsSaving(false);
    if (!saved) return;
  }

  const errorCount = Object.keys(errors).length;
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Work complete" className="space-y-4">
      <div aria-live="assertive">{errorCount > 0 ? <Alert>Check the form: {Object.values(errors).join(' ')}</Alert> : null}</div>
      <FormField id={`${id}-summary`} label="Summary of the work" isRequired error={errors.summary}>
        <textarea
          id={`${id}-summary`}
          rows={3}
          required
          value={summary}
          onChange={(event) => setSummary(event.target.value)}
          className={bigControl}
          {...errorAttributes(`${id}-summary`, errors.summary)}
        />
      </FormField>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Materials used</legend>
        {lines.length === 0 ? <p className="text-sm text-slate-700">No materials added.</p> : null}
        {lines.map((line, index) => (
          <div key={line.key} className="flex items-end gap-2">
            <FormField id={`${id}-m${line.key}-d`} label={`Material ${index + 1}`} className="flex-1">
              <input
                id={`${id}-m${line.key}-d`}
                value={line.description}
                onChange={(event) => setLines((current) => current.map((other) => (other.key === line.key ? { ...other, description: event.target.value } : other)))}
                className={bigControl}
              />
            </FormField>
            <FormField id={`${id}-m${line.key}-q`} label={`Quantity ${index + 1}`} className="w-24">
              <input
                id={`${id}-m${line.key}-q`}
                type="number"
                inputMode="decimal"
                min="0"
                step="any"
                value={line.quantity}
                onChange={(event) => setLines((current) => current.map((other) => (other.key === line.key ? { ...other, quantity: event.target.value } : other)))}
                className={bigControl}
              />
            </FormField>
            <Button variant="danger" className="min-h-12" onClick={() => setLines((current) => current.filter((other) => other.key !== line.key))}>
              Remove<span className="sr-only"> material {index + 1}</span>
            </Button>
          </div>
        ))}
        {errors.materials ? <p className="text-sm text-red-700">{errors.materials}</p> : null}
        <Button
          variant="secondary"
          className="min-h-12"
          onClick={() => {
            setLines((current) => [...current, { key: nextKey, description: '', quantity: '1' }]);
            setNextKey((key) => key + 1);
          }}
        >
          Add material
        </Button>
      </fieldset>
      <SignatureField label="Customer signature" hint="(sign with a finger in the box)" onChange={setSignature} error={errors.signature} />
      <FormField id={`${id}-signer`} label="Signed by (customer's name)" error={errors.signerName}>
        <input id={`${id}-signer`} value={signerName} onChange={(event) => setSignerName(event.target.value)} autoComplete="off" className={bigControl} />
      </FormField>
      <div>
        <label className="flex min-h-12 items-center gap-3 text-base font-medium">
          <input type="checkbox" checked={needsFollowUp} onChange={(event) => setNeedsFollowUp(event.target.checked)} className="size-6" />
          Needs follow-up
        </label>
        {needsFollowUp ? (
          <FormField id={`${id}-follow`} label="What needs following up" isRequired error={errors.followUp}>
            <textarea
              id={`${id}-follow`}
              rows={2}
              value={followUpNote}
              onChange={(event) => setFollowUpNote(event.target.value)}
              className={bigControl}
              {...errorAttributes(`${id}-follow`, errors.followUp)}
            />
          </FormField>
        ) : null}
      </div>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="secondary" className="min-h-12 text-base" onClick={onCancel}>
          Back
        </Button>
        <Button type="submit" variant="accent" className="min-h-12 text-base" disabled={isSaving}>
          Complete the work
        </Button>
      </div>
    </form>
  );
}
