import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, type ButtonVariant } from '#client/components/ui/button.tsx';
import { useCreateQuote } from './api.ts';
import { defaultOptionName, quoteDetailPath } from './labels.ts';
import { TextFieldDialog } from './text-field-dialog.tsx';

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
  const create = useCreateQuote();
  const navigate = useNavigate();
  return (
    <>
      <Button variant={variant} size="sm" className={className} onClick={() => setIsOpen(true)}>
        New quote
      </Button>
      {isOpen ? (
        <TextFieldDialog
          title="New quote"
          description="The customer sees this title. You add the options and their lines next."
          label="Title"
          initialValue={defaultTitle}
          maxLength={200}
          requiredMessage="Give the quote a title"
          isPending={create.isPending}
          submitLabel="Create quote"
          pendingLabel="Creating…"
          onClose={() => setIsOpen(false)}
          onSubmit={async (title) => {
            const created = await create.mutateAsync({
              customerId: source.customerId,
              workOrderId: source.workOrderId ?? null,
              estimateRequestId: source.estimateRequestId ?? null,
              aiLeadId: source.aiLeadId ?? null,
              title,
              options: [{ name: defaultOptionName(0), lines: [] }],
            });
            await navigate(quoteDetailPath(created.quote.id));
          }}
        />
      ) : null}
    </>
  );
}
