import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { invoiceLinkApiPath, type InvoiceCheckoutResponse, type PublicInvoiceResponse } from '#shared/invoice-link.ts';
import { formatCents } from '#shared/money.ts';
import { DocumentLinkProblem } from '#client/components/document-link-problem.tsx';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { BillingDocumentView } from '#client/features/invoices/index.ts';
import { ApiError, apiFetch, messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';

/** How often the page asks again while a card payment is being confirmed, and for how long at most. */
const confirmPollMs = 2000;
const confirmPollLimit = 30;

/**
 * The customer's invoice (issue 20, decision 024-h): opened from the link in the e-mail or text,
 * no account. The document as the PDF prints it, the balance, "Pay by card" when online payment
 * is set up (Stripe's hosted page), else how to pay.
 */
export function InvoicePage({ token, checkoutSessionId }: { token: string; checkoutSessionId: string | undefined }) {
  const [payError, setPayError] = useState<string>();
  const [isPaying, setIsPaying] = useState(false);
  const query = checkoutSessionId ? `?checkout=${encodeURIComponent(checkoutSessionId)}` : '';
  const invoice = useQuery({
    queryKey: ['customer-invoice', token, checkoutSessionId ?? null],
    queryFn: ({ signal }) =>
      apiFetch<PublicInvoiceResponse>(`${invoiceLinkApiPath(token)}${query}`, {
        signal,
      }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    // Back from Stripe before its webhook came: ask again until the payment is on record.
    refetchInterval: (current) => (current.state.data?.checkout === 'confirming' && current.state.dataUpdateCount < confirmPollLimit ? confirmPollMs : false),
  });

  async function pay() {
    setPayError(undefined);
    setIsPaying(true);
    try {
      const { url } = await apiFetch<InvoiceCheckoutResponse>(`${invoiceLinkApiPath(token)}/checkout`, { method: 'POST' });
      window.location.assign(url);
    } catch (error) {
      setPayError(messageOf(error));
      setIsPaying(false);
    }
  }

  if (invoice.isPending) {
    return (
      <p role="status" className="p-8 text-center text-slate-600">
        Loading your invoice…
      </p>
    );
  }
  if (invoice.isError) {
    return <DocumentLinkProblem documentName="Invoice" error={invoice.error} onRetry={() => void invoice.refetch()} />;
  }

  const { data } = invoice;
  const isVoid = data.status === 'void';
  const isPaid = data.status === 'paid';
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">
        Invoice {data.document.number}
        <span className="sr-only"> from {company.name}</span>
      </h1>
      <div aria-live="polite" aria-atomic="true" className="space-y-2">
        {data.checkout === 'recorded' || (data.checkout === 'confirming' && isPaid) ? <Alert tone="success">Thank you: your payment has been received.</Alert> : null}
        {data.checkout === 'confirming' && !isPaid ? <Alert tone="info">Thanks! We are confirming your payment; this page updates by itself.</Alert> : null}
      </div>
      <section aria-labelledby="amount-due" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
        <h2 id="amount-due" className="text-lg font-semibold text-slate-900">
          {isVoid ? 'This invoice is void' : isPaid ? 'Paid in full' : `Amount due: ${formatCents(data.balanceCents)}`}
        </h2>
        {isVoid ? <p className="mt-1 text-slate-700">Nothing is owed on it. Contact us if you have questions.</p> : null}
        {!isVoid && !isPaid && data.document.dueOn ? <p className="mt-1 text-slate-700">Due {data.document.dueOn}</p> : null}
        {data.payOnline && !(data.checkout === 'confirming') ? (
          <div className="mt-3">
            <Button onClick={() => void pay()} disabled={isPaying} className="w-full sm:w-auto">
              {isPaying ? 'Opening the secure payment page…' : `Pay ${formatCents(data.payOnline.amountCents)} by card`}
            </Button>
            <p className="mt-2 text-sm text-slate-600">You pay on Stripe&apos;s secure page; we never see your card number.</p>
          </div>
        ) : null}
        {payError ? (
          <div className="mt-3">
            <Alert tone="error">{payError}</Alert>
          </div>
        ) : null}
        {!isVoid && !isPaid && data.balanceCents > 0 ? (
          <p className="mt-3 text-slate-800">
            <strong>How to pay{data.payOnline ? ' otherwise' : ''}:</strong> {data.howToPay}
          </p>
        ) : null}
        <p className="mt-3">
          <a className={buttonClass('secondary')} href={`${invoiceLinkApiPath(token)}/pdf`} download={`${data.document.number}.pdf`}>
            Download PDF
          </a>
        </p>
      </section>
      <BillingDocumentView document={data.document} />
    </div>
  );
}
