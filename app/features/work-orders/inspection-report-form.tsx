import { useId, useState, type FormEvent } from 'react';
import { workOrderMessages } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';
import { apiErrorMessage } from '#client/features/customers/index.ts';
import { useAddInspectionReport } from './api.ts';
import { DetailCard, type Notice } from './detail-card.tsx';

/** "Record Inspection": a form, opened on demand, for the visit's readings and the checks done. */
export function InspectionReportForm({ workOrderId }: { workOrderId: string }) {
  const idPrefix = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [values, setValues] = useState({ mca: '', mocp: '', tempSplit: '', staticPressure: '', items: '' });
  const [message, setMessage] = useState<Notice>();
  const addReport = useAddInspectionReport(workOrderId);
  const toNumber = (value: string) => (value.trim() === '' || Number.isNaN(Number(value)) ? null : Number(value));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(undefined);
    const inspectionItems = values.items
      .split(/[,\n]/)
      .map((item) =>
        item
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_+|_+$/g, ''),
      )
      .filter(Boolean);
    try {
      await addReport.mutateAsync({
        mca: toNumber(values.mca),
        mocp: toNumber(values.mocp),
        tempSplit: toNumber(values.tempSplit),
        staticPressure: toNumber(values.staticPressure),
        inspectionItems,
      });
      setValues({ mca: '', mocp: '', tempSplit: '', staticPressure: '', items: '' });
      setIsOpen(false);
      setMessage({ tone: 'success', text: 'Inspection report saved.' });
    } catch (failure) {
      setMessage({ tone: 'error', text: `Error saving inspection report: ${apiErrorMessage(failure) ?? workOrderMessages.unexpected}` });
    }
  }

  const numberField = (name: 'mca' | 'mocp' | 'tempSplit' | 'staticPressure', label: string) => (
    <FormField id={`${idPrefix}-${name}`} label={label}>
      <input
        id={`${idPrefix}-${name}`}
        type="number"
        step="any"
        inputMode="decimal"
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        className={controlClass}
      />
    </FormField>
  );

  return (
    <DetailCard
      title="Record Inspection"
      actions={
        <Button variant="secondary" size="sm" aria-expanded={isOpen} onClick={() => setIsOpen((open) => !open)}>
          {isOpen ? 'Close' : 'Record Inspection Report'}
        </Button>
      }
    >
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>
      {isOpen ? (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Inspection report" className="mt-3 space-y-3">
          <div className="grid gap-3 sm:grid-cols-2">
            {numberField('mca', 'MCA (A)')}
            {numberField('mocp', 'MOCP (A)')}
            {numberField('tempSplit', 'Temp split (°F)')}
            {numberField('staticPressure', 'Static pressure (in. WC)')}
          </div>
          <FormField id={`${idPrefix}-items`} label="Inspection items" hint="(one per line or comma-separated)">
            <textarea
              id={`${idPrefix}-items`}
              rows={3}
              value={values.items}
              onChange={(event) => setValues((current) => ({ ...current, items: event.target.value }))}
              placeholder="Filter replaced, Coils cleaned"
              className={controlClass}
            />
          </FormField>
          <div className="flex justify-end">
            <Button type="submit" disabled={addReport.isPending}>
              {addReport.isPending ? 'Saving...' : 'Save Inspection Report'}
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-sm text-slate-600">Readings and checks from the visit.</p>
      )}
    </DetailCard>
  );
}
