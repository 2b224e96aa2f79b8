import { useState } from 'react';
import { Link } from 'react-router';
import { describeDelivery } from '#shared/invoice-link.ts';
import { quoteSignaturePath, type QuoteDetailResponse, type QuoteUpdate } from '#shared/quote.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Card, LoadingCard } from '#client/components/ui/card.tsx';
import { ConfirmDialog } from '#client/components/ui/dialog.tsx';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { formatDay } from '#client/features/invoices/index.ts';
import { useCancelQuote, useQuoteDetail, useReviseQuote, useSendQuote, useUpdateQuote } from './api.ts';
import { customerPath, formatDateTime, historyActionLabel, historyChangeLines, quoteListPath, quoteName, quoteStatusBadge, workOrderPath } from './labels.ts';
import { QuoteEditor } from './quote-editor.tsx';
import { QuoteOptionView } from './quote-option-view.tsx';
import { TextFieldDialog } from './text-field-dialog.tsx';

type Notice = { tone: 'success' | 'error'; text: string };

/** A quote: the draft's editor, or the options as sent and the customer's answer; the actions its state allows; its history. */
export function QuoteDetail({ id }: { id: string }) {
  const detail = useQuoteDetail(id);
  if (detail.isPending) return <LoadingCard>Loading quote…</LoadingCard>;
  if (detail.isError) {
    const isMissing = detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 400);
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
        <h1 className="text-xl font-semibold">{isMissing ? 'Quote not found.' : 'The quote could not be loaded.'}</h1>
        <div className="mt-4 flex justify-center gap-3">
          {isMissing ? null : (
            <Button onClick={() => void detail.refetch()} disabled={detail.isFetching}>
              Try again
            </Button>
          )}
          <Link to={quoteListPath} className={buttonClass('secondary')}>
            Back to quotes
          </Link>
        </div>
      </div>
    );
  }
  return <QuoteDetailView data={detail.data} />;
}

type OpenDialog = { send: { values: QuoteUpdate; isChanged: boolean } } | 'revise' | 'cancel' | undefined;

