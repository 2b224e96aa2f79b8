import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { messageOf } from '#client/lib/api.ts';
import { useCreateInvoiceFromWorkOrder } from './api.ts';
import { invoiceDetailPath } from './labels.ts';

/** "Create invoice" on a completed work order: a draft with its service and materials, opened for editing. */
export function CreateInvoiceButton({ workOrderId }: { workOrderId: string }) {
  const create = useCreateInvoiceFromWorkOrder();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  return (
    <div className="space-y-2">
      <Button
        className="w-full"
        disabled={create.isPending}
        onClick={() => {
          setError(undefined);
          create.mutate(workOrderId, {
            onSuccess: (detail) => void navigate(invoiceDetailPath(detail.invoice.id)),
            onError: (caught) => setError(messageOf(caught)),
          });
        }}
      >
        {create.isPending ? 'Creating invoice…' : 'Create invoice'}
      </Button>
      <div aria-live="assertive">{error ? <Alert>{error}</Alert> : null}</div>
    </div>
  );
}
