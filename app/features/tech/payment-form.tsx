import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { invoiceStatusLabels, paymentMethodLabels } from '#shared/invoice.ts';
import { formatCents, parseMoneyInput } from '#shared/money.ts';
import { techMessages, techPaymentMethods, techPaymentSchema, type TechInvoice, type TechPaymentMethod, type TechVisit } from '#shared/tech.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge, type BadgeTone } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { describePayment, pendingPayments, visitInvoices } from './apply-action.ts';
import type { QueuedAction, QueuedPayment } from './db.ts';
import type { PaymentInput } from './sync.ts';

/**
 * Payments on site (decision 025-a): the visit's issued invoices with what is owed, the payments
 * taken on this phone that wait to be sent, and the "Record payment" form. A payment needs an
 * issued invoice of the job; the office issues it. Works offline: the payment is queued with the
 * visit's other actions and shown as waiting until the office has it.
 */

const bigControl = `${controlClass} min-h-12`;

const statusTone: Partial<Record<TechInvoice['status'], BadgeTone>> = { paid: 'success', partially_paid: 'warning', sent: 'info' };

/** What is left to collect on an invoice: its balance less the payments waiting on this phone. */
function leftToCollect(invoice: TechInvoice, waiting: QueuedPayment[]): number {
  const pending = waiting.filter((payment) => payment.invoiceId === invoice.id).reduce((sum, payment) => sum + payment.amountCents, 0);
  return Math.max(0, invoice.balanceCents - pending);
}

export type PaymentFormState = { mode: 'new' } | { mode: 'correct'; seq: number };

