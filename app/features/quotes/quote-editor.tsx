import { useId, useRef, useState } from 'react';
import { todayIn, isValidIsoDate } from '#shared/dates.ts';
import { formatCents } from '#shared/money.ts';
import { quoteMaxOptions, quoteMessages, type QuoteDetailResponse, type QuoteUpdate } from '#shared/quote.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { company } from '#client/lib/company.ts';
import { DocumentLinesFields, draftLinesFrom, readDraftLines, type DraftLine } from '#client/features/invoices/index.ts';
import { defaultOptionName } from './labels.ts';

type DraftOption = { key: number; name: string; description: string; lines: DraftLine[] };
type QuoteDraft = { title: string; notes: string; validUntil: string; options: DraftOption[] };

let nextOptionKey = 1;

/** A new, empty option named for its place (good, better, best). */
function emptyOption(index: number): DraftOption {
  return { key: nextOptionKey++, name: defaultOptionName(index), description: '', lines: [] };
}

function draftFrom(data: QuoteDetailResponse): QuoteDraft {
  const options = data.options.map((option) => ({ key: nextOptionKey++, name: option.name, description: option.description, lines: draftLinesFrom(option.lines) }));
  return {
    title: data.quote.title,
    notes: data.quote.notes,
    validUntil: data.quote.validUntil ?? '',
    options: options.length > 0 ? options : [emptyOption(0)],
  };
}

type OptionErrors = { name?: string; description?: string };
type DraftErrors = { title?: string; validUntil?: string; options: OptionErrors[] };

/** The quote as the API takes it (PUT /api/admin/quotes/:id), or what is wrong with it, first problem named. */
function readDraft(draft: QuoteDraft, today: string): { values?: QuoteUpdate; errors: DraftErrors; problem?: string; totals: (number | undefined)[] } {
  const errors: DraftErrors = { options: [] };
  const problems: string[] = [];
  const title = draft.title.trim();
  if (title === '') errors.title = 'Give the quote a title';
  else if (title.length > 200) errors.title = 'Keep the title under 200 characters';
  const validUntil = draft.validUntil.trim();
  if (validUntil !== '' && !isValidIsoDate(validUntil)) errors.validUntil = 'Enter a date';
  else if (validUntil !== '' && validUntil < today) errors.validUntil = 'Choose today or a later day, or leave it blank';
  if (errors.title || errors.validUntil) problems.push('Correct the marked fields.');
  const options: QuoteUpdate['options'] = [];
  const totals: (number | undefined)[] = [];
  draft.options.forEach((option, index) => {
    const optionErrors: OptionErrors = {};
    const name = option.name.trim();
    if (name === '') optionErrors.name = 'Name the option';
    else if (name.length > 80) optionErrors.name = 'Keep the name under 80 characters';
    if (option.description.trim().length > 1000) optionErrors.description = 'Keep the description under 1,000 characters';
    errors.options.push(optionErrors);
    const lines = readDraftLines(option.lines);
    totals.push(lines.values ? lines.totals?.totalCents : undefined);
    const label = `Option ${index + 1}${name ? ` (${name})` : ''}`;
    if (optionErrors.name || optionErrors.description) problems.push(`${label}: correct the marked fields.`);
    if (lines.ruleError) problems.push(`${label}: ${lines.ruleError}`);
    else if (!lines.values) problems.push(`${label}: correct the marked lines.`);
    else options.push({ name, description: option.description.trim(), lines: lines.values });
  });
  if (problems.length > 0) return { errors, problem: problems[0], totals };
  return { errors, totals, values: { title, notes: draft.notes.trim(), validUntil: validUntil === '' ? null : validUntil, options } };
}

/**
 * A draft quote's editor: title, valid-until date, notes, and one to five options (good, better,
 * best), each with a name, a description and its lines (the invoices' line fields with the
 * price-book picker and live totals). "Save draft" saves; "Send to customer" checks every option has
 * a line, then hands the values to the screen, which confirms and sends (saving first when changed).
 */