function QuoteDetailView({ data }: { data: QuoteDetailResponse }) {
  const { quote } = data;
  const [notice, setNotice] = useState<Notice>();
  const [dialog, setDialog] = useState<OpenDialog>();
  const update = useUpdateQuote(quote.id);
  const send = useSendQuote(quote.id);
  const revise = useReviseQuote(quote.id);
  const badge = quoteStatusBadge(quote.status);
  const isDraft = quote.status === 'draft';
  const canSendAgain = quote.status === 'sent' && !quote.expired;
  const canRevise = quote.status === 'sent' || quote.status === 'declined';
  const canCancel = quote.status !== 'approved' && quote.status !== 'cancelled';
  const title = quote.quoteNumber ? quoteName(quote) : `Draft quote for ${quote.customerName}`;

  async function run<T>(action: () => Promise<T>, success: string | ((answer: T) => string)): Promise<boolean> {
    setNotice(undefined);
    try {
      const answer = await action();
      setNotice({ tone: 'success', text: typeof success === 'string' ? success : success(answer) });
      return true;
    } catch (error) {
      setNotice({ tone: 'error', text: messageOf(error) });
      return false;
    }
  }

  async function saveAndSend(values: QuoteUpdate, isChanged: boolean) {
    await run(
      async () => {
        if (isChanged) await update.mutateAsync(values);
        return send.mutateAsync(undefined);
      },
      (answer) => `Quote ${answer.quote.quoteNumber} sent. ${describeDelivery(answer.delivery)}`,
    );
    setDialog(undefined);
  }

  return (
    <article aria-labelledby="quote-title" className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Link to={quoteListPath} className="text-sm text-brand-700 underline">
            ← Quotes
          </Link>
          <h1 id="quote-title" className="mt-1 text-2xl font-bold break-words text-slate-900">
            {title}
          </h1>
          <p className="mt-1 text-slate-800 break-words">{quote.title}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <Badge tone={badge.tone}>{badge.label}</Badge>
            {quote.expired ? <Badge tone="danger">Expired</Badge> : null}
            <Link to={customerPath(quote.customerId)} className="underline">
              {quote.customerName}
            </Link>
            {quote.workOrderId ? (
              <Link to={workOrderPath(quote.workOrderId)} className="underline">
                For work order {quote.workOrderNumber ?? ''}
              </Link>
            ) : null}
            {quote.estimateRequestId ? (
              <Link to={`/admin/estimates?filter=all&lead=estimate:${encodeURIComponent(quote.estimateRequestId)}`} className="underline">
                From an estimate request
              </Link>
            ) : null}
            {quote.aiLeadId ? (
              <Link to={`/admin/estimates?filter=all&lead=chat:${encodeURIComponent(quote.aiLeadId)}`} className="underline">
                From a chat lead
              </Link>
            ) : null}
          </p>
          <p className="mt-1 text-sm text-slate-700">
            {quote.sentAt ? `Sent ${formatDateTime(quote.sentAt)}` : `Created ${formatDateTime(quote.createdAt)}`}
            {quote.validUntil ? ` · ${quote.expired ? 'Expired after' : 'Valid until'} ${formatDay(quote.validUntil)}` : ''}
          </p>
        </div>
        {canSendAgain || canRevise || canCancel ? (
          <div className="flex flex-wrap gap-2" role="group" aria-label="Quote actions">
            {canSendAgain ? (
              <Button
                variant="secondary"
                disabled={send.isPending}
                onClick={() => void run(() => send.mutateAsync(undefined), (answer) => `Sent again with a new link. ${describeDelivery(answer.delivery)}`)}
              >
                {send.isPending ? 'Sending…' : 'Send again'}
              </Button>
            ) : null}
            {canRevise ? (
              <Button variant="secondary" onClick={() => setDialog('revise')}>
                Revise
              </Button>
            ) : null}
            {canCancel ? (
              <Button variant="danger" onClick={() => setDialog('cancel')}>
                Cancel quote
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>

      <div aria-live="polite" aria-atomic="true">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      </div>

      {quote.expired ? (
        <Alert tone="info">This quote expired before the customer answered. Revise it to change it and give it a new valid-until date, then send it again.</Alert>
      ) : null}
      {quote.status === 'approved' ? <ApprovalCard data={data} /> : null}
      {quote.status === 'declined' ? (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Declined by the customer</h2>
          <p className="mt-1 text-sm text-slate-800">
            {quote.declinedAt ? formatDateTime(quote.declinedAt) : ''}
            {quote.declineReason ? `: “${quote.declineReason}”` : ' (no reason given)'}
          </p>
        </Card>
      ) : null}

      <div className="grid gap-5 lg:grid-cols-3">
        <div className="space-y-5 lg:col-span-2">
          {isDraft ? (
            <QuoteEditor
              key={quote.id}
              data={data}
              isSaving={update.isPending || send.isPending}
              onSave={(values) => run(() => update.mutateAsync(values), 'Draft saved.')}
              onSend={(values, isChanged) => setDialog({ send: { values, isChanged } })}
            />
          ) : (
            <section aria-labelledby="options-title" className="space-y-4">
              <h2 id="options-title" className="text-lg font-semibold text-slate-900">
                Options
              </h2>
              {data.options.map((option) => (
                <QuoteOptionView key={option.id} option={option} isApproved={option.id === quote.approvedOptionId} />
              ))}
              {quote.notes ? (
                <Card>
                  <h3 className="font-semibold text-slate-900">Notes for the customer</h3>
                  <p className="mt-1 text-sm whitespace-pre-line text-slate-800">{quote.notes}</p>
                </Card>
              ) : null}
            </section>
          )}
        </div>
        <HistoryCard history={data.history} />
      </div>

      {typeof dialog === 'object' ? (
        <SendDialog
          data={data}
          isChanged={dialog.send.isChanged}
          isPending={update.isPending || send.isPending}
          onCancel={() => setDialog(undefined)}
          onConfirm={() => void saveAndSend(dialog.send.values, dialog.send.isChanged)}
        />
      ) : null}
      {dialog === 'revise' ? (
        <ConfirmDialog
          title="Revise this quote?"
          message="It goes back to draft so you can change it. The links already sent to the customer stop working at once; send the quote again when your changes are made."
          confirmLabel="Revise quote"
          pendingLabel="Revising…"
          isPending={revise.isPending}
          onCancel={() => setDialog(undefined)}
          onConfirm={() => void run(() => revise.mutateAsync(undefined), 'Quote back to draft. The links sent earlier no longer open it.').then(() => setDialog(undefined))}
        />
      ) : null}
      {dialog === 'cancel' ? <CancelDialog quoteId={quote.id} onClose={() => setDialog(undefined)} onDone={(text) => setNotice({ tone: 'success', text })} /> : null}
    </article>
  );
}

function SendDialog({ data, isChanged, isPending, onCancel, onConfirm }: { data: QuoteDetailResponse; isChanged: boolean; isPending: boolean; onCancel: () => void; onConfirm: () => void }) {
  const { quote } = data;
  const validity = quote.validUntil ? `valid until ${formatDay(quote.validUntil)}` : `valid for ${data.quoteValidityDays} days`;
  return (
    <ConfirmDialog
      title="Send this quote?"
      message={
        <>
          {isChanged ? <p>Your changes are saved first.</p> : null}
          <p>
            {quote.customerName} gets it by e-mail (and by text if they agreed to texts) with a link to choose an option and approve it. {quote.quoteNumber ? `It keeps its number ${quote.quoteNumber}` : 'It gets the next quote number'} and is {validity}.
          </p>
        </>
      }
      confirmLabel="Send quote"
      pendingLabel="Sending…"
      confirmVariant="primary"
      isPending={isPending}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}

function CancelDialog({ quoteId, onClose, onDone }: { quoteId: string; onClose: () => void; onDone: (text: string) => void }) {
  const cancel = useCancelQuote(quoteId);
  return (
    <TextFieldDialog
      title="Cancel this quote?"
      description="A cancelled quote stays in the list for the record; the customer's links stop working. This cannot be undone."
      label="Reason"
      isMultiline
      maxLength={500}
      minLength={3}
      requiredMessage="Say why the quote is cancelled."
      isPending={cancel.isPending}
      submitLabel="Cancel quote"
      pendingLabel="Cancelling…"
      submitVariant="destructive"
      cancelLabel="Keep quote"
      onClose={onClose}
      onSubmit={async (reason) => {
        await cancel.mutateAsync(reason);
        onDone('Quote cancelled. Its links no longer open it.');
        onClose();
      }}
    />
  );
}

/** The customer's approval: which option, by whom, when, from which address, the signature, and the work order it made. */
function ApprovalCard({ data }: { data: QuoteDetailResponse }) {
  const { quote } = data;
  const option = data.options.find((candidate) => candidate.id === quote.approvedOptionId);
  return (
    <section aria-labelledby="approval-title" className="rounded-lg border border-green-300 bg-green-50 p-4 text-slate-900">
      <h2 id="approval-title" className="text-lg font-semibold">
        Approved by the customer
      </h2>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">Option</dt>
        <dd data-testid="approved-option">{option ? option.name : '—'}</dd>
        <dt className="font-medium text-slate-700">Signed by</dt>
        <dd>{quote.approvedByName ?? '—'}</dd>
        <dt className="font-medium text-slate-700">When</dt>
        <dd>{quote.approvedAt ? formatDateTime(quote.approvedAt) : '—'}</dd>
        <dt className="font-medium text-slate-700">From address</dt>
        <dd className="font-mono break-all">{quote.approvalIp ?? '—'}</dd>
        <dt className="font-medium text-slate-700">Work order</dt>
        <dd>
          {quote.resultingWorkOrderId ? (
            <Link to={workOrderPath(quote.resultingWorkOrderId)} className="font-semibold text-brand-700 underline">
              {quote.resultingWorkOrderNumber ?? 'Open the work order'}
            </Link>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      {quote.hasSignature ? (
        <figure className="mt-3">
          <img src={quoteSignaturePath(quote.id)} alt={`Signature drawn by ${quote.approvedByName ?? 'the customer'}`} className="max-h-40 w-full max-w-md rounded border border-slate-300 bg-white object-contain" />
          <figcaption className="mt-1 text-xs text-slate-700">Signed on screen</figcaption>
        </figure>
      ) : (
        <p className="mt-2 text-sm text-slate-700">Signed by typing their name (no drawn signature).</p>
      )}
    </section>
  );
}

function HistoryCard({ history }: { history: QuoteDetailResponse['history'] }) {
  return (
    <Card className="h-fit p-4">
      <h2 className="text-lg font-semibold text-slate-900">History</h2>
      {history.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Nothing yet.</p>
      ) : (
        <ol className="mt-2 space-y-3 text-sm text-slate-800">
          {history.map((entry, index) => (
            <li key={`${entry.occurredAt}-${index}`}>
              <p className="font-medium">{historyActionLabel(entry.action)}</p>
              <p className="text-slate-600">
                {entry.actorName} · {formatDateTime(entry.occurredAt)}
              </p>
              {historyChangeLines(entry.changes).map((line) => (
                <p key={line} className="break-words text-slate-700">
                  {line}
                </p>
              ))}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
