import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Link } from 'react-router';
import {
  agreementMessages,
  agreementStatusLabels,
  type AgreementBilling,
  type AgreementDetail,
  type AgreementStatus,
} from '#shared/agreement.ts';
import type { CustomerEquipment } from '#shared/customer.ts';
import { todayIn } from '#shared/dates.ts';
import { maintenancePlanById, maintenancePlans, maintenanceSeasons, planMonthlyCents, planPriceCents, type MaintenancePlanId } from '#shared/maintenance-plans.ts';
import { formatCents } from '#shared/money.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge, type BadgeTone } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { workOrderStatusLabel, workOrderStatusTone } from '#client/lib/work-order-labels.ts';
import { useCancelAgreement, useCreateAgreement, useCustomerAgreements, useUpdateAgreement } from './api.ts';
import { formatDay, formatMonth, seasonOf } from './labels.ts';

const statusTones: Record<AgreementStatus, BadgeTone> = { pending: 'warning', active: 'success', expiring: 'warning', expired: 'neutral', cancelled: 'danger' };

const equipmentLabel = (item: CustomerEquipment) => [item.equipmentType, item.brand, item.location].filter(Boolean).join(' · ');

/**
 * The profile's maintenance plans (issue 22): each agreement with its term, price, covered systems
 * and visits; "Add maintenance plan" sells one; staff change the plan or auto-renew, admins cancel.
 */
export function CustomerAgreements({ customerId, equipment, canCancel }: { customerId: string; equipment: readonly CustomerEquipment[]; canCancel: boolean }) {
  const agreements = useCustomerAgreements(customerId);
  const [isAdding, setIsAdding] = useState(false);
  const [notice, setNotice] = useState<string>();
  const titleId = useId();

  return (
    <section aria-labelledby={titleId} className={cardClassName('p-4 sm:p-6')}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Maintenance Plans
        </h2>
        <Button
          onClick={() => {
            setNotice(undefined);
            setIsAdding(true);
          }}
        >
          Add maintenance plan
        </Button>
      </div>
      <div aria-live="polite">{notice ? <Alert tone="success" className="mt-3">{notice}</Alert> : null}</div>
      {agreements.isPending ? (
        <p role="status" className="mt-3 text-slate-600">
          Loading…
        </p>
      ) : agreements.isError ? (
        <Alert className="mt-3">{messageOf(agreements.error)}</Alert>
      ) : agreements.data.agreements.length === 0 ? (
        <p className="mt-3 text-slate-600">No maintenance plan. Members get their tune-ups scheduled each season and a discount on repairs.</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {agreements.data.agreements.map((agreement) => (
            <li key={agreement.id}>
              <AgreementCard agreement={agreement} equipment={equipment} canCancel={canCancel} onNotice={setNotice} />
            </li>
          ))}
        </ul>
      )}
      {isAdding ? (
        <AddAgreementDialog
          customerId={customerId}
          equipment={equipment}
          onClose={() => setIsAdding(false)}
          onSaved={(agreement) => {
            setIsAdding(false);
            setNotice(`${agreement.planName} plan ${agreement.agreementNumber} added${agreement.visits.length > 0 ? `; ${agreement.visits.length} visit${agreement.visits.length > 1 ? 's' : ''} due` : ''}.`);
          }}
        />
      ) : null}
    </section>
  );
}

