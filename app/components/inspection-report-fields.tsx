import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { inspectionReportSchema } from '#shared/work-order.ts';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';

export type InspectionReportInput = z.input<typeof inspectionReportSchema>;

/** "Filter replaced, Coils cleaned" → ['filter_replaced', 'coils_cleaned']: the tags the report stores. */
export function inspectionItemTags(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) =>
      item
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, ''),
    )
    .filter(Boolean);
}

const toNumber = (value: string) => (value.trim() === '' || Number.isNaN(Number(value)) ? null : Number(value));

/**
 * The inspection report's fields and its save button: the readings and the checks done. Used by the
 * back office's "Record Inspection" and by the technician app (which saves to its offline queue).
 * `onSave` resolves true when the report was kept (the fields are then cleared).
 */
export function InspectionReportFields({
  onSave,
  isSaving,
  controlClassName = controlClass,
  buttonClassName,
}: {
  onSave: (report: InspectionReportInput) => Promise<boolean> | boolean;
  isSaving: boolean;
  controlClassName?: string;
  buttonClassName?: string;
}) {
  const idPrefix = useId();
  const [values, setValues] = useState({ mca: '', mocp: '', tempSplit: '', staticPressure: '', items: '' });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const saved = await onSave({
      mca: toNumber(values.mca),
      mocp: toNumber(values.mocp),
      tempSplit: toNumber(values.tempSplit),
      staticPressure: toNumber(values.staticPressure),
      inspectionItems: inspectionItemTags(values.items),
    });
    if (saved) setValues({ mca: '', mocp: '', tempSplit: '', staticPressure: '', items: '' });
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
        className={controlClassName}
      />
    </FormField>
  );

  return (
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
          className={controlClassName}
        />
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" disabled={isSaving} className={buttonClassName}>
          {isSaving ? 'Saving...' : 'Save Inspection Report'}
        </Button>
      </div>
    </form>
  );
}
