import { useId, useRef, useState, type FormEvent } from 'react';
import { priceBookItemKinds, type PriceBookItemKind } from '#shared/enums.ts';
import { formatCents, parseMoneyInput } from '#shared/money.ts';
import { centsToCsvDollars, marginLabel, priceBookKindLabels, priceBookMessages, type PriceBookItem } from '#shared/price-book.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { useCreatePriceBookItem, useDeletePriceBookItem, usePriceBookItem, useUpdatePriceBookItem } from './price-book-api.ts';

type Draft = {
  kind: PriceBookItemKind;
  code: string;
  name: string;
  description: string;
  category: string;
  unit: string;
  price: string;
  cost: string;
  taxable: boolean;
  active: boolean;
};
type Field = keyof Draft;
type Errors = Partial<Record<Field | 'form', string>>;

const emptyDraft: Draft = { kind: 'part', code: '', name: '', description: '', category: '', unit: 'each', price: '', cost: '', taxable: true, active: true };

function draftOf(item: PriceBookItem): Draft {
  return {
    kind: item.kind,
    code: item.code,
    name: item.name,
    description: item.description,
    category: item.category,
    unit: item.unit,
    price: centsToCsvDollars(item.priceCents),
    cost: centsToCsvDollars(item.costCents),
    taxable: item.taxable,
    active: item.active,
  };
}

/** The server's field names (priceCents) as the form's (price). */
const fieldOfPath: Record<string, Field> = { priceCents: 'price', costCents: 'cost' };

function errorsFrom(error: unknown): Errors {
  if (!(error instanceof ApiError)) return { form: messageOf(error) };
  const details = Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]) : [];
  const errors: Errors = {};
  for (const detail of details) {
    const path = detail.path?.split('.')[0] ?? '';
    const field = fieldOfPath[path] ?? (path as Field);
    if (field in emptyDraft && detail.message && !errors[field]) errors[field] = detail.message;
  }
  if (Object.keys(errors).length === 0 || error.status === 409) errors.form = messageOf(error);
  return errors;
}

/**
 * Add or edit one item (admins). Money is typed as dollars ("89", "1,234.50") and sent as cents; the
 * margin follows as the price and cost are typed. A save against a version someone else changed
 * meanwhile is refused (409) and offers to load theirs.
 */
