import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button, type ButtonVariant } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';
import { messageOf } from '#client/lib/api.ts';
import { useCreateQuote } from './api.ts';
import { defaultOptionName, quoteDetailPath } from './labels.ts';

export type NewQuoteSource = {
  customerId: string;
  workOrderId?: string | null;
  estimateRequestId?: string | null;
  aiLeadId?: string | null;
};

/**
 * "New quote" from a customer, a work order or a lead: asks for the title (prefilled from where it
 * starts), creates a draft with one empty option named "Good", and opens it in the editor.
 */
export function NewQuoteButton({ source, defaultTitle, variant = 'secondary', className = '' }: { source: NewQuoteSource; defaultTitle: string; variant?: ButtonVariant; className?: string }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button variant={variant} size="sm" className={className} onClick={() => setIsOpen(true)}>
        New quote
      </Button>
      {isOpen ? <NewQuoteDialog source={source} defaultTitle={defaultTitle} onClose={() => setIsOpen(false)} /> : null}
    </>
  );
}

function NewQuoteDialog({ source, defaultTitle, onClose }: { source: NewQuoteSource; defaultTitle: string; onClose: () => void }) {
  const create = useCreateQuote();
  const navigate = useNavigate();
  const titleRef = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState(defaultTitle.slice(0, 200));
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const id = useId();

  async function submit() {
    if (title.trim() === '') {
      setFieldError('Give the quote a title');
      return;
    }
    setFieldError(undefined);
    setError(undefined);
    try {
      const created = await create.mutateAsync({
        customerId: source.customerId,
        workOrderId: source.workOrderId ?? null,
        estimateRequestId: source.estimateRequestId ?? null,
        aiLeadId: source.aiLeadId ?? null,
        title: title.trim(),
        options: [{ name: defaultOptionName(0), lines: [] }],
      });
      await navigate(quoteDetailPath(created.quote.id));
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <Dialog title="New quote" description="The customer sees this title. You add the options and their lines next." onClose={() => (create.isPending ? undefined : onClose())} initialFocusRef={titleRef}>
      <form
        className="mt-4 space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField id={id} label="Title" isRequired error={fieldError}>
          <input
            id={id}
            ref={titleRef}
            required
            maxLength={200}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            className={controlClass}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${id}-error` : undefined}
          />
        </FormField>
        <div aria-live="assertive">{error || fieldError ? <Alert>{error ?? 'Correct the marked field.'}</Alert> : null}</div>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create quote'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
