import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { todayIn } from '#shared/dates.ts';
import {
  billingDocumentFromDetail,
  invoiceStatusLabels,
  officePaymentMethods,
  paymentMethodLabels,
  type InvoiceDetailResponse,
  type Payment,
} from '#shared/invoice.ts';
import { formatCents, parseMoneyInput } from '#shared/money.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Card, LoadingCard } from '#client/components/ui/card.tsx';
import { ConfirmDialog, Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { useIsAdmin } from '#client/features/auth/index.ts';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import {
  useApplyCredit,
  useCreateCreditNote,
  useInvoiceDetail,
  useIssueInvoice,
  useRecordPayment,
  useRefundPayment,
  useUpdateDraft,
  useVoidInvoice,
} from './api.ts';
import { BillingDocumentView } from './billing-document-view.tsx';
import { issuedNotice, InvoiceSendActions } from './invoice-send-actions.tsx';
import { formatDay, invoiceDetailPath, invoiceStatusBadge } from './labels.ts';
import { LineEditor } from './line-editor.tsx';

type Notice = { tone: 'success' | 'error'; text: string };

const today = () => todayIn(company.timeZone);

/** 32 random hex digits (getRandomValues works outside secure contexts too, unlike randomUUID). */
const randomKey = () => `office-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;

/** An invoice or credit note: the document as the customer sees it, and the actions its state allows. */
export function InvoiceDetail({ id }: { id: string }) {
  const detail = useInvoiceDetail(id);
  if (detail.isPending) return <LoadingCard>Loading invoice…</LoadingCard>;
  if (detail.isError) {
    const isMissing = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
        <p className="font-semibold">{isMissing ? 'Invoice not found.' : 'The invoice could not be loaded.'}</p>
        <div className="mt-4 flex justify-center gap-3">
          {isMissing ? null : (
            <Button onClick={() => void detail.refetch()} disabled={detail.isFetching}>
              Try again
            </Button>
          )}
          <Link to="/admin/invoices" className={buttonClass('secondary')}>
            Back to invoices
          </Link>
        </div>
      </div>
    );
  }
  return <InvoiceDetailView data={detail.data} />;
}

type OpenDialog = 'payment' | 'void' | 'credit' | 'issue' | { refund: Payment } | undefined;

function InvoiceDetailView({ data }: { data: InvoiceDetailResponse }) {
  const { invoice } = data;
  const isAdmin = useIsAdmin();
  const [notice, setNotice] = useState<Notice>();
  const [isEditing, setIsEditing] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>();
  const updateDraft = useUpdateDraft(invoice.id);
  const issue = useIssueInvoice(invoice.id);
  const applyCredit = useApplyCredit(invoice.id);
  const document = billingDocumentFromDetail(data);
  const badge = invoiceStatusBadge(invoice.status);
  const isOpen = invoice.status === 'sent' || invoice.status === 'partially_paid';
  const isInvoice = invoice.kind === 'invoice';
  const title = invoice.invoiceNumber ? `${isInvoice ? 'Invoice' : 'Credit note'} ${invoice.invoiceNumber}` : `Draft invoice for ${invoice.billingName}`;

  async function run<T>(action: () => Promise<T>, success: string | ((answer: T) => string)) {
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

  return (
    <article aria-labelledby="invoice-title" className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Link to="/admin/invoices" className="text-sm text-brand-700 underline">
            ← Invoices
          </Link>
          <h1 id="invoice-title" className="mt-1 text-2xl font-bold text-slate-900">
            {title}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <Badge tone={badge.tone}>{badge.label}</Badge>
            {invoice.overdue ? <Badge tone="danger">Overdue</Badge> : null}
            {invoice.workOrderId && invoice.workOrderNumber ? (
              <Link to={`/admin/workorders/${invoice.workOrderId}`} className="underline">
                Work order {invoice.workOrderNumber}
              </Link>
            ) : null}
            {invoice.creditedInvoiceId ? (
              <Link to={invoiceDetailPath(invoice.creditedInvoiceId)} className="underline">
                Credit for {invoice.creditedInvoiceNumber}
              </Link>
            ) : null}
          </p>
          {invoice.status === 'void' ? <p className="mt-1 text-sm text-red-800">Voided: {invoice.voidReason}</p> : null}
        </div>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Invoice actions">
          {invoice.status === 'draft' && !isEditing ? (
            <>
              <Button variant="secondary" onClick={() => setIsEditing(true)}>
                Edit lines
              </Button>
              <Button onClick={() => setDialog('issue')} disabled={data.lines.length === 0}>
                Issue invoice
              </Button>
            </>
          ) : null}
          {isInvoice && isOpen ? <Button onClick={() => setDialog('payment')}>Record payment</Button> : null}
          {isInvoice && invoice.status !== 'draft' && invoice.status !== 'void' ? (
            <Button variant="secondary" onClick={() => setDialog('credit')}>
              Credit note
            </Button>
          ) : null}
          <InvoiceSendActions invoice={invoice} onNotice={setNotice} />
          {isAdmin && invoice.status !== 'draft' && invoice.status !== 'void' && invoice.paidCents === 0 ? (
            <Button variant="destructive" onClick={() => setDialog('void')}>
              Void
            </Button>
          ) : null}
        </div>
      </div>

      <div aria-live="polite" aria-atomic="true">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      </div>

      {isEditing ? (
        <LineEditor
          lines={data.lines}
          notes={invoice.notes}
          defaultTaxRatePpm={data.defaultTaxRatePpm}
          isSaving={updateDraft.isPending}
          onCancel={() => setIsEditing(false)}
          onSave={(lines, notes) =>
            void run(() => updateDraft.mutateAsync({ lines, notes }), 'Lines saved.').then((saved) => {
              if (saved) setIsEditing(false);
            })
          }
        />
      ) : null}

      <div className="grid gap-5 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <BillingDocumentView document={document} />
        </div>
        <div className="space-y-5">
          {data.payments.length > 0 ? (
            <Card>
              <h2 className="text-lg font-semibold text-slate-900">Payments</h2>
              <ul className="mt-2 divide-y divide-slate-100 text-sm">
                {data.payments.map((payment) => (
                  <li key={payment.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <span>
                      {payment.kind === 'refund' ? 'Refund · ' : ''}
                      {paymentMethodLabels[payment.method]}
                      {payment.reference ? ` #${payment.reference}` : ''} · {formatDay(payment.receivedOn)}
                      <span className="block text-slate-600">
                        {payment.recordedByName}
                        {payment.refundedCents > 0 ? ` · ${formatCents(payment.refundedCents)} refunded` : ''}
                      </span>
                    </span>
                    <span className="flex items-center gap-2">
                      <span className="font-semibold tabular-nums">{payment.kind === 'refund' ? `−${formatCents(payment.amountCents)}` : formatCents(payment.amountCents)}</span>
                      {isAdmin && payment.kind === 'payment' && payment.method !== 'credit_note' && payment.refundedCents < payment.amountCents ? (
                        <Button size="sm" variant="secondary" onClick={() => setDialog({ refund: payment })} aria-label={`Refund ${formatCents(payment.amountCents)} ${paymentMethodLabels[payment.method]} payment`}>
                          Refund
                        </Button>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          {data.creditNotes.length > 0 ? (
            <Card>
              <h2 className="text-lg font-semibold text-slate-900">Credit notes</h2>
              <ul className="mt-2 space-y-2 text-sm">
                {data.creditNotes.map((note) => (
                  <li key={note.id} className="flex flex-wrap items-center justify-between gap-2">
                    <Link to={invoiceDetailPath(note.id)} className="underline">
                      {note.invoiceNumber} · {formatCents(note.totalCents)} · {invoiceStatusLabels[note.status]}
                    </Link>
                    {isOpen && note.remainingCents > 0 ? (
                      <Button size="sm" variant="secondary" disabled={applyCredit.isPending} onClick={() => void run(() => applyCredit.mutateAsync(note.id), `Credit note ${note.invoiceNumber} applied.`)}>
                        Apply {formatCents(note.remainingCents)}
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">History</h2>
            <ol className="mt-2 space-y-1 text-sm text-slate-700">
              {data.history.map((entry, index) => (
                <li key={index}>
                  {entry.action.replaceAll('_', ' ')} · {entry.actorName} · {new Date(entry.occurredAt).toLocaleString('en-US')}
                </li>
              ))}
            </ol>
          </Card>
        </div>
      </div>

      {dialog === 'issue' ? (
        <ConfirmDialog
          title="Issue this invoice?"
          message="It gets the next invoice number and its due date, and can no longer be edited (corrections are made with a credit note)."
          confirmLabel="Issue invoice"
          pendingLabel="Issuing…"
          isPending={issue.isPending}
          onCancel={() => setDialog(undefined)}
          onConfirm={() => void run(() => issue.mutateAsync(undefined), issuedNotice).then(() => setDialog(undefined))}
        />
      ) : null}
      {dialog === 'payment' ? <PaymentDialog data={data} onClose={() => setDialog(undefined)} onDone={(text) => setNotice({ tone: 'success', text })} /> : null}
      {dialog === 'void' ? <VoidDialog invoiceId={invoice.id} onClose={() => setDialog(undefined)} onDone={(text) => setNotice({ tone: 'success', text })} /> : null}
      {dialog === 'credit' ? <CreditNoteDialog invoiceId={invoice.id} onClose={() => setDialog(undefined)} onDone={(text) => setNotice({ tone: 'success', text })} /> : null}
      {typeof dialog === 'object' ? <RefundDialog invoiceId={invoice.id} payment={dialog.refund} onClose={() => setDialog(undefined)} onDone={(text) => setNotice({ tone: 'success', text })} /> : null}
    </article>
  );
}

/** Errors of a dialog's form: shown under the field, and the whole message announced. */
function useDialogError() {
  const [error, setError] = useState<string>();
  return { error, setError, alert: <div aria-live="assertive">{error ? <Alert>{error}</Alert> : null}</div> };
}

function DialogButtons({ isPending, label, pendingLabel, onCancel }: { isPending: boolean; label: string; pendingLabel: string; onCancel: () => void }) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel} disabled={isPending}>
        Cancel
      </Button>
      <Button type="submit" disabled={isPending}>
        {isPending ? pendingLabel : label}
      </Button>
    </div>
  );
}

function PaymentDialog({ data, onClose, onDone }: { data: InvoiceDetailResponse; onClose: () => void; onDone: (text: string) => void }) {
  const record = useRecordPayment(data.invoice.id);
  const amountRef = useRef<HTMLInputElement>(null);
  const [method, setMethod] = useState<(typeof officePaymentMethods)[number]>('cash');
  const [amount, setAmount] = useState((data.invoice.balanceCents / 100).toFixed(2));
  const [receivedOn, setReceivedOn] = useState(today());
  const [reference, setReference] = useState('');
  const [note, setNote] = useState('');
  // One key per dialog: a double submit or a retry after a lost answer records one payment.
  const [idempotencyKey] = useState(randomKey);
  const { setError, alert } = useDialogError();
  const [fieldErrors, setFieldErrors] = useState<{ amount?: string; reference?: string }>({});
  const ids = { method: useId(), amount: useId(), receivedOn: useId(), reference: useId(), note: useId() };

  async function submit() {
    const amountCents = parseMoneyInput(amount);
    const errors: typeof fieldErrors = {};
    if (amountCents === undefined || amountCents <= 0) errors.amount = 'Enter an amount above zero, like 120.00';
    else if (amountCents > data.invoice.balanceCents) errors.amount = `At most the balance due, ${formatCents(data.invoice.balanceCents)}`;
    if (method === 'check' && reference.trim() === '') errors.reference = 'Enter the check number';
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) {
      setError('Correct the marked fields.');
      return;
    }
    setError(undefined);
    try {
      await record.mutateAsync({ method, amountCents: amountCents!, receivedOn, reference: reference.trim(), note: note.trim(), idempotencyKey });
      onDone(`${paymentMethodLabels[method]} payment of ${formatCents(amountCents!)} recorded.`);
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <Dialog title="Record payment" description={`Balance due ${formatCents(data.invoice.balanceCents)}`} onClose={() => (record.isPending ? undefined : onClose())} initialFocusRef={amountRef}>
      <form
        className="mt-4 space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField id={ids.method} label="Method">
          <select id={ids.method} value={method} onChange={(event) => setMethod(event.target.value as typeof method)} className={controlClass}>
            {officePaymentMethods.map((value) => (
              <option key={value} value={value}>
                {paymentMethodLabels[value]}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={ids.amount} label="Amount ($)" isRequired error={fieldErrors.amount}>
          <input id={ids.amount} ref={amountRef} inputMode="decimal" required value={amount} onChange={(event) => setAmount(event.target.value)} className={controlClass} {...errorAttributes(ids.amount, fieldErrors.amount)} />
        </FormField>
        <FormField id={ids.receivedOn} label="Received on" isRequired>
          <input id={ids.receivedOn} type="date" required value={receivedOn} onChange={(event) => setReceivedOn(event.target.value)} className={controlClass} />
        </FormField>
        <FormField id={ids.reference} label={method === 'check' ? 'Check number' : 'Reference'} isRequired={method === 'check'} error={fieldErrors.reference}>
          <input id={ids.reference} value={reference} maxLength={100} onChange={(event) => setReference(event.target.value)} className={controlClass} {...errorAttributes(ids.reference, fieldErrors.reference)} />
        </FormField>
        <FormField id={ids.note} label="Note">
          <input id={ids.note} value={note} maxLength={1000} onChange={(event) => setNote(event.target.value)} className={controlClass} />
        </FormField>
        {alert}
        <DialogButtons isPending={record.isPending} label="Record payment" pendingLabel="Recording…" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function RefundDialog({ invoiceId, payment, onClose, onDone }: { invoiceId: string; payment: Payment; onClose: () => void; onDone: (text: string) => void }) {
  const refund = useRefundPayment(invoiceId);
  const left = payment.amountCents - payment.refundedCents;
  const amountRef = useRef<HTMLInputElement>(null);
  const [amount, setAmount] = useState((left / 100).toFixed(2));
  const [note, setNote] = useState('');
  const { error, setError, alert } = useDialogError();
  const ids = { amount: useId(), note: useId() };

  async function submit() {
    const amountCents = parseMoneyInput(amount);
    if (amountCents === undefined || amountCents <= 0 || amountCents > left) {
      setError(`Enter an amount above zero and at most ${formatCents(left)}.`);
      return;
    }
    setError(undefined);
    try {
      await refund.mutateAsync({ paymentId: payment.id, amountCents, receivedOn: today(), note: note.trim() });
      onDone(`Refund of ${formatCents(amountCents)} recorded.`);
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <Dialog title="Refund payment" description={`Up to ${formatCents(left)} of this ${paymentMethodLabels[payment.method].toLowerCase()} payment can be refunded.`} onClose={() => (refund.isPending ? undefined : onClose())} initialFocusRef={amountRef}>
      <form
        className="mt-4 space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField id={ids.amount} label="Refund amount ($)" isRequired>
          <input id={ids.amount} ref={amountRef} inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} className={controlClass} aria-invalid={error ? true : undefined} />
        </FormField>
        <FormField id={ids.note} label="Reason">
          <input id={ids.note} value={note} maxLength={1000} onChange={(event) => setNote(event.target.value)} className={controlClass} />
        </FormField>
        {alert}
        <DialogButtons isPending={refund.isPending} label="Refund" pendingLabel="Refunding…" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function VoidDialog({ invoiceId, onClose, onDone }: { invoiceId: string; onClose: () => void; onDone: (text: string) => void }) {
  const voidInvoice = useVoidInvoice(invoiceId);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const { error, setError, alert } = useDialogError();
  const id = useId();

  async function submit() {
    if (reason.trim().length < 3) {
      setError('Say why the invoice is voided.');
      return;
    }
    setError(undefined);
    try {
      await voidInvoice.mutateAsync(reason.trim());
      onDone('Invoice voided.');
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <Dialog title="Void invoice" description="A void invoice keeps its number and is owed by nobody. This cannot be undone." onClose={() => (voidInvoice.isPending ? undefined : onClose())} initialFocusRef={reasonRef}>
      <form
        className="mt-4 space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField id={id} label="Reason" isRequired>
          <textarea id={id} ref={reasonRef} required rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} className={controlClass} aria-invalid={error ? true : undefined} />
        </FormField>
        {alert}
        <DialogButtons isPending={voidInvoice.isPending} label="Void invoice" pendingLabel="Voiding…" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function CreditNoteDialog({ invoiceId, onClose, onDone }: { invoiceId: string; onClose: () => void; onDone: (text: string) => void }) {
  const create = useCreateCreditNote(invoiceId);
  const [isFull, setIsFull] = useState(false);
  const [name, setName] = useState('Credit');
  const [amount, setAmount] = useState('');
  const [notes, setNotes] = useState('');
  const amountRef = useRef<HTMLInputElement>(null);
  const { error, setError, alert } = useDialogError();
  const ids = { full: useId(), name: useId(), amount: useId(), notes: useId() };

  async function submit() {
    const amountCents = parseMoneyInput(amount);
    if (!isFull && (amountCents === undefined || amountCents <= 0 || name.trim() === '')) {
      setError('Enter what the credit is for and an amount above zero.');
      return;
    }
    setError(undefined);
    try {
      const created = await create.mutateAsync(
        isFull ? { fullCredit: true, notes } : { fullCredit: false, notes, lines: [{ name: name.trim(), quantityMilli: 1000, unitPriceCents: amountCents! }] },
      );
      onDone(`Credit note ${created.invoice.invoiceNumber} issued for ${formatCents(created.invoice.totalCents)}. Apply it to take it off the balance.`);
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <Dialog title="Issue a credit note" description="A credit note corrects an issued invoice; it gets its own CN- number." onClose={() => (create.isPending ? undefined : onClose())} initialFocusRef={amountRef}>
      <form
        className="mt-4 space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="flex items-center gap-2">
          <input id={ids.full} type="checkbox" checked={isFull} onChange={(event) => setIsFull(event.target.checked)} className="h-5 w-5" />
          <label htmlFor={ids.full} className="text-sm font-medium text-slate-800">
            Credit the whole invoice (every line)
          </label>
        </div>
        {isFull ? null : (
          <>
            <FormField id={ids.name} label="What the credit is for" isRequired>
              <input id={ids.name} value={name} maxLength={200} onChange={(event) => setName(event.target.value)} className={controlClass} />
            </FormField>
            <FormField id={ids.amount} label="Amount ($, no tax)" isRequired>
              <input id={ids.amount} ref={amountRef} inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} className={controlClass} aria-invalid={error ? true : undefined} />
            </FormField>
          </>
        )}
        <FormField id={ids.notes} label="Notes">
          <input id={ids.notes} value={notes} maxLength={4000} onChange={(event) => setNotes(event.target.value)} className={controlClass} />
        </FormField>
        {alert}
        <DialogButtons isPending={create.isPending} label="Issue credit note" pendingLabel="Issuing…" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
