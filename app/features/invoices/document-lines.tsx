import { Fragment, useEffect, useId, useRef, useState } from 'react';
import type { PriceBookItemKind } from '#shared/enums.ts';
import type { DocumentLine, DocumentLineValues } from '#shared/document-line.ts';
import { documentTotals, formatCents, formatQuantity, MoneyRuleError, parseMoneyInput, parseQuantityInput, type DocumentTotals } from '#shared/money.ts';
import type { PriceBookItem } from '#shared/price-book.ts';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { PriceBookPicker } from '#client/features/price-book/index.ts';

// The lines of a billing document as typed (an invoice draft, a quote option): the fields of each
// line, "Add line", the price-book picker and the totals computed live by the same rule the server
// stores (shared/money.ts documentTotals). Controlled: the screen keeps the lines and saves them.

/** A line as typed: text boxes, parsed on every change. */
export type DraftLine = {
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
const moneyText = (cents: number) => (cents / 100).toFixed(2);

/** Stored lines as text boxes. */
export function draftLinesFrom(lines: readonly DocumentLine[]): DraftLine[] {
  return lines.map((line) => ({
    key: nextKey++,
    priceBookItemId: line.priceBookItemId,
    kind: line.kind,
    code: line.code,
    description: line.description,
    name: line.name,
    quantity: formatQuantity(line.quantityMilli),
    unitPrice: moneyText(line.unitPriceCents),
    discountPercent: percentText(line.discountBps),
    discountAmount: line.discountCents === 0 ? '' : moneyText(line.discountCents),
    taxable: line.taxable,
    taxRate: rateText(line.taxRatePpm),
  }));
}

export function blankDraftLine(defaultTaxRatePpm: number): DraftLine {
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

/** A price-book item copied into a line (decision 024-c: the document keeps the copy, whatever the book becomes). */
export function draftLineFromItem(item: PriceBookItem, defaultTaxRatePpm: number): DraftLine {
  return {
    ...blankDraftLine(defaultTaxRatePpm),
    priceBookItemId: item.id,
    kind: item.kind,
    code: item.code,
    description: item.description,
    name: item.name,
    unitPrice: moneyText(item.priceCents),
    taxable: item.taxable,
  };
}

const isUntouched = (line: DraftLine) => line.name.trim() === '' && line.unitPrice.trim() === '' && line.priceBookItemId === null;

type LineField = 'name' | 'quantity' | 'unitPrice' | 'discountPercent' | 'discountAmount' | 'taxRate';
export type LineErrors = Partial<Record<LineField, string>>;

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

export type ReadLines = {
  /** Every line's values, when every line parses and the totals add up. */
  values?: DocumentLineValues[];
  totals?: DocumentTotals;
  /** The money rule's refusal (a discount past its line, a negative total). */
  ruleError?: string;
  lineErrors: LineErrors[];
};

/** The lines as the API takes them, their totals, or what is wrong with them. */
export function readDraftLines(draft: readonly DraftLine[]): ReadLines {
  const parsed = draft.map(parseLine);
  const lineErrors = parsed.map((entry) => entry.errors);
  if (!parsed.every((entry) => entry.input !== undefined)) return { lineErrors };
  const values = parsed.map((entry) => entry.input!);
  try {
    const totals = documentTotals(values);
    if (totals.totalCents < 0) return { totals, lineErrors, ruleError: 'The total cannot be negative.' };
    return { values, totals, lineErrors };
  } catch (error) {
    return { lineErrors, ruleError: error instanceof MoneyRuleError ? error.message : 'These lines do not add up.' };
  }
}

/**
 * The lines' fields (quantity, unit price, discount as percent and amount, taxable and its rate),
 * "Add line", the price-book picker, and the live totals. `minLines` 1 keeps a line to type in
 * (an invoice); 0 lets a quote option start empty. `lineLabel` names a line for screen readers
 * ("line 2"); labels stay "Name, line 2" inside the surrounding group.
 */
export function DocumentLinesFields({
  lines,
  onChange,
  defaultTaxRatePpm,
  showErrors,
  minLines = 1,
  pickerLabel = 'Add from the price book',
}: {
  lines: DraftLine[];
  onChange: (lines: DraftLine[]) => void;
  defaultTaxRatePpm: number;
  showErrors: boolean;
  minLines?: 0 | 1;
  pickerLabel?: string;
}) {
  const read = readDraftLines(lines);
  const [focusKey, setFocusKey] = useState<number>();
  const addButtonRef = useRef<HTMLButtonElement>(null);

  const update = (key: number, change: Partial<DraftLine>) => onChange(lines.map((line) => (line.key === key ? { ...line, ...change } : line)));

  function add(line: DraftLine) {
    // A picked item takes the place of the one empty line a new draft starts with.
    const kept = lines.length === 1 && isUntouched(lines[0]!) && line.priceBookItemId !== null ? [] : lines;
    onChange([...kept, line]);
    if (line.priceBookItemId === null) setFocusKey(line.key);
  }

  function remove(key: number) {
    onChange(lines.filter((line) => line.key !== key));
    addButtonRef.current?.focus();
  }

  return (
    <div className="space-y-4">
      {lines.length === 0 ? <p className="text-sm text-slate-600">No lines yet: add one, or pick one from the price book.</p> : null}
      <ol className="space-y-4">
        {lines.map((line, index) => (
          <LineFields
            key={line.key}
            index={index}
            line={line}
            amount={read.totals && !read.ruleError ? read.totals.lines[index]?.amountCents : undefined}
            errors={showErrors ? (read.lineErrors[index] ?? {}) : {}}
            canRemove={lines.length > minLines}
            shouldFocus={focusKey === line.key}
            onChange={(change) => update(line.key, change)}
            onRemove={() => remove(line.key)}
          />
        ))}
      </ol>
      <div className="grid gap-3 sm:grid-cols-[auto_1fr] sm:items-end">
        <Button ref={addButtonRef} variant="secondary" size="sm" className="self-end" onClick={() => add(blankDraftLine(defaultTaxRatePpm))}>
          Add line
        </Button>
        <PriceBookPicker label={pickerLabel} onPick={(item) => add(draftLineFromItem(item, defaultTaxRatePpm))} />
      </div>
      <dl aria-live="polite" className="ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-4 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right tabular-nums" data-testid="editor-subtotal">
          {read.totals && !read.ruleError ? formatCents(read.totals.subtotalCents) : '—'}
        </dd>
        {read.ruleError
          ? null
          : read.totals?.taxes.map((tax) => (
              <Fragment key={tax.ratePpm}>
                <dt>Tax {tax.ratePpm / 10_000}%</dt>
                <dd className="text-right tabular-nums">{formatCents(tax.taxCents)}</dd>
              </Fragment>
            ))}
        <dt className="font-bold">Total</dt>
        <dd className="text-right font-bold tabular-nums" data-testid="editor-total">
          {read.totals && !read.ruleError ? formatCents(read.totals.totalCents) : '—'}
        </dd>
      </dl>
    </div>
  );
}

function LineFields({
  index,
  line,
  amount,
  errors,
  canRemove,
  shouldFocus,
  onChange,
  onRemove,
}: {
  index: number;
  line: DraftLine;
  amount: number | undefined;
  errors: LineErrors;
  canRemove: boolean;
  shouldFocus: boolean;
  onChange: (change: Partial<DraftLine>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const number = index + 1;

  // A line added with "Add line" takes the focus, so the keyboard goes on typing.
  useEffect(() => {
    if (shouldFocus) nameRef.current?.focus();
  }, [shouldFocus]);

  const text = (field: LineField, label: string, className: string, inputMode?: 'decimal') => (
    <div className={className}>
      <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-slate-800">
        {label}
        <span className="sr-only">, line {number}</span>
      </label>
      <input
        id={`${id}-${field}`}
        ref={field === 'name' ? nameRef : undefined}
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
        {line.code ? <p className="font-mono text-xs text-slate-600">Price book {line.code}</p> : null}
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