export function PaymentSection({
  visit,
  queue,
  form,
  onOpen,
  onClose,
  onRecord,
  onCorrect,
}: {
  visit: TechVisit;
  queue: QueuedAction[];
  form: PaymentFormState | undefined;
  onOpen: () => void;
  onClose: () => void;
  onRecord: (input: PaymentInput) => Promise<boolean>;
  onCorrect: (seq: number, input: PaymentInput) => Promise<boolean>;
}) {
  const invoices = visitInvoices(visit);
  const waiting = pendingPayments(queue, visit.id);
  const correctSeq = form?.mode === 'correct' ? form.seq : undefined;
  const correcting = correctSeq === undefined ? undefined : queue.find((item) => item.seq === correctSeq && item.action.kind === 'payment');
  const corrected = correcting?.action.kind === 'payment' ? correcting.action : undefined;
  const collectable = invoices.filter((invoice) => (invoice.status === 'sent' || invoice.status === 'partially_paid') && (leftToCollect(invoice, waiting) > 0 || invoice.id === corrected?.invoiceId));

  return (
    <div className="space-y-3">
      {invoices.length === 0 ? <p className="text-slate-700">{techMessages.noInvoiceToPay}</p> : null}
      {invoices.length > 0 ? (
        <ul className="space-y-2" aria-label="Invoices">
          {invoices.map((invoice) => (
            <li key={invoice.id} className="rounded-md border border-slate-300 p-3" data-testid="visit-invoice">
              <p className="flex flex-wrap items-center gap-2 font-semibold">
                Invoice {invoice.invoiceNumber}
                <Badge tone={statusTone[invoice.status] ?? 'neutral'}>{invoiceStatusLabels[invoice.status]}</Badge>
              </p>
              <dl className="mt-1 grid grid-cols-2 gap-x-2 text-base">
                <dt>Total</dt>
                <dd className="text-right tabular-nums">{formatCents(invoice.totalCents)}</dd>
                <dt>Paid</dt>
                <dd className="text-right tabular-nums">{formatCents(invoice.paidCents)}</dd>
                <dt className="font-semibold">Balance due</dt>
                <dd className="text-right font-semibold tabular-nums" data-testid="invoice-balance">
                  {formatCents(invoice.balanceCents)}
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      ) : null}
      {waiting.length > 0 ? (
        <ul className="space-y-1" aria-label="Payments waiting to sync">
          {waiting.map((payment) => (
            <li key={payment.seq} className="rounded-md bg-amber-50 p-2 text-amber-950" data-testid="pending-payment">
              {describePayment(payment, visit)}: waiting to sync
            </li>
          ))}
        </ul>
      ) : null}
      {form === undefined && collectable.length > 0 ? (
        <Button variant="accent" className="min-h-12 w-full text-base" onClick={onOpen}>
          Record payment
        </Button>
      ) : null}
      {form?.mode === 'correct' && !collectable.some((invoice) => invoice.id === corrected?.invoiceId) ? (
        <Alert tone="info">Nothing is left to collect on that invoice: discard the refused payment above.</Alert>
      ) : null}
      {form !== undefined && collectable.length > 0 && (form.mode === 'new' || collectable.some((invoice) => invoice.id === corrected?.invoiceId)) ? (
        <PaymentForm
          key={form.mode === 'correct' ? `correct-${form.seq}` : 'new'}
          invoices={collectable}
          waiting={waiting}
          initial={corrected}
          onCancel={onClose}
          onSubmit={(input) => (form.mode === 'correct' ? onCorrect(form.seq, input) : onRecord(input))}
        />
      ) : null}
    </div>
  );
}

type Errors = Partial<Record<'invoiceId' | 'method' | 'amount' | 'reference' | 'note', string>>;

function PaymentForm({
  invoices,
  waiting,
  initial,
  onSubmit,
  onCancel,
}: {
  invoices: TechInvoice[];
  waiting: QueuedPayment[];
  /** A refused payment being corrected: what was typed. */
  initial?: QueuedPayment;
  onSubmit: (input: PaymentInput) => Promise<boolean>;
  onCancel: () => void;
}) {
  const id = useId();
  const amountRef = useRef<HTMLInputElement>(null);
  const [invoiceId, setInvoiceId] = useState(initial?.invoiceId ?? invoices[0]!.id);
  const invoice = invoices.find((candidate) => candidate.id === invoiceId) ?? invoices[0]!;
  const most = leftToCollect(invoice, waiting);
  const [method, setMethod] = useState<TechPaymentMethod>(initial?.method ?? 'cash');
  const [amount, setAmount] = useState(((initial?.amountCents ?? most) / 100).toFixed(2));
  const [reference, setReference] = useState(initial?.reference ?? '');
  const [note, setNote] = useState(initial?.note ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [isSaving, setIsSaving] = useState(false);

  // The form opens where the technician types the amount (also when opened from a refusal above).
  useEffect(() => {
    amountRef.current?.focus();
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    const amountCents = parseMoneyInput(amount);
    if (amountCents === undefined || amountCents <= 0) found.amount = 'Enter an amount above zero, like 120.00';
    else if (amountCents > most) found.amount = `At most the balance due, ${formatCents(most)}`;
    const input: PaymentInput = { kind: 'payment', invoiceId: invoice.id, method, amountCents: amountCents ?? 0, reference: method === 'cash' ? '' : reference.trim(), note: note.trim() };
    const parsed = techPaymentSchema.safeParse({ ...input, kind: undefined, idempotencyKey: crypto.randomUUID(), takenAt: new Date().toISOString() });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'amountCents' ? 'amount' : (issue.path[0] as keyof Errors);
        found[field] ??= issue.message;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setIsSaving(true);
    const saved = await onSubmit(input);
    setIsSaving(false);
    if (saved) onCancel();
  }

  const errorCount = Object.keys(errors).length;
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Record payment" className="space-y-4 rounded-md border border-slate-300 p-3">
      <div aria-live="assertive">{errorCount > 0 ? <Alert>Check the form: {Object.values(errors).join(' ')}</Alert> : null}</div>
      {invoices.length > 1 ? (
        <FormField id={`${id}-invoice`} label="Invoice" isRequired error={errors.invoiceId}>
          <select id={`${id}-invoice`} value={invoice.id} onChange={(event) => setInvoiceId(event.target.value)} className={bigControl}>
            {invoices.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.invoiceNumber}: {formatCents(leftToCollect(candidate, waiting))} due
              </option>
            ))}
          </select>
        </FormField>
      ) : (
        <p>
          Invoice {invoice.invoiceNumber}: <span className="font-semibold">{formatCents(most)}</span> to collect
        </p>
      )}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">How the customer paid</legend>
        <div className="mt-1 grid grid-cols-2 gap-2">
          {techPaymentMethods.map((value) => (
            <label key={value} className="flex min-h-12 items-center gap-3 rounded-md border border-slate-300 px-3 text-base has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
              <input type="radio" name={`${id}-method`} value={value} checked={method === value} onChange={() => setMethod(value)} className="size-5" />
              {paymentMethodLabels[value]}
            </label>
          ))}
        </div>
      </fieldset>
      <FormField id={`${id}-amount`} label="Amount ($)" isRequired error={errors.amount}>
        <input
          id={`${id}-amount`}
          ref={amountRef}
          inputMode="decimal"
          autoComplete="off"
          required
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          className={bigControl}
          {...errorAttributes(`${id}-amount`, errors.amount)}
        />
      </FormField>
      {method !== 'cash' ? (
        <FormField id={`${id}-check`} label={method === 'check' ? 'Check number' : 'Reference'} hint={method === 'check' ? undefined : '(optional)'} isRequired={method === 'check'} error={errors.reference}>
          <input
            id={`${id}-check`}
            autoComplete="off"
            required={method === 'check'}
            maxLength={100}
            value={reference}
            onChange={(event) => setReference(event.target.value)}
            className={bigControl}
            {...errorAttributes(`${id}-check`, errors.reference)}
          />
        </FormField>
      ) : null}
      <FormField id={`${id}-note`} label="Note" error={errors.note}>
        <textarea id={`${id}-note`} rows={2} maxLength={1000} value={note} onChange={(event) => setNote(event.target.value)} className={bigControl} {...errorAttributes(`${id}-note`, errors.note)} />
      </FormField>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="secondary" className="min-h-12 text-base" onClick={onCancel}>
          Back
        </Button>
        <Button type="submit" variant="accent" className="min-h-12 text-base" disabled={isSaving}>
          {initial ? 'Send again' : 'Record payment'}
        </Button>
      </div>
    </form>
  );
}
