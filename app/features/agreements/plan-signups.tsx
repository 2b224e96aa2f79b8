import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  agreementSignupMessages,
  agreementSignupStatuses,
  agreementSignupStatusLabels,
  type AgreementSignup,
  type AgreementSignupStatus,
} from '#shared/agreement-signup.ts';
import { todayIn } from '#shared/dates.ts';
import { formatCents } from '#shared/money.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { Pager } from '#client/components/ui/pager.tsx';
import { CustomerPicker, type PickedCustomer } from '#client/features/customers/index.ts';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { useAgreementSignups, useConfirmAgreementSignup, useDeclineAgreementSignup } from './api.ts';
import { formatDay } from './labels.ts';

const pageSize = 20;
const statusTones = { pending: 'warning', confirmed: 'success', declined: 'neutral' } as const;
type Errors = Partial<Record<'customer' | 'startDate' | 'reason' | 'form', string>>;

function errorsFrom(error: unknown): Errors {
  if (!(error instanceof ApiError)) return { form: messageOf(error) };
  const errors: Errors = {};
  for (const detail of Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]) : []) {
    const field = detail.path?.split('.')[0];
    if ((field === 'customer' || field === 'startDate' || field === 'reason') && detail.message) errors[field] ??= detail.message;
  }
  if (Object.keys(errors).length === 0) errors.form = messageOf(error);
  return errors;
}

/**
 * Plan sign-ups (issue 22, decision 027-b): the site's sign-ups waiting for the office, on top of
 * Visits Due. Each is confirmed as a new customer (made from the sign-up) or for an existing one
 * chosen with the customer picker, which makes the agreement as a sale from the profile does; or
 * declined with a reason. The list refreshes live (topic maintenance_agreements).
 */
