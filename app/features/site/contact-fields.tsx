import type { InputHTMLAttributes } from 'react';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';

/** How the browser is told about each contact field: its type, autofill and keyboard. */
const contactInputs = {
  name: { autoComplete: 'name' },
  email: { type: 'email', autoComplete: 'email' },
  phone: { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  address: { autoComplete: 'street-address' },
  zip: { autoComplete: 'postal-code', inputMode: 'numeric', maxLength: 5 },
} as const satisfies Record<string, InputHTMLAttributes<HTMLInputElement>>;

export type ContactFieldName = keyof typeof contactInputs;

/**
 * One required contact field of a public form (estimate, plan sign-up): its label, the input
 * (named after the field, tied to its error message) and the error below. Editing it clears
 * its error.
 */
export function ContactField({
  name,
  id,
  label,
  error,
  onChange,
  placeholder,
  className,
}: {
  name: ContactFieldName;
  id: string;
  label: string;
  error: string | undefined;
  onChange: () => void;
  placeholder?: string;
  className?: string;
}) {
  return (
    <FormField id={id} label={label} isRequired error={error} className={className}>
      <input id={id} name={name} {...contactInputs[name]} required placeholder={placeholder} {...errorAttributes(id, error)} onChange={onChange} className={controlClass} />
    </FormField>
  );
}

type PersonFieldName = 'name' | 'email' | 'phone';

/** The name, email and phone fields the public forms open with, in that order. */
export function PersonFields({
  fieldId,
  errors,
  clearError,
  nameLabel,
}: {
  fieldId: (name: PersonFieldName) => string;
  errors: Partial<Record<PersonFieldName, string>>;
  clearError: (name: PersonFieldName) => void;
  nameLabel: string;
}) {
  const field = (name: PersonFieldName, label: string) => (
    <ContactField name={name} id={fieldId(name)} label={label} error={errors[name]} onChange={() => clearError(name)} />
  );
  return (
    <>
      {field('name', nameLabel)}
      {field('email', 'Email')}
      {field('phone', 'Phone')}
    </>
  );
}

/** The line every public form opens with: what the asterisk means, also to a screen reader. */
export function RequiredFieldsNote({ className = '' }: { className?: string }) {
  return (
    <p className={`${className ? `${className} ` : ''}text-sm text-slate-600`}>
      Fields marked <span aria-hidden="true" className="text-red-700">*</span>
      <span className="sr-only">with an asterisk</span> are required.
    </p>
  );
}

/** A public form's own error (not a field's), announced as it appears. */
export function FormErrorAlert({ message }: { message: string | undefined }) {
  return (
    <div aria-live="assertive">
      {message ? (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
          {message}
        </p>
      ) : null}
    </div>
  );
}

/** The honeypot field: invisible to people and screen readers; bots fill it in, and the server drops what they send. */
export function HoneypotField() {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label>
        Website
        <input name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
