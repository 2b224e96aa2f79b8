import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { customerMessages, type CustomerListItem, type CustomerLookupResponse } from '#shared/customer.ts';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { apiFetch } from '#client/lib/api.ts';
import { cityLine } from './labels.ts';

/** How long typing pauses before the picker asks the server. */
export const customerPickerDebounceMs = 250;
/** The picker's rule: at least this many characters, at most `customerPickerLimit` results. */
export const customerPickerMinLength = 2;
export const customerPickerLimit = 10;

/** A customer chosen in a picker: at least its id and name (a preselected one may have no more). */
export type PickedCustomer = Pick<CustomerListItem, 'id' | 'name'> & Partial<CustomerListItem>;

/** `GET /api/admin/customers/lookup?q=`: name or phone; kept under ['customers'] so customer changes refresh it. */
export function useCustomerLookup(q: string) {
  return useQuery({
    queryKey: ['customers', 'lookup', q] as const,
    queryFn: ({ signal }) => apiFetch<CustomerLookupResponse>(`/api/admin/customers/lookup?${new URLSearchParams({ q })}`, { signal }),
    enabled: q.length >= customerPickerMinLength,
    placeholderData: keepPreviousData,
  });
}

/**
 * The one customer picker (work orders, the calendar, lead conversion): a labelled search box,
 * debounced, with the matching customers as buttons. With `picked` and `onClear` it shows the
 * chosen customer and "Change Customer" instead; without them the box empties after a pick.
 */
export function CustomerPicker({
  id,
  label = 'Search customers by name or phone',
  hint,
  placeholder = 'At least 2 characters',
  error,
  picked,
  isLoadingPreselection = false,
  noResults = 'No customers found',
  className,
  onPick,
  onClear,
}: {
  id?: string;
  label?: string;
  hint?: string;
  /** null: no placeholder. */
  placeholder?: string | null;
  error?: string;
  picked?: PickedCustomer | undefined;
  isLoadingPreselection?: boolean;
  noResults?: string;
  className?: string;
  onPick: (customer: CustomerListItem) => void;
  onClear?: () => void;
}) {
  const generatedId = useId();
  const searchId = id ?? generatedId;
  const resultsId = useId();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(draft.trim()), customerPickerDebounceMs);
    return () => window.clearTimeout(timer);
  }, [draft]);
  const lookup = useCustomerLookup(query);
  const customers = (lookup.data?.customers ?? []).slice(0, customerPickerLimit);

  if (picked && onClear) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-brand-100 bg-brand-50 p-3">
        <p aria-live="polite" className="text-slate-900">
          <span className="font-medium">Selected customer: </span>
          <span className="font-semibold">{picked.name}</span>
          {picked.phone ? <span className="block text-sm text-slate-700">{[picked.phone, picked.address, picked.city ? cityLine(picked as CustomerListItem) : ''].filter(Boolean).join(' · ')}</span> : null}
        </p>
        <Button variant="secondary" size="sm" onClick={onClear}>
          Change Customer
        </Button>
      </div>
    );
  }

  return (
    <div className={className}>
      {isLoadingPreselection ? <p role="status" className="mb-2 text-sm text-slate-600">Loading customer...</p> : null}
      <FormField id={searchId} label={label} hint={hint} error={error}>
        <input
          id={searchId}
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={placeholder ?? undefined}
          autoComplete="off"
          aria-controls={resultsId}
          className={controlClass}
          {...errorAttributes(searchId, error)}
        />
      </FormField>
      <div id={resultsId} aria-live="polite" className="mt-2">
        {query.length < customerPickerMinLength ? null : lookup.isPending ? (
          <p role="status" className="text-sm text-slate-600">Searching...</p>
        ) : lookup.isError ? (
          <p role="alert" className="text-sm text-red-700">{customerMessages.unexpected}</p>
        ) : customers.length === 0 ? (
          <p role="status" className="text-sm text-slate-700">{noResults}</p>
        ) : (
          <ul aria-label="Matching customers" className="divide-y divide-slate-200 rounded-md border border-slate-200">
            {customers.map((customer) => (
              <li key={customer.id}>
                <button
                  type="button"
                  onClick={() => {
                    onPick(customer);
                    if (!onClear) setDraft('');
                  }}
                  className="block min-h-11 w-full px-3 py-2 text-left hover:bg-brand-50 focus:bg-brand-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                >
                  <span className="block font-semibold text-slate-900">{customer.name}</span>
                  <span className="block text-sm text-slate-700">{[customer.phone, customer.address].filter(Boolean).join(' · ')}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