function AgreementCard({ agreement, equipment, canCancel, onNotice }: { agreement: AgreementDetail; equipment: readonly CustomerEquipment[]; canCancel: boolean; onNotice: (text: string) => void }) {
  const [isChanging, setIsChanging] = useState(false);
  const [isCancelling, setIsCancelling] = useState(false);
  const isOpen = agreement.status !== 'cancelled' && agreement.status !== 'expired';
  const covered = equipment.filter((item) => agreement.equipmentIds.includes(item.id));
  const headingId = useId();
  return (
    <article aria-labelledby={headingId} className="rounded-md border border-slate-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={headingId} className="font-semibold text-slate-900">
            {agreement.planName} plan <span className="font-mono text-sm text-slate-600">{agreement.agreementNumber}</span>
          </h3>
          <p className="text-sm text-slate-700">
            {formatDay(agreement.currentTermStartsOn)} – {formatDay(agreement.currentTermEndsOn)} · {formatCents(agreement.priceCents)} a year
            {agreement.billing === 'monthly' ? ` (billed monthly, ${formatCents(Math.round(agreement.priceCents / 12))})` : ' (billed yearly)'} ·{' '}
            {agreement.autoRenew ? 'Renews automatically' : 'Does not renew by itself'}
          </p>
        </div>
        <Badge tone={statusTones[agreement.status]}>{agreementStatusLabels[agreement.status]}</Badge>
      </div>
      <p className="mt-2 text-sm text-slate-700">Covered systems: {covered.length > 0 ? covered.map(equipmentLabel).join('; ') : 'none named'}</p>
      {agreement.notes ? <p className="mt-1 text-sm text-slate-700">Notes: {agreement.notes}</p> : null}
      {agreement.status === 'cancelled' && agreement.cancellationReason ? (
        <p className="mt-1 text-sm text-slate-700">Cancelled: {agreement.cancellationReason}</p>
      ) : null}
      <h4 className="mt-3 text-sm font-semibold text-slate-900">Visits</h4>
      {agreement.visits.length === 0 ? (
        <p className="text-sm text-slate-600">None yet: each season’s visit appears 30 days before the season opens.</p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {agreement.visits.map((visit) => (
            <li key={visit.id} className="flex flex-wrap items-center gap-2">
              <span className="text-slate-800">
                {seasonOf(visit.period)} · due {formatDay(visit.dueFrom)} – {formatDay(visit.dueBy)}
              </span>
              {visit.workOrderId ? (
                <>
                  <Link to={`/admin/workorders/${encodeURIComponent(visit.workOrderId)}`} className="font-medium text-brand-700 underline">
                    {visit.workOrderNumber}
                  </Link>
                  <Badge tone={workOrderStatusTone(visit.status ?? '')}>{workOrderStatusLabel(visit.status ?? '')}</Badge>
                  {visit.scheduledDate ? <span className="text-slate-700">on {formatDay(visit.scheduledDate)}</span> : null}
                  {visit.status === 'pending' && !visit.scheduledDate ? (
                    <Link to={`/admin/visits-due?month=${visit.dueFrom.slice(0, 7)}`} className="text-brand-700 underline">
                      In Visits due for {formatMonth(visit.dueFrom.slice(0, 7))}
                    </Link>
                  ) : null}
                </>
              ) : (
                <span className="text-slate-600">(work order deleted)</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {isOpen ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setIsChanging(true)}>
            Change plan
          </Button>
          {canCancel ? (
            <Button variant="danger" size="sm" onClick={() => setIsCancelling(true)}>
              Cancel plan
            </Button>
          ) : null}
        </div>
      ) : null}
      {isChanging ? (
        <ChangeAgreementDialog
          agreement={agreement}
          equipment={equipment}
          onClose={() => setIsChanging(false)}
          onSaved={(text) => {
            setIsChanging(false);
            onNotice(text);
          }}
        />
      ) : null}
      {isCancelling ? (
        <CancelAgreementDialog
          agreement={agreement}
          onClose={() => setIsCancelling(false)}
          onSaved={(text) => {
            setIsCancelling(false);
            onNotice(text);
          }}
        />
      ) : null}
    </article>
  );
}

type Errors = Partial<Record<'planId' | 'startDate' | 'equipmentIds' | 'reason' | 'form', string>>;

function errorsFrom(error: unknown): Errors {
  if (!(error instanceof ApiError)) return { form: messageOf(error) };
  const details = Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]) : [];
  const errors: Errors = {};
  for (const detail of details) {
    const path = detail.path?.split('.')[0] ?? '';
    if (['planId', 'startDate', 'equipmentIds', 'reason'].includes(path) && detail.message) errors[path as keyof Errors] ??= detail.message;
  }
  if (Object.keys(errors).length === 0) errors.form = messageOf(error);
  return errors;
}

function PlanChoice({ id, value, onChange, error, selectRef }: { id: string; value: MaintenancePlanId | ''; onChange: (value: MaintenancePlanId) => void; error?: string; selectRef: RefObject<HTMLSelectElement | null> }) {
  return (
    <FormField id={id} label="Plan" isRequired error={error}>
      <select ref={selectRef} id={id} value={value} onChange={(event) => onChange(event.target.value as MaintenancePlanId)} className={controlClass} required {...errorAttributes(id, error)}>
        <option value="" disabled>
          Choose a plan
        </option>
        {maintenancePlans.map((plan) => (
          <option key={plan.id} value={plan.id}>
            {plan.name}: {formatCents(planPriceCents(plan.id))} a year, {plan.visitsPerYear} visit{plan.visitsPerYear > 1 ? 's' : ''}, {plan.repairDiscountPercent}% off repairs
          </option>
        ))}
      </select>
    </FormField>
  );
}

function EquipmentChoice({ idPrefix, equipment, chosen, onChange, error }: { idPrefix: string; equipment: readonly CustomerEquipment[]; chosen: string[]; onChange: (ids: string[]) => void; error?: string }) {
  if (equipment.length === 0) return <p className="text-sm text-slate-600">This customer has no equipment on file; add it on the profile to name the covered systems.</p>;
  return (
    <fieldset aria-describedby={error ? `${idPrefix}-equipment-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">Covered systems</legend>
      <div className="mt-1 space-y-1">
        {equipment.map((item) => (
          <label key={item.id} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={chosen.includes(item.id)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, item.id] : chosen.filter((id) => id !== item.id))}
              className="h-4 w-4"
            />
            {equipmentLabel(item)}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${idPrefix}-equipment-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

type RenewalSystemsNotesValues = { autoRenew: boolean; equipmentIds: string[]; notes: string };

/** The state behind RenewalSystemsNotes, from the values a dialog opens with: spread it into the fields. */
function useRenewalSystemsNotes(initial: RenewalSystemsNotesValues) {
  const [autoRenew, setAutoRenew] = useState(initial.autoRenew);
  const [equipmentIds, setEquipmentIds] = useState<string[]>(initial.equipmentIds);
  const [notes, setNotes] = useState(initial.notes);
  return { values: { autoRenew, equipmentIds, notes }, on: { autoRenew: setAutoRenew, equipmentIds: setEquipmentIds, notes: setNotes } };
}

/** The fields both dialogs share: auto-renew, the covered systems and the notes. */
function RenewalSystemsNotes({
  idPrefix,
  equipment,
  values,
  on,
  equipmentError,
}: {
  idPrefix: string;
  equipment: readonly CustomerEquipment[];
  values: RenewalSystemsNotesValues;
  on: { autoRenew: (value: boolean) => void; equipmentIds: (ids: string[]) => void; notes: (value: string) => void };
  equipmentError?: string;
}) {
  return (
    <>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" checked={values.autoRenew} onChange={(event) => on.autoRenew(event.target.checked)} className="h-4 w-4" />
        Renew automatically at the end of each year
      </label>
      <EquipmentChoice idPrefix={idPrefix} equipment={equipment} chosen={values.equipmentIds} onChange={on.equipmentIds} error={equipmentError} />
      <FormField id={`${idPrefix}-notes`} label="Notes">
        <textarea id={`${idPrefix}-notes`} value={values.notes} onChange={(event) => on.notes(event.target.value)} maxLength={2000} rows={2} className={controlClass} />
      </FormField>
    </>
  );
}

function AddAgreementDialog({ customerId, equipment, onClose, onSaved }: { customerId: string; equipment: readonly CustomerEquipment[]; onClose: () => void; onSaved: (agreement: AgreementDetail) => void }) {
  const id = useId();
  const planRef = useRef<HTMLSelectElement>(null);
  const [planId, setPlanId] = useState<MaintenancePlanId | ''>('');
  const [startDate, setStartDate] = useState(todayIn(company.timeZone));
  const [billing, setBilling] = useState<AgreementBilling>('yearly');
  const renewal = useRenewalSystemsNotes({ autoRenew: true, equipmentIds: equipment.map((item) => item.id), notes: '' });
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateAgreement(customerId);
  const plan = planId ? maintenancePlanById(planId) : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: Errors = {};
    if (!planId) problems.planId = 'Choose a plan.';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate)) problems.startDate = agreementMessages.startDateInvalid;
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      document.getElementById(`${id}-${Object.keys(problems)[0]}`)?.focus();
      return;
    }
    try {
      const { agreement } = await create.mutateAsync({ planId: planId as MaintenancePlanId, startDate, billing, ...renewal.values });
      onSaved(agreement);
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  return (
    <Dialog title="Add maintenance plan" onClose={onClose} initialFocusRef={planRef} className="max-w-xl">
      <form onSubmit={submit} noValidate className="space-y-4">
        <PlanChoice id={`${id}-planId`} value={planId} onChange={setPlanId} error={errors.planId} selectRef={planRef} />
        {plan ? (
          <p className="text-sm text-slate-700">
            {plan.visitsPerYear === 1 ? 'One visit a year: the spring cooling tune-up.' : `Two visits a year: ${maintenanceSeasons.spring.label.toLowerCase()} cooling and ${maintenanceSeasons.fall.label.toLowerCase()} heating tune-ups.`}{' '}
            {billing === 'monthly' ? `Billed ${formatCents(planMonthlyCents(plan.id))} a month.` : ''}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id={`${id}-startDate`} label="Start date" isRequired error={errors.startDate}>
            <input id={`${id}-startDate`} type="date" value={startDate} onChange={(event) => setStartDate(event.target.value)} className={controlClass} required {...errorAttributes(`${id}-startDate`, errors.startDate)} />
          </FormField>
          <FormField id={`${id}-billing`} label="Billing">
            <select id={`${id}-billing`} value={billing} onChange={(event) => setBilling(event.target.value as AgreementBilling)} className={controlClass}>
              <option value="yearly">Yearly</option>
              <option value="monthly">Monthly</option>
            </select>
          </FormField>
        </div>
        <RenewalSystemsNotes idPrefix={id} equipment={equipment} {...renewal} equipmentError={errors.equipmentIds} />
        <div aria-live="assertive">{errors.form ? <Alert>{errors.form}</Alert> : null}</div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add plan'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function ChangeAgreementDialog({ agreement, equipment, onClose, onSaved }: { agreement: AgreementDetail; equipment: readonly CustomerEquipment[]; onClose: () => void; onSaved: (text: string) => void }) {
  const id = useId();
  const planRef = useRef<HTMLSelectElement>(null);
  const [planId, setPlanId] = useState<MaintenancePlanId | ''>(agreement.planId);
  const renewal = useRenewalSystemsNotes({ autoRenew: agreement.autoRenew, equipmentIds: agreement.equipmentIds, notes: agreement.notes });
  const [errors, setErrors] = useState<Errors>({});
  const update = useUpdateAgreement(agreement.id);
  const dropsFall = planId === 'essential' && agreement.planId !== 'essential';

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const { agreement: saved } = await update.mutateAsync({ expectedUpdatedAt: agreement.updatedAt, planId: planId || undefined, ...renewal.values });
      onSaved(`${saved.agreementNumber} saved: ${saved.planName} plan.`);
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  return (
    <Dialog title={`Change ${agreement.agreementNumber}`} onClose={onClose} initialFocusRef={planRef} className="max-w-xl">
      <form onSubmit={submit} noValidate className="space-y-4">
        <PlanChoice id={`${id}-planId`} value={planId} onChange={setPlanId} error={errors.planId} selectRef={planRef} />
        {dropsFall ? <p className="text-sm text-amber-800">The Essential plan has no fall visit: an open fall visit of this agreement is cancelled.</p> : null}
        <p className="text-sm text-slate-700">The price of the current term stays; the next term is at the new plan’s price.</p>
        <RenewalSystemsNotes idPrefix={id} equipment={equipment} {...renewal} equipmentError={errors.equipmentIds} />
        <div aria-live="assertive">{errors.form ? <Alert>{errors.form}</Alert> : null}</div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
            Close
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function CancelAgreementDialog({ agreement, onClose, onSaved }: { agreement: AgreementDetail; onClose: () => void; onSaved: (text: string) => void }) {
  const id = useId();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const cancel = useCancelAgreement(agreement.id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setErrors({ reason: agreementMessages.reasonRequired });
      reasonRef.current?.focus();
      return;
    }
    try {
      await cancel.mutateAsync(reason);
      onSaved(`${agreement.agreementNumber} was cancelled; its open visits were cancelled.`);
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  return (
    <Dialog title={`Cancel ${agreement.agreementNumber}`} onClose={onClose} initialFocusRef={reasonRef} className="max-w-lg">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-700">Its open visits are cancelled; completed ones stay. It does not renew.</p>
        <FormField id={`${id}-reason`} label="Reason" isRequired error={errors.reason}>
          <textarea ref={reasonRef} id={`${id}-reason`} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} rows={3} className={controlClass} required {...errorAttributes(`${id}-reason`, errors.reason)} />
        </FormField>
        <div aria-live="assertive">{errors.form ? <Alert>{errors.form}</Alert> : null}</div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={cancel.isPending}>
            Keep plan
          </Button>
          <Button type="submit" variant="destructive" disabled={cancel.isPending}>
            {cancel.isPending ? 'Cancelling…' : 'Cancel plan'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
