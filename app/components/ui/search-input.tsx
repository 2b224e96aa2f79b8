import { useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { controlClass } from './form-field.tsx';
import { useUrlSearch } from './use-url-search.ts';

/**
 * A list's search box: labelled, kept in the URL's `?search=` after a pause (`useUrlSearch`:
 * the box follows back, forward and reload; a new search goes back to the first page).
 * Returns the box and the search the list should load.
 */
export function useSearchInput() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useUrlSearch(searchParams, setSearchParams);
  return { ...state, searchParams, setSearchParams };
}

/** The labelled search input itself; `value`/`onChange` are `useSearchInput()`'s draft and setter. */
export function SearchInput({
  label,
  value,
  onChange,
  placeholder,
  name,
  withIcon = false,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  name?: string;
  /** A magnifier inside the box (the customer directory). */
  withIcon?: boolean;
  /** Under the box: usually the list's count in a role="status" line. */
  children?: ReactNode;
}) {
  const id = useId();
  const input = (
    <input
      id={id}
      type="search"
      name={name}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={placeholder}
      autoComplete="off"
      enterKeyHint="search"
      className={
        withIcon
          ? 'block w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600'
          : controlClass
      }
    />
  );
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {withIcon ? (
        <div className="relative mt-1">
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">
            <SearchIcon />
          </span>
          {input}
        </div>
      ) : (
        input
      )}
      {children}
    </div>
  );
}

function SearchIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}