export function QuoteEditor({
  data,
  isSaving,
  onSave,
  onSend,
}: {
  data: QuoteDetailResponse;
  isSaving: boolean;
  /** Resolves true once saved (the editor then counts these values as saved). */
  onSave: (values: QuoteUpdate) => Promise<boolean>;
  onSend: (values: QuoteUpdate, isChanged: boolean) => void;
}) {
  const [draft, setDraft] = useState(() => draftFrom(data));
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(readDraft(draftFrom(data), '0000-00-00').values ?? null));
  const [showErrors, setShowErrors] = useState(false);
  const [sendProblem, setSendProblem] = useState<string>();
  const addOptionRef = useRef<HTMLButtonElement>(null);
  const ids = { title: useId(), validUntil: useId(), notes: useId() };
  const today = todayIn(company.timeZone);
  const read = readDraft(draft, today);
  const isChanged = JSON.stringify(read.values ?? null) !== savedJson;

  const setOption = (key: number, change: Partial<DraftOption>) =>
    setDraft((current) => ({ ...current, options: current.options.map((option) => (option.key === key ? { ...option, ...change } : option)) }));

  function moveOption(index: number, by: -1 | 1) {
    setDraft((current) => {
      const options = [...current.options];
      const [moved] = options.splice(index, 1);
      options.splice(index + by, 0, moved!);
      return { ...current, options };
    });
  }

  function addOption() {
    setDraft((current) => ({ ...current, options: [...current.options, emptyOption(current.options.length)] }));
  }

  function save() {
    setShowErrors(true);
    setSendProblem(undefined);
    const values = read.values;
    if (!values) return;
    void onSave(values).then((saved) => {
      if (saved) setSavedJson(JSON.stringify(values));
    });
  }

  function send() {
    setShowErrors(true);
    setSendProblem(undefined);
    if (!read.values) return;
    const empty = read.values.options.find((option) => option.lines.length === 0);
    if (empty) {
      setSendProblem(quoteMessages.optionEmpty(empty.name));
      return;
    }
    onSend(read.values, isChanged);
  }

  const problem = showErrors ? (read.problem ?? sendProblem) : sendProblem;

  return (
    <form
      aria-label="Edit quote"
      noValidate
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <div className={cardClassName('grid gap-4 p-4 sm:grid-cols-[1fr_14rem]')}>
        <h2 className="text-lg font-semibold text-slate-900 sm:col-span-2">Quote</h2>
        <FormField id={ids.title} label="Title" isRequired error={showErrors ? read.errors.title : undefined}>
          <input
            id={ids.title}
            required
            maxLength={200}
            value={draft.title}
            onChange={(event) => setDraft((current) => ({ ...current, title: event.target.value }))}
            className={controlClass}
            {...errorAttributes(ids.title, showErrors ? read.errors.title : undefined)}
          />
        </FormField>
        <FormField id={ids.validUntil} label="Valid until" error={showErrors ? read.errors.validUntil : undefined}>
          <input
            id={ids.validUntil}
            type="date"
            min={today}
            value={draft.validUntil}
            onChange={(event) => setDraft((current) => ({ ...current, validUntil: event.target.value }))}
            aria-describedby={`${ids.validUntil}-hint${showErrors && read.errors.validUntil ? ` ${ids.validUntil}-error` : ''}`}
            aria-invalid={showErrors && read.errors.validUntil ? true : undefined}
            className={controlClass}
          />
          <p id={`${ids.validUntil}-hint`} className="mt-1 text-xs text-slate-600">
            Blank: {data.quoteValidityDays} days from the day it is sent.
          </p>
        </FormField>
        <FormField id={ids.notes} label="Notes for the customer" className="sm:col-span-2">
          <textarea id={ids.notes} rows={3} maxLength={4000} value={draft.notes} onChange={(event) => setDraft((current) => ({ ...current, notes: event.target.value }))} className={controlClass} />
        </FormField>
      </div>

      <ol className="space-y-5" aria-label="Options">
        {draft.options.map((option, index) => (
          <li key={option.key}>
            <OptionEditor
              index={index}
              count={draft.options.length}
              option={option}
              errors={showErrors ? (read.errors.options[index] ?? {}) : {}}
              showErrors={showErrors}
              defaultTaxRatePpm={data.defaultTaxRatePpm}
              onChange={(change) => setOption(option.key, change)}
              onMove={(by) => moveOption(index, by)}
              onRemove={() => {
                setDraft((current) => ({ ...current, options: current.options.filter((entry) => entry.key !== option.key) }));
                addOptionRef.current?.focus();
              }}
            />
          </li>
        ))}
      </ol>

      <div className="flex flex-wrap items-center gap-3">
        <Button ref={addOptionRef} variant="secondary" onClick={addOption} disabled={draft.options.length >= quoteMaxOptions}>
          Add option
        </Button>
        <p className="text-sm text-slate-600">
          {draft.options.length} of {quoteMaxOptions} options
          {read.totals.every((total) => total !== undefined) ? ` · ${read.totals.map((total) => formatCents(total!)).join(' / ')}` : ''}
        </p>
      </div>

      <div aria-live="assertive">{problem ? <Alert>{problem}</Alert> : null}</div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <p className="self-center text-sm text-slate-600">
          {isChanged ? 'Unsaved changes' : 'All changes saved'}
        </p>
        <Button type="submit" variant="secondary" disabled={isSaving}>
          {isSaving ? 'Saving…' : 'Save draft'}
        </Button>
        <Button onClick={send} disabled={isSaving}>
          Send to customer
        </Button>
      </div>
    </form>
  );
}

