import type { ReactNode } from 'react';

/** Inputs, selects and textareas share one look; an invalid control gets a red border. */
export const controlClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600 disabled:bg-slate-100 aria-[invalid=true]:border-red-600';

/** The attributes that tie a control to its error message. */
export function errorAttributes(id: string, error: string | undefined) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined } as const;
}

/**
 * A label, a control (children, with `id` and `errorAttributes(id, error)`) and its error below.
 * Required fields show an asterisk, hidden from screen readers (the control says `required`).
 */
export function FormField({
  id,
  label,
  isRequired,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  isRequired?: boolean;
  error?: string;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {isRequired ? (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        ) : null}
        {hint ? <span className="font-normal text-slate-600"> {hint}</span> : null}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
