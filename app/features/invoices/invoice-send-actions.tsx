import { describeDelivery, type InvoiceIssueResponse, type InvoiceSendResponse } from '#shared/invoice-link.ts';
import type { Invoice } from '#shared/invoice.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { apiFetch, messageOf } from '#client/lib/api.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invoiceKeys } from './api.ts';

/** The notice after issuing: the invoice is issued, and by which channels it went (or why not). */
export function issuedNotice(answer: unknown): string {
  const delivery = (answer as Partial<InvoiceIssueResponse> | undefined)?.delivery;
  return delivery ? `Invoice issued. ${describeDelivery(delivery)}` : 'Invoice issued.';
}

/**
 * "Download PDF" (the same document the screen shows) and "Send again" (another e-mail / text with
 * a new link) for an invoice (decision 024-h).
 */
export function InvoiceSendActions({ invoice, onNotice }: { invoice: Invoice; onNotice: (notice: { tone: 'success' | 'error'; text: string } | undefined) => void }) {
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () => apiFetch<InvoiceSendResponse>(`/api/admin/invoices/${encodeURIComponent(invoice.id)}/send`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
  const canSend = invoice.kind === 'invoice' && invoice.status !== 'draft' && invoice.status !== 'void';
  const fileName = `${invoice.invoiceNumber ?? 'draft-invoice'}.pdf`;
  return (
    <>
      <a className={buttonClass('secondary')} href={`/api/admin/invoices/${encodeURIComponent(invoice.id)}/pdf`} download={fileName}>
        Download PDF
      </a>
      {canSend ? (
        <Button
          variant="secondary"
          disabled={send.isPending}
          onClick={() => {
            onNotice(undefined);
            send.mutate(undefined, {
              onSuccess: (answer) =>
                onNotice({
                  tone: 'success',
                  text: describeDelivery(answer.delivery),
                }),
              onError: (error) => onNotice({ tone: 'error', text: messageOf(error) }),
            });
          }}
        >
          {send.isPending ? 'Sending…' : 'Send again'}
        </Button>
      ) : null}
    </>
  );
}
