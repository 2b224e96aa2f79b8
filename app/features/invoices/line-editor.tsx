import { useId, useState } from 'react';
import type { PriceBookItemKind } from '#shared/enums.ts';
import type { DocumentLine, DocumentLineValues } from '#shared/document-line.ts';
import { documentTotals, formatCents, formatQuantity, MoneyRuleError, parseMoneyInput, parseQuantityInput, type DocumentTotals } from '#shared/money.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';

/** A line as typed: text boxes, parsed on every change. */
type DraftLine = {
  key: number;
  priceBookItemId: string | null;
  kind: PriceBookItemKind;
  code: string;
  description: string;
  name: string;
  quantity: string;
  unitPrice: string;
  discountPercent: string;
  discountAmount: string;
  taxable: boolean;
  taxRate: string;
};

let nextKey = 1;

const percentText = (basisPoints: number) => (basisPoints === 0 ? '' : String(basisPoints / 100));
const rateText = (ppm: number) => String(ppm / 10_000);

function fromLine(line: DocumentLine): DraftLine {
  return {
    key: nextKey++,
    priceBookItemId: line.priceBookItemId,
    kind: line.kind,
    code: line.code,
    description: line.description,
    name: line.name,
    quantity: formatQuantity(line.quantityMilli),
    unitPrice: (line.unitPriceCents / 100).toFixed(2),
    discountPercent: percentText(line.discountBps),
    discountAmount: line.discountCents === 0 ? '' : (line.discountCents / 100).toFixed(2),
    taxable: line.taxable,
    taxRate: rateText(line.taxRatePpm),
  };
}

function blankLine(defaultTaxRatePpm: number): DraftLine {
  return {
    key: nextKey++,
    priceBookItemId: null,
    kind: 'service',
    code: '',
    description: '',
    name: '',
    quantity: '1',
    unitPrice: '',
    discountPercent: '',
    discountAmount: '',
    taxable: false,
    taxRate: rateText(defaultTaxRatePpm),
  };
}

type LineErrors = Partial<Record<'name' | 'quantity' | 'unitPrice' | 'discountPercent' | 'discountAmount' | 'taxRate', string>>;

/** "6" or "8.875" (percent) in ppm; blank or 0 is 0. */
function parseRate(text: string): number | undefined {
  if (text.trim() === '' || Number(text) === 0) return 0;
  const milli = parseQuantityInput(text);
  return milli !== undefined && milli <= 100_000 ? milli * 10 : undefined;
}

function parseLine(line: DraftLine): { input?: DocumentLineValues; errors: LineErrors } {
  const errors: LineErrors = {};
  const quantityMilli = parseQuantityInput(line.quantity);
  const unitPriceCents = parseMoneyInput(line.unitPrice);
  const discountBps = line.discountPercent.trim() === '' ? 0 : parseMoneyInput(line.discountPercent);
  const discountCents = line.discountAmount.trim() === '' ? 0 : parseMoneyInput(line.discountAmount);
  const taxRatePpm = parseRate(line.taxRate);
  if (line.name.trim() === '') errors.name = 'Name the line';
  if (quantityMilli === undefined) errors.quantity = 'A quantity above 0, up to 3 decimals';
  if (unitPriceCents === undefined) errors.unitPrice = 'A price like 89 or 89.50';
  if (discountBps === undefined || discountBps < 0 || discountBps > 10_000) errors.discountPercent = '0 to 100';
  if (discountCents === undefined || discountCents < 0) errors.discountAmount = 'An amount like 10.00';
  if (taxRatePpm === undefined) errors.taxRate = 'A rate like 6 or 8.875';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    errors,
    input: {
      priceBookItemId: line.priceBookItemId,
      kind: line.kind,
      code: line.code,
      description: line.description,
      name: line.name.trim(),
      quantityMilli: quantityMilli!,
      unitPriceCents: unitPriceCents!,
      discountBps: discountBps!,
      discountCents: discountCents!,
      taxable: line.taxable,
      taxRatePpm: line.taxable ? taxRatePpm! : 0,
    },
  };
}