export function PlanSignups() {
  const id = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const wanted = searchParams.get('signups');
  const status: AgreementSignupStatus = agreementSignupStatuses.includes(wanted as AgreementSignupStatus) ? (wanted as AgreementSignupStatus) : 'pending';
  const page = Math.max(1, Number(searchParams.get('signupsPage')) || 1);
  const signups = useAgreementSignups({ status, page, pageSize });
  const [notice, setNotice] = useState<{ text: string; customerId?: string | null }>();

  const setParam = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'signupsPage') next.delete('signupsPage');
    setSearchParams(next, { replace: true });
  };

  const total = signups.data?.total ?? 0;
  const pending = signups.data?.pending;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="text-xl font-bold text-slate-900">
            Plan sign-ups
          </h2>
          <p className="text-sm text-slate-700">Sign-ups from the website&apos;s maintenance plan page, for the office to confirm.</p>
        </div>
        <label className="text-sm font-medium text-slate-800" htmlFor={`${id}-status`}>
          Sign-up status
          <select id={`${id}-status`} value={status} onChange={(event) => setParam('signups', event.target.value === 'pending' ? undefined : event.target.value)} className={controlClass}>
            {agreementSignupStatuses.map((option) => (
              <option key={option} value={option}>
                {agreementSignupStatusLabels[option]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div aria-live="polite">
        {notice ? (
          <Alert tone="success">
            {notice.text}{' '}
            {notice.customerId ? (
              <Link to={`/admin/customers/${encodeURIComponent(notice.customerId)}`} className="font-semibold underline">
                Open the customer
              </Link>
            ) : null}
          </Alert>
        ) : null}
      </div>
      {signups.isError ? <Alert>{messageOf(signups.error)}</Alert> : null}
      <p role="status" className="text-sm text-slate-700">
        {signups.data
          ? status === 'pending'
            ? `${pending} sign-up${pending === 1 ? '' : 's'} waiting`
            : `${total} ${agreementSignupStatusLabels[status].toLowerCase()} sign-up${total === 1 ? '' : 's'}${pending ? ` (${pending} waiting)` : ''}`
          : ''}
      </p>
      {signups.data && signups.data.signups.length > 0 ? (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label={`${agreementSignupStatusLabels[status]} plan sign-ups`}>
          {signups.data.signups.map((signup) => (
            <li key={signup.id}>
              <SignupCard signup={signup} onNotice={setNotice} />
            </li>
          ))}
        </ul>
      ) : signups.data ? (
        <p className={cardClassName('p-4 text-slate-600')}>{status === 'pending' ? 'No sign-up is waiting.' : 'None yet.'}</p>
      ) : null}
      {total > pageSize ? <Pager page={page} pageCount={Math.ceil(total / pageSize)} onPageChange={(next) => setParam('signupsPage', String(next))} /> : null}
    </section>
  );
}

function SignupCard({ signup, onNotice }: { signup: AgreementSignup; onNotice: (notice: { text: string; customerId?: string | null }) => void }) {
  const [dialog, setDialog] = useState<'confirm' | 'decline'>();
  const titleId = useId();
  return (
    <article aria-labelledby={titleId} className={cardClassName('p-4 space-y-2')}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="font-semibold text-slate-900">
          {signup.name} <span className="font-mono text-xs font-normal text-slate-600">{signup.reference}</span>
        </h3>
        <Badge tone={statusTones[signup.status]}>{agreementSignupStatusLabels[signup.status]}</Badge>
      </div>
      <p className="text-slate-800">
        <Badge tone="accent">{signup.planName}</Badge> billed {signup.billing} · received {formatDay(signup.createdAt.slice(0, 10))}
      </p>
      <p className="text-sm text-slate-700">
        {signup.address}, {signup.city} {signup.zip}
        <span className="block">
          {signup.phone} · {signup.email}
        </span>
      </p>
      {signup.note ? <p className="text-sm text-slate-700">Note: {signup.note}</p> : null}
      <SignupPayment signup={signup} />
      {signup.possibleCustomer ? (
        <p className="text-sm text-amber-900">
          Possible match:{' '}
          <Link to={`/admin/customers/${encodeURIComponent(signup.possibleCustomer.id)}`} className="font-semibold underline">
            {signup.possibleCustomer.name}
          </Link>{' '}
          has the same phone or e-mail.
        </p>
      ) : null}
      {signup.status === 'confirmed' && signup.customerId ? (
        <p className="text-sm text-slate-800">
          {signup.agreementNumber} for{' '}
          <Link to={`/admin/customers/${encodeURIComponent(signup.customerId)}`} className="font-semibold text-brand-700 underline">
            {signup.customerName}
          </Link>
        </p>
      ) : null}
      {signup.status === 'declined' ? <p className="text-sm text-slate-800">Declined: {signup.declineReason}</p> : null}
      {signup.status === 'pending' ? (
        <div className="flex flex-wrap gap-2 pt-1">
          <Button size="sm" onClick={() => setDialog('confirm')} aria-label={`Confirm the sign-up of ${signup.name}`}>
            Confirm
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setDialog('decline')} aria-label={`Decline the sign-up of ${signup.name}`}>
            Decline
          </Button>
        </div>
      ) : null}
      {dialog === 'confirm' ? (
        <ConfirmSignupDialog
          signup={signup}
          onClose={() => setDialog(undefined)}
          onSaved={(saved) => {
            setDialog(undefined);
            onNotice({ text: `${saved.reference} confirmed: ${saved.planName} plan ${saved.agreementNumber} for ${saved.customerName}.`, customerId: saved.customerId });
          }}
        />
      ) : null}
      {dialog === 'decline' ? (
        <DeclineSignupDialog
          signup={signup}
          onClose={() => setDialog(undefined)}
          onSaved={(saved) => {
            setDialog(undefined);
            onNotice({ text: `${saved.reference} declined.` });
          }}
        />
      ) : null}
    </article>
  );
}

/** The sign-up's online payment (decision 027-c), when there is one to tell. */
function SignupPayment({ signup }: { signup: AgreementSignup }) {
  const { payment } = signup;
  const amount = payment.amountCents === null ? '' : formatCents(payment.amountCents);
  if (payment.status === 'paid') {
    return (
      <p className="text-sm text-slate-800">
        <Badge tone="success">Paid online</Badge> {amount} by card
        {payment.invoiceId ? (
          <>
            {' '}
            · on invoice{' '}
            <Link to={`/admin/invoices/${encodeURIComponent(payment.invoiceId)}`} className="font-semibold text-brand-700 underline">
              {payment.invoiceNumber}
            </Link>
          </>
        ) : null}
      </p>
    );
  }
  if (payment.status === 'refunded') {
    return (
      <p className="text-sm text-slate-800">
        <Badge tone="neutral">Refunded</Badge> {amount} back to the card
      </p>
    );
  }
  if (payment.status === 'awaiting' && signup.status === 'pending') return <p className="text-sm text-slate-700">Online payment of {amount} started, not completed yet.</p>;
  return null;
}

/** What the office's decision does with money paid online. */
function paymentConsequence(signup: AgreementSignup, decision: 'confirm' | 'decline'): string | null {
  const amount = signup.payment.amountCents === null ? '' : formatCents(signup.payment.amountCents);
  if (signup.payment.status === 'paid') {
    return decision === 'confirm' ? `The ${amount} paid online is recorded on the plan's first invoice.` : `The ${amount} paid online is refunded to the card.`;
  }
  if (signup.payment.status === 'awaiting') return 'The online payment page still open is closed first; a payment already made is kept (or refunded on decline).';
  return null;
}

function ConfirmSignupDialog({ signup, onClose, onSaved }: { signup: AgreementSignup; onClose: () => void; onSaved: (saved: AgreementSignup) => void }) {
  const id = useId();
  const newRef = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [picked, setPicked] = useState<PickedCustomer | undefined>();
  const [startDate, setStartDate] = useState(() => todayIn(company.timeZone));
  const [errors, setErrors] = useState<Errors>({});
  const confirm = useConfirmAgreementSignup(signup.id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (mode === 'existing' && !picked) {
      setErrors({ customer: agreementSignupMessages.customerRequired });
      document.getElementById(`${id}-picker`)?.focus();
      return;
    }
    try {
      const { signup: saved } = await confirm.mutateAsync({
        customer: mode === 'new' ? { mode: 'new' } : { mode: 'existing', customerId: picked!.id },
        startDate,
      });
      onSaved(saved);
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  return (
    <Dialog
      title={`Confirm ${signup.reference}`}
      description={`${signup.name}: ${signup.planName} plan, billed ${signup.billing}.`}
      onClose={onClose}
      initialFocusRef={newRef}
      className="max-w-xl"
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {paymentConsequence(signup, 'confirm') ? <p className="text-sm text-slate-700">{paymentConsequence(signup, 'confirm')}</p> : null}
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Customer</legend>
          <label className="flex items-start gap-2">
            <input ref={newRef} type="radio" name={`${id}-mode`} checked={mode === 'new'} onChange={() => setMode('new')} className="mt-1 size-4" />
            <span>
              New customer
              <span className="block text-sm text-slate-600">
                Made from the sign-up: {signup.name}, {signup.address}, {signup.city} {signup.zip}
              </span>
            </span>
          </label>
          <label className="flex items-start gap-2">
            <input type="radio" name={`${id}-mode`} checked={mode === 'existing'} onChange={() => setMode('existing')} className="mt-1 size-4" />
            <span>Existing customer</span>
          </label>
        </fieldset>
        {mode === 'existing' ? (
          <div className="ml-6 space-y-2">
            {signup.possibleCustomer && picked?.id !== signup.possibleCustomer.id ? (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => {
                  setPicked(signup.possibleCustomer!);
                  setErrors({});
                }}
              >
                Use {signup.possibleCustomer.name} (same phone or e-mail)
              </Button>
            ) : null}
            <CustomerPicker
              id={`${id}-picker`}
              label="Find the customer"
              hint="(name or phone)"
              placeholder={null}
              error={errors.customer}
              picked={picked}
              onPick={(customer) => {
                setPicked(customer);
                setErrors({});
              }}
              onClear={() => setPicked(undefined)}
            />
          </div>
        ) : null}
        <FormField id={`${id}-start`} label="Plan starts on" isRequired error={errors.startDate}>
          <input id={`${id}-start`} type="date" value={startDate} onChange={(event) => setStartDate(event.target.value)} className={controlClass} required {...errorAttributes(`${id}-start`, errors.startDate)} />
        </FormField>
        <div aria-live="assertive">{errors.form ? <Alert>{errors.form}</Alert> : null}</div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={confirm.isPending}>
            Back
          </Button>
          <Button type="submit" disabled={confirm.isPending}>
            {confirm.isPending ? 'Confirming…' : 'Confirm plan'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DeclineSignupDialog({ signup, onClose, onSaved }: { signup: AgreementSignup; onClose: () => void; onSaved: (saved: AgreementSignup) => void }) {
  const id = useId();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const decline = useDeclineAgreementSignup(signup.id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setErrors({ reason: agreementSignupMessages.reasonRequired });
      reasonRef.current?.focus();
      return;
    }
    try {
      onSaved((await decline.mutateAsync(reason)).signup);
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  return (
    <Dialog title={`Decline ${signup.reference}`} description={`${signup.name}: ${signup.planName} plan.`} onClose={onClose} initialFocusRef={reasonRef} className="max-w-lg">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-700">No e-mail goes out: call {signup.name} at {signup.phone} to explain.</p>
        {paymentConsequence(signup, 'decline') ? <p className="text-sm text-slate-700">{paymentConsequence(signup, 'decline')}</p> : null}
        <FormField id={`${id}-reason`} label="Reason" isRequired error={errors.reason}>
          <textarea ref={reasonRef} id={`${id}-reason`} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} rows={3} className={controlClass} required {...errorAttributes(`${id}-reason`, errors.reason)} />
        </FormField>
        <div aria-live="assertive">{errors.form ? <Alert>{errors.form}</Alert> : null}</div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={decline.isPending}>
            Back
          </Button>
          <Button type="submit" variant="destructive" disabled={decline.isPending}>
            {decline.isPending ? 'Declining…' : 'Decline sign-up'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
