import { useId, useRef, useState } from 'react';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button, type ButtonVariant } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { messageOf } from '#client/lib/api.ts';

/**
 * A dialog that asks for one text (a new quote's title, a cancellation's reason): the field has the
 * focus, a missing value is marked under it and announced, the server's refusal is announced, and
 * Escape or the first button leaves while nothing is pending.
 */
export function TextFieldDialog({
  title,
  description,
  label,
  initialValue = '',
  maxLength,
  isMultiline = false,
  requiredMessage,
  minLength = 1,
  isPending,
  submitLabel,
  pendingLabel,
  submitVariant = 'primary',
  cancelLabel = 'Cancel',
  onSubmit,
  onClose,
}: {
  title: string;
  description: string;
  label: string;
  initialValue?: string;
  maxLength: number;
  isMultiline?: boolean;
  /** Shown when the trimmed value is shorter than `minLength`. */
  requiredMessage: string;
  minLength?: number;
  isPending: boolean;
  submitLabel: string;
  pendingLabel: string;
  submitVariant?: ButtonVariant;
  cancelLabel?: string;
  /** Resolves when done (the dialog is then closed by its owner); a rejection is shown in the dialog. */
  onSubmit: (value: string) => Promise<void>;
  onClose: () => void;
}) {
  const inputRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [value, setValue] = useState(initialValue.slice(0, maxLength));
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const id = useId();

  async function submit() {
    if (value.trim().length < minLength) {
      setFieldError(requiredMessage);
      return;
    }
    setFieldError(undefined);
    setError(undefined);
    try {
      await onSubmit(value.trim());
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  const control = {
    id,
    ref: inputRef,
    required: true,
    maxLength,
    value,
    onChange: (event: { target: { value: string } }) => setValue(event.target.value),
    className: controlClass,
    ...errorAttributes(id, fieldError),
  };
  return (
    <Dialog title={title} description={description} onClose={() => (isPending ? undefined : onClose())} initialFocusRef={inputRef}>
      <form
        className="mt-4 space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField id={id} label={label} isRequired error={fieldError}>
          {isMultiline ? <textarea rows={3} {...control} /> : <input {...control} />}
        </FormField>
        <div aria-live="assertive">{error || fieldError ? <Alert>{error ?? 'Correct the marked field.'}</Alert> : null}</div>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={isPending}>
            {cancelLabel}
          </Button>
          <Button type="submit" variant={submitVariant} disabled={isPending}>
            {isPending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