/**
 * A draft's lines: quantity, unit price, discount (percent and amount), taxable and its rate, with
 * the totals computed live by the same rule the server stores (shared/money.ts documentTotals).
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
  const [draft, setDraft] = useState<DraftLine[]>(() => (lines.length > 0 ? lines.map(fromLine) : [blankLine(defaultTaxRatePpm)]));
  const [notes, setNotes] = useState(initialNotes);
  const [showErrors, setShowErrors] = useState(false);
  const notesId = useId();
  const parsed = draft.map(parseLine);
  const inputs = parsed.map((entry) => entry.input);
  const isValid = inputs.every((input) => input !== undefined);
  let totals: DocumentTotals | undefined;
  let ruleError: string | undefined;
  if (isValid) {
    try {
      totals = documentTotals(inputs as DocumentLineValues[]);
      if (totals.totalCents < 0) ruleError = 'The total cannot be negative.';
    } catch (error) {
      ruleError = error instanceof MoneyRuleError ? error.message : 'These lines do not add up.';
    }
  }

  const update = (key: number, change: Partial<DraftLine>) => setDraft((current) => current.map((line) => (line.key === key ? { ...line, ...change } : line)));

  function save() {
    setShowErrors(true);
    if (!isValid || ruleError) return;
    onSave(inputs as DocumentLineValues[], notes);
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
      <ol className="space-y-4">
        {draft.map((line, index) => (
          <LineFields
            key={line.key}
            index={index}
            line={line}
            amount={totals ? totals.lines[index]?.amountCents : undefined}
            errors={showErrors ? parsed[index]!.errors : {}}
            canRemove={draft.length > 1}
            onChange={(change) => update(line.key, change)}
            onRemove={() => setDraft((current) => current.filter((entry) => entry.key !== line.key))}
          />
        ))}
      </ol>
      <Button variant="secondary" size="sm" onClick={() => setDraft((current) => [...current, blankLine(defaultTaxRatePpm)])}>
        Add line
      </Button>
      <div>
        <label htmlFor={notesId} className="block text-sm font-medium text-slate-800">
          Notes for the customer
        </label>
        <textarea id={notesId} value={notes} maxLength={4000} rows={3} onChange={(event) => setNotes(event.target.value)} className={controlClass} />
      </div>
      <dl aria-live="polite" className="ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-4 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right tabular-nums" data-testid="editor-subtotal">
          {totals ? formatCents(totals.subtotalCents) : '—'}
        </dd>
        {totals?.taxes.map((tax) => (
          <TaxRow key={tax.ratePpm} ratePpm={tax.ratePpm} taxCents={tax.taxCents} />
        ))}
        <dt className="font-bold">Total</dt>
        <dd className="text-right font-bold tabular-nums" data-testid="editor-total">
          {totals && !ruleError ? formatCents(totals.totalCents) : '—'}
        </dd>
      </dl>
      <div aria-live="assertive">{showErrors && (ruleError || !isValid) ? <Alert>{ruleError ?? 'Correct the marked fields.'}</Alert> : null}</div>
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

function TaxRow({ ratePpm, taxCents }: { ratePpm: number; taxCents: number }) {
  return (
    <>
      <dt>Tax {ratePpm / 10_000}%</dt>
      <dd className="text-right tabular-nums">{formatCents(taxCents)}</dd>
    </>
  );
}

function LineFields({
  index,
  line,
  amount,
  errors,
  canRemove,
  onChange,
  onRemove,
}: {
  index: number;
  line: DraftLine;
  amount: number | undefined;
  errors: LineErrors;
  canRemove: boolean;
  onChange: (change: Partial<DraftLine>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const number = index + 1;
  const text = (field: 'name' | 'quantity' | 'unitPrice' | 'discountPercent' | 'discountAmount' | 'taxRate', label: string, className: string, inputMode?: 'decimal') => (
    <div className={className}>
      <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-slate-800">
        {label}
        <span className="sr-only">, line {number}</span>
      </label>
      <input
        id={`${id}-${field}`}
        value={line[field]}
        inputMode={inputMode}
        onChange={(event) => onChange({ [field]: event.target.value })}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
        className={controlClass}
      />
      {errors[field] ? (
        <p id={`${id}-${field}-error`} className="mt-1 text-sm text-red-700">
          {errors[field]}
        </p>
      ) : null}
    </div>
  );
  return (
    <li className="rounded-md border border-slate-200 p-3">
      <fieldset>
        <legend className="text-sm font-semibold text-slate-700">Line {number}</legend>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-6">
          {text('name', 'Name', 'col-span-2 sm:col-span-6')}
          {text('quantity', 'Quantity', '', 'decimal')}
          {text('unitPrice', 'Unit price ($)', '', 'decimal')}
          {text('discountPercent', 'Discount %', '', 'decimal')}
          {text('discountAmount', 'Discount ($)', '', 'decimal')}
          <div className="flex items-end gap-2 pb-2">
            <input id={`${id}-taxable`} type="checkbox" checked={line.taxable} onChange={(event) => onChange({ taxable: event.target.checked })} className="h-5 w-5" />
            <label htmlFor={`${id}-taxable`} className="text-sm font-medium text-slate-800">
              Taxable<span className="sr-only">, line {number}</span>
            </label>
          </div>
          {line.taxable ? text('taxRate', 'Tax rate %', '', 'decimal') : <div />}
        </div>
        <div className="mt-2 flex items-center justify-between">
          <p className="text-sm text-slate-700">
            Amount: <span className="font-semibold tabular-nums">{amount === undefined ? '—' : formatCents(amount)}</span>
          </p>
          {canRemove ? (
            <Button variant="ghost" size="sm" onClick={onRemove}>
              Remove line {number}
            </Button>
          ) : null}
        </div>
      </fieldset>
    </li>
  );
}
