import { useId, type InputHTMLAttributes } from 'react';
import { controlClass } from './form-field.tsx';

export { controlClass, errorAttributes, FormField } from './form-field.tsx';

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string };

/**
 * A labelled input with an optional hint under the label; its error is tied to it with
 * `aria-describedby` (with the hint) and `aria-invalid`. For a select or textarea, or a control
 * drawn by the screen, use `FormField` with `errorAttributes`.
 */
export function Field({ label, hint, error, id, className, ...input }: FieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={controlClass} {...input} />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