export function PriceBookItemDialog({
  itemId,
  categories,
  onClose,
  onSaved,
}: {
  /** undefined: a new item. */
  itemId?: string;
  categories: readonly string[];
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const existing = usePriceBookItem(itemId);
  const item = existing.data?.item;
  const [draft, setDraft] = useState<Draft | undefined>(itemId ? undefined : emptyDraft);
  const [loadedVersion, setLoadedVersion] = useState<string | undefined>(undefined);
  if (item && loadedVersion === undefined) {
    setLoadedVersion(item.updatedAt);
    setDraft(draftOf(item));
  }
  const [errors, setErrors] = useState<Errors>({});
  const [isConflict, setIsConflict] = useState(false);
  const create = useCreatePriceBookItem();
  const update = useUpdatePriceBookItem();
  const remove = useDeletePriceBookItem();
  const codeRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const categoryListId = `${id}-categories`;

  const set = <K extends Field>(field: K, value: Draft[K]) => setDraft((current) => (current ? { ...current, [field]: value } : current));

  function check(values: Draft): Errors {
    const problems: Errors = {};
    if (!values.code.trim()) problems.code = priceBookMessages.codeRequired;
    if (!values.name.trim()) problems.name = priceBookMessages.nameRequired;
    if (parseMoneyInput(values.price) === undefined) problems.price = priceBookMessages.priceInvalid;
    const cost = values.cost.trim() === '' ? 0 : parseMoneyInput(values.cost);
    if (cost === undefined || cost < 0) problems.cost = priceBookMessages.costInvalid;
    return problems;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    const problems = check(draft);
    setErrors(problems);
    setIsConflict(false);
    if (Object.keys(problems).length > 0) {
      document.getElementById(`${id}-${Object.keys(problems)[0]}`)?.focus();
      return;
    }
    const body = {
      kind: draft.kind,
      code: draft.code,
      name: draft.name,
      description: draft.description,
      category: draft.category,
      unit: draft.unit || 'each',
      priceCents: parseMoneyInput(draft.price)!,
      costCents: draft.cost.trim() === '' ? 0 : parseMoneyInput(draft.cost)!,
      taxable: draft.taxable,
      active: draft.active,
    };
    try {
      if (itemId && loadedVersion) {
        const { item: saved } = await update.mutateAsync({ id: itemId, ...body, expectedUpdatedAt: loadedVersion });
        onSaved(`${saved.code} was saved.`);
      } else {
        const { item: saved } = await create.mutateAsync(body);
        onSaved(`${saved.code} was added.`);
      }
    } catch (error) {
      setErrors(errorsFrom(error));
      setIsConflict(error instanceof ApiError && error.status === 409 && error.message === priceBookMessages.stale);
    }
  }

  async function reloadTheirs() {
    const fresh = await existing.refetch();
    if (fresh.data) {
      setLoadedVersion(fresh.data.item.updatedAt);
      setDraft(draftOf(fresh.data.item));
      setErrors({});
      setIsConflict(false);
    }
  }

  async function deleteItem() {
    if (!itemId || !item) return;
    if (!window.confirm(`Delete ${item.code} for good? It is on no quote or invoice.`)) return;
    try {
      await remove.mutateAsync(itemId);
      onSaved(`${item.code} was deleted.`);
    } catch (error) {
      setErrors({ form: messageOf(error) });
    }
  }

  const price = draft ? parseMoneyInput(draft.price) : undefined;
  const cost = draft ? (draft.cost.trim() === '' ? 0 : parseMoneyInput(draft.cost)) : undefined;
  const isSaving = create.isPending || update.isPending;
  const fieldId = (field: Field) => `${id}-${field}`;

  return (
    <Dialog title={itemId ? 'Edit price book item' : 'Add a price book item'} onClose={onClose} initialFocusRef={codeRef} className="max-w-2xl">
      {!draft ? (
        existing.isError ? <Alert>{messageOf(existing.error)}</Alert> : <p role="status">Loading…</p>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={fieldId('code')} label="Code" isRequired error={errors.code} hint="(unique, e.g. CAP-45-5)">
              <input
                ref={codeRef}
                id={fieldId('code')}
                value={draft.code}
                onChange={(event) => set('code', event.target.value)}
                required
                maxLength={40}
                autoComplete="off"
                spellCheck={false}
                className={`${controlClass} font-mono`}
                {...errorAttributes(fieldId('code'), errors.code)}
              />
            </FormField>
            <FormField id={fieldId('kind')} label="Kind" error={errors.kind}>
              <select
                id={fieldId('kind')}
                value={draft.kind}
                onChange={(event) => {
                  const kind = event.target.value as PriceBookItemKind;
                  // A new item's taxable flag follows its kind (parts and equipment are taxed) until it is set by hand.
                  setDraft((current) => (current ? { ...current, kind, taxable: itemId ? current.taxable : kind === 'part' || kind === 'equipment' } : current));
                }}
                className={controlClass}
                {...errorAttributes(fieldId('kind'), errors.kind)}
              >
                {priceBookItemKinds.map((kind) => (
                  <option key={kind} value={kind}>
                    {priceBookKindLabels[kind]}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id={fieldId('name')} label="Name" isRequired error={errors.name} className="sm:col-span-2">
              <input
                id={fieldId('name')}
                value={draft.name}
                onChange={(event) => set('name', event.target.value)}
                required
                maxLength={120}
                autoComplete="off"
                className={controlClass}
                {...errorAttributes(fieldId('name'), errors.name)}
              />
            </FormField>
            <FormField id={fieldId('description')} label="Description" error={errors.description} className="sm:col-span-2">
              <textarea
                id={fieldId('description')}
                value={draft.description}
                onChange={(event) => set('description', event.target.value)}
                rows={2}
                maxLength={2000}
                className={controlClass}
                {...errorAttributes(fieldId('description'), errors.description)}
              />
            </FormField>
            <FormField id={fieldId('category')} label="Category" error={errors.category}>
              <input
                id={fieldId('category')}
                value={draft.category}
                onChange={(event) => set('category', event.target.value)}
                list={categoryListId}
                maxLength={60}
                autoComplete="off"
                className={controlClass}
                {...errorAttributes(fieldId('category'), errors.category)}
              />
              <datalist id={categoryListId}>
                {categories.map((category) => (
                  <option key={category} value={category} />
                ))}
              </datalist>
            </FormField>
            <FormField id={fieldId('unit')} label="Unit" error={errors.unit} hint="(each, hour, lb, ft)">
              <input
                id={fieldId('unit')}
                value={draft.unit}
                onChange={(event) => set('unit', event.target.value)}
                maxLength={20}
                autoComplete="off"
                className={controlClass}
                {...errorAttributes(fieldId('unit'), errors.unit)}
              />
            </FormField>
            <FormField id={fieldId('price')} label="Price ($)" isRequired error={errors.price}>
              <input
                id={fieldId('price')}
                value={draft.price}
                onChange={(event) => set('price', event.target.value)}
                inputMode="decimal"
                required
                autoComplete="off"
                placeholder="89.00"
                className={controlClass}
                {...errorAttributes(fieldId('price'), errors.price)}
              />
            </FormField>
            <FormField id={fieldId('cost')} label="Cost ($)" error={errors.cost} hint="(what it costs us)">
              <input
                id={fieldId('cost')}
                value={draft.cost}
                onChange={(event) => set('cost', event.target.value)}
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.00"
                className={controlClass}
                {...errorAttributes(fieldId('cost'), errors.cost)}
              />
            </FormField>
          </div>
          <p className="text-sm text-slate-700" aria-live="polite">
            Margin: <span data-testid="margin">{price !== undefined && cost !== undefined ? marginLabel(price, cost) : '—'}</span>
            {price !== undefined ? <span className="text-slate-500"> · price {formatCents(price)}</span> : null}
          </p>
          <div className="flex flex-wrap gap-6">
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" checked={draft.taxable} onChange={(event) => set('taxable', event.target.checked)} className="h-5 w-5" />
              Taxable (sales tax applies)
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" checked={draft.active} onChange={(event) => set('active', event.target.checked)} className="h-5 w-5" />
              Active (offered on quotes and invoices)
            </label>
          </div>
          <div aria-live="assertive">
            {errors.form ? (
              <Alert>
                {errors.form}
                {isConflict ? (
                  <Button variant="secondary" size="sm" className="ml-2" onClick={() => void reloadTheirs()}>
                    Load their version
                  </Button>
                ) : null}
              </Alert>
            ) : null}
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div>
              {itemId && existing.data && !existing.data.inUse ? (
                <Button variant="destructive" onClick={() => void deleteItem()} disabled={remove.isPending}>
                  Delete item
                </Button>
              ) : null}
            </div>
            <div className="flex gap-2">
              <Button variant="secondary" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={isSaving}>
                {isSaving ? 'Saving…' : itemId ? 'Save changes' : 'Add item'}
              </Button>
            </div>
          </div>
        </form>
      )}
    </Dialog>
  );
}
