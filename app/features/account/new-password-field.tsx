import { useEffect, useId, useState, type RefObject } from 'react';
import { passwordLength } from '#shared/auth.ts';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';

export const newPasswordHint = `At least ${passwordLength.min} characters. A few unrelated words work well; common passwords, simple sequences and your name or e-mail are refused.`;

/**
 * A new password's input: the policy in words below the label, the error tied to the input, and a
 * show/hide switch (typing a long passphrase blind is error-prone).
 */
export function NewPasswordField({
  name,
  label,
  error,
  disabled,
  autoFocus,
}: {
  name: string;
  label: string;
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const [isVisible, setIsVisible] = useState(false);
  const attributes = errorAttributes(id, error);
  return (
    <FormField id={id} label={label} error={error} isRequired>
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {newPasswordHint}
      </p>
      <div className="flex items-stretch gap-2">
        <input
          id={id}
          name={name}
          type={isVisible ? 'text' : 'password'}
          autoComplete="new-password"
          required
          minLength={passwordLength.min}
          maxLength={passwordLength.max}
          disabled={disabled}
          autoFocus={autoFocus}
          className={controlClass}
          {...attributes}
          aria-describedby={[hintId, attributes['aria-describedby']].filter(Boolean).join(' ')}
        />
        <button
          type="button"
          onClick={() => setIsVisible((visible) => !visible)}
          aria-pressed={isVisible}
          aria-controls={id}
          className="mt-1 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {isVisible ? 'Hide' : 'Show'}
          <span className="sr-only"> {label.toLowerCase()}</span>
        </button>
      </div>
    </FormField>
  );
}

/**
 * Announces a form's first field error at once (role="alert"); the message itself is shown under
 * its field, which also gets the focus.
 */
export function FieldErrorAnnouncement({ message }: { message: string | undefined }) {
  return (
    <p role="alert" className="sr-only">
      {message ?? ''}
    </p>
  );
}

/**
 * Moves the focus to a form's field by name once React has rendered: after a refused submit the
 * fields are still disabled (pending) at the moment the answer arrives, and a disabled input
 * cannot take the focus.
 */
export function useFocusField(formRef: RefObject<HTMLFormElement | null>): (name: string) => void {
  const [request, setRequest] = useState<{ name: string }>();
  useEffect(() => {
    if (request) formRef.current?.querySelector<HTMLElement>(`[name="${request.name}"]`)?.focus();
  }, [request, formRef]);
  return (name) => setRequest({ name });
}