function OptionEditor({
  index,
  count,
  option,
  errors,
  showErrors,
  defaultTaxRatePpm,
  onChange,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  option: DraftOption;
  errors: OptionErrors;
  showErrors: boolean;
  defaultTaxRatePpm: number;
  onChange: (change: Partial<DraftOption>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const ids = { name: useId(), description: useId() };
  const number = index + 1;
  const shownName = option.name.trim() || `option ${number}`;
  return (
    <fieldset className={cardClassName('space-y-4 p-4')}>
      <legend className="float-left mb-2 w-full text-lg font-semibold text-slate-900">
        Option {number}
        {option.name.trim() ? `: ${option.name.trim()}` : ''}
      </legend>
      <div className="clear-both grid gap-4 sm:grid-cols-2">
        <FormField id={ids.name} label="Option name" isRequired error={errors.name}>
          <input id={ids.name} required maxLength={80} value={option.name} onChange={(event) => onChange({ name: event.target.value })} className={controlClass} {...errorAttributes(ids.name, errors.name)} />
        </FormField>
        <FormField id={ids.description} label="Description" error={errors.description}>
          <textarea id={ids.description} rows={2} maxLength={1000} value={option.description} onChange={(event) => onChange({ description: event.target.value })} className={controlClass} {...errorAttributes(ids.description, errors.description)} />
        </FormField>
      </div>
      <DocumentLinesFields
        lines={option.lines}
        onChange={(lines) => onChange({ lines })}
        defaultTaxRatePpm={defaultTaxRatePpm}
        showErrors={showErrors}
        minLines={0}
        pickerLabel={`Add from the price book to ${shownName}`}
      />
      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-3">
        {index > 0 ? (
          <Button variant="ghost" size="sm" onClick={() => onMove(-1)}>
            Move up<span className="sr-only"> option {number}</span>
          </Button>
        ) : null}
        {index < count - 1 ? (
          <Button variant="ghost" size="sm" onClick={() => onMove(1)}>
            Move down<span className="sr-only"> option {number}</span>
          </Button>
        ) : null}
        {count > 1 ? (
          <Button variant="danger" size="sm" onClick={onRemove}>
            Remove option {number}
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}
