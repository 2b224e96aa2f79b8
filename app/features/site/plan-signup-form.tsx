import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { AgreementSignupCheckoutStatus, AgreementSignupReceived } from '#shared/agreement-signup.ts';
import { telHref } from '#shared/company-profile.ts';
import { maintenancePlans, type MaintenancePlan } from '#shared/maintenance-plans.ts';
import { formatCents } from '#shared/money.ts';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError, apiFetch, newIdempotencyKey } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { ContactField, FormErrorAlert, HoneypotField, PersonFields, RequiredFieldsNote } from './contact-fields.tsx';
import { buttonClass } from './ui.ts';

type FieldName = 'planId' | 'billing' | 'name' | 'email' | 'phone' | 'address' | 'zip' | 'note';
type FieldErrors = Partial<Record<FieldName, string>>;
type PlanId = MaintenancePlan['id'];
type Billing = 'yearly' | 'monthly';

/** The order errors are looked at: the first invalid field gets the focus (and so is announced). */
const fieldOrder: readonly FieldName[] = ['planId', 'billing', 'name', 'email', 'phone', 'address', 'zip', 'note'];
/** The plan the page recommends, chosen until the visitor (or the card they came from) picks another. */
const defaultPlanId: PlanId = 'advanced';

/** The shared schema, fetched on first interaction with the form (see plan-signup-validation.ts). */
const loadValidation = () => import('./plan-signup-validation.ts');

const dollars = (cents: number) => `$${(cents / 100).toFixed(2).replace(/\.00$/, '')}`;
const monthly = (plan: MaintenancePlan) => dollars(Math.round((plan.yearlyPrice * 100) / 12));

const noSubscription = () => () => undefined;
const isPlanId = (value: string | null): value is PlanId => maintenancePlans.some((plan) => plan.id === value);

/**
 * The site's plan sign-up (issue 22, decision 027-b): plan, billing, contact and the home's
 * address and ZIP, checked with the shared schema before sending (the server checks again, and
 * the ZIP against the service area). The first problem's field takes the focus, its message tied
 * to it, so a screen reader reads it. A double click or a retry sends the same idempotency key.
 * A card's "Choose" button preselects its plan (`?plan=` in the address).
 */
export function PlanSignupForm() {
  const idPrefix = useId();
  const fieldId = (name: string) => `${idPrefix}-${name}`;
  const [searchParams] = useSearchParams();
  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);
  const idempotencyKey = useRef<string | undefined>(undefined);
  const [planId, setPlanId] = useState<PlanId>(defaultPlanId);
  const [billing, setBilling] = useState<Billing>('yearly');
  const [status, setStatus] = useState<'idle' | 'submitting' | 'success'>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [received, setReceived] = useState<{ reference: string; planName: string; email: string; payment: AgreementSignupReceived['payment'] }>();

  // A card's "Choose" button (or a link) names a plan in the address: it becomes the choice, once per
  // address, and only once hydrated (the prerendered page shows the recommended plan; changing it
  // while hydrating would not match that HTML).
  const isHydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const wantedPlan = isHydrated ? searchParams.get('plan') : null;
  const [seenPlan, setSeenPlan] = useState<string | null>(null);
  if (wantedPlan !== seenPlan) {
    setSeenPlan(wantedPlan);
    if (isPlanId(wantedPlan)) setPlanId(wantedPlan);
  }

  useEffect(() => {
    if (status === 'success') successRef.current?.focus();
  }, [status]);

  function clearError(name: FieldName) {
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
  }

  function showErrors(found: FieldErrors) {
    setErrors(found);
    const first = fieldOrder.find((name) => found[name]);
    if (!first) return;
    // A radio group takes the focus on its chosen (or first) option.
    const target = first === 'planId' ? `planId-${planId}` : first === 'billing' ? `billing-${billing}` : first;
    document.getElementById(fieldId(target))?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'submitting') return;
    setFormError(undefined);
    const values = Object.fromEntries(new FormData(event.currentTarget).entries());
    let validation: Awaited<ReturnType<typeof loadValidation>>;
    try {
      validation = await loadValidation();
    } catch {
      setFormError(`Sorry, the page could not load everything it needs. Please reload it or call us at ${company.phone}.`);
      return;
    }
    const parsed = validation.agreementSignupRequestSchema.safeParse(values);
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as FieldName] ??= issue.message;
      showErrors(found);
      return;
    }
    setErrors({});
    idempotencyKey.current ??= newIdempotencyKey();
    setStatus('submitting');
    try {
      const answer = await apiFetch<AgreementSignupReceived>('/api/public/maintenance-plan-signups', {
        method: 'POST',
        body: values,
        headers: { 'idempotency-key': idempotencyKey.current },
      });
      setReceived({ reference: answer.reference, planName: maintenancePlans.find((plan) => plan.id === parsed.data.planId)?.name ?? '', email: parsed.data.email, payment: answer.payment });
      formRef.current?.reset();
      idempotencyKey.current = undefined;
      setStatus('success');
    } catch (error) {
      setStatus('idle');
      // A refusal naming fields (a ZIP code outside the area) is shown at them.
      if (error instanceof ApiError && error.status === 400 && Array.isArray(error.details)) {
        const found: FieldErrors = {};
        for (const detail of error.details as { path?: string; message?: string }[]) {
          if (detail.path && fieldOrder.includes(detail.path as FieldName) && detail.message) found[detail.path as FieldName] ??= detail.message;
        }
        if (Object.keys(found).length > 0) return showErrors(found);
      }
      const reason = error instanceof ApiError && error.code !== 'NETWORK' ? error.message.replace(/\.$/, '') : 'the connection to our server failed';
      setFormError(`Sorry, we could not send your sign-up (${reason}). Please try again or call us at ${company.phone}.`);
    }
  }

  if (status === 'success' && received) {
    return (
      <div className="rounded-lg border border-green-200 bg-green-50 p-8" role="status">
        <h3 ref={successRef} tabIndex={-1} className="text-2xl font-bold text-green-900 focus:outline-none">
          Thank you! We received your sign-up.
        </h3>
        <p className="mt-3 text-green-900">
          Your reference is <strong>{received.reference}</strong>. Our office will confirm your {received.planName} plan and call you to book your first
          tune-up. A note is on its way to {received.email}.
        </p>
        <SignupPaymentOffer payment={received.payment} />
        <CallUs className="mt-2 text-green-900" />
        <button type="button" onClick={() => setStatus('idle')} className={`mt-6 ${buttonClass.secondary}`}>
          Sign up another system
        </button>
      </div>
    );
  }

  const isSubmitting = status === 'submitting';
  const checkout = isHydrated ? searchParams.get('checkout') : null;
  const groupError = (name: 'planId' | 'billing') =>
    errors[name] ? (
      <p id={`${fieldId(name)}-error`} className="mt-1 text-sm text-red-700">
        {errors[name]}
      </p>
    ) : null;
  const radioClass = 'mt-0.5 size-4 shrink-0 border-slate-400 text-accent-700';
  return (
    <div>
      {checkout ? <CheckoutReturn checkout={checkout} /> : null}
      <RequiredFieldsNote />
      <FormErrorAlert message={formError} />
      <form ref={formRef} noValidate onSubmit={onSubmit} onFocus={() => void loadValidation().catch(() => undefined)} className="mt-4" aria-label="Sign up for a maintenance plan">
        <fieldset disabled={isSubmitting} className="grid gap-5 sm:grid-cols-2">
          <fieldset className="sm:col-span-2" aria-describedby={errors.planId ? `${fieldId('planId')}-error` : undefined}>
            <legend className="text-sm font-medium text-slate-800">
              Plan <span aria-hidden="true" className="text-red-700">*</span>
            </legend>
            <div className="mt-2 grid gap-3 sm:grid-cols-3">
              {maintenancePlans.map((plan) => (
                <label key={plan.id} htmlFor={fieldId(`planId-${plan.id}`)} className="flex cursor-pointer gap-3 rounded-lg border border-slate-300 p-3 has-[:checked]:border-accent-700 has-[:checked]:bg-orange-50">
                  <input
                    id={fieldId(`planId-${plan.id}`)}
                    type="radio"
                    name="planId"
                    value={plan.id}
                    checked={planId === plan.id}
                    onChange={() => {
                      setPlanId(plan.id);
                      clearError('planId');
                    }}
                    className={radioClass}
                  />
                  <span>
                    <span className="block font-semibold text-brand-900">{plan.name}</span>
                    <span className="block text-sm text-slate-700">
                      ${plan.yearlyPrice} a year, {plan.visitsPerYear} {plan.visitsPerYear === 1 ? 'visit' : 'visits'}
                    </span>
                  </span>
                </label>
              ))}
            </div>
            {groupError('planId')}
          </fieldset>
          <fieldset className="sm:col-span-2" aria-describedby={errors.billing ? `${fieldId('billing')}-error` : undefined}>
            <legend className="text-sm font-medium text-slate-800">
              Billing <span aria-hidden="true" className="text-red-700">*</span>
            </legend>
            <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
              {(['yearly', 'monthly'] as const).map((option) => {
                const plan = maintenancePlans.find((candidate) => candidate.id === planId)!;
                return (
                  <label key={option} htmlFor={fieldId(`billing-${option}`)} className="flex cursor-pointer items-start gap-2">
                    <input
                      id={fieldId(`billing-${option}`)}
                      type="radio"
                      name="billing"
                      value={option}
                      checked={billing === option}
                      onChange={() => {
                        setBilling(option);
                        clearError('billing');
                      }}
                      className={radioClass}
                    />
                    <span>{option === 'yearly' ? `Yearly, $${plan.yearlyPrice} a year` : `Monthly, ${monthly(plan)} a month`}</span>
                  </label>
                );
              })}
            </div>
            {groupError('billing')}
          </fieldset>
          <PersonFields fieldId={fieldId} errors={errors} clearError={clearError} nameLabel="Full name" />
          <ContactField name="zip" id={fieldId('zip')} label="ZIP code" error={errors.zip} onChange={() => clearError('zip')} />
          <ContactField name="address" id={fieldId('address')} label="Street address of the home" error={errors.address} onChange={() => clearError('address')} className="sm:col-span-2" />
          <FormField id={fieldId('note')} label="Anything we should know?" hint="(optional: number of systems, gate code)" error={errors.note} className="sm:col-span-2">
            <textarea id={fieldId('note')} name="note" rows={3} {...errorAttributes(fieldId('note'), errors.note)} onChange={() => clearError('note')} className={controlClass} />
          </FormField>
          <HoneypotField />
          <div className="sm:col-span-2">
            <p className="mb-4 text-sm text-slate-700">Signing up charges nothing: our office confirms your plan and calls you to book the first tune-up.</p>
            <button type="submit" className={`w-full sm:w-auto ${buttonClass.primary} disabled:opacity-70`}>
              {isSubmitting ? 'Sending...' : 'Sign up'}
            </button>
          </div>
        </fieldset>
      </form>
    </div>
  );
}

/**
 * After the sign-up is stored (decision 027-c): paying the first year or month now on Stripe's page,
 * or later when the office confirms. Said plainly either way, and when Stripe is unavailable.
 */
function SignupPaymentOffer({ payment }: { payment: AgreementSignupReceived['payment'] }) {
  if (payment.status === 'checkout') {
    return (
      <div className="mt-4 rounded-md border border-green-300 bg-white p-4">
        <p className="text-slate-800">
          You can pay now by card ({formatCents(payment.amountCents)}), or pay when our office confirms your plan. If we cannot take it on, a payment is
          refunded in full.
        </p>
        <a href={payment.url} className={`mt-3 inline-block ${buttonClass.primary}`}>
          Pay {formatCents(payment.amountCents)} by card
        </a>
        <p className="mt-2 text-sm text-slate-600">Secure payment on Stripe&rsquo;s page; we never see your card number.</p>
      </div>
    );
  }
  if (payment.status === 'paid') return <p className="mt-2 text-green-900">Your online payment is received.</p>;
  if (payment.status === 'unavailable') return <p className="mt-2 text-green-900">Paying online is unavailable just now: you can pay when our office confirms your plan.</p>;
  return <p className="mt-2 text-green-900">Nothing is charged before then.</p>;
}

type ReturnState = AgreementSignupCheckoutStatus['status'] | 'loading' | 'cancelled' | 'unknown';
/** How long the return page waits for Stripe's confirmation to reach us, asking every 1.5 s. */
const confirmationChecks = 12;

/**
 * Back from Stripe's page (`?checkout=<session>` or `?checkout=cancelled`): whether the payment is
 * recorded, asked again while Stripe's confirmation is on its way. Announced and focused.
 */
function CheckoutReturn({ checkout }: { checkout: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [state, setState] = useState<ReturnState>(checkout === 'cancelled' ? 'cancelled' : 'loading');
  const [checks, setChecks] = useState(0);

  useEffect(() => {
    if (checkout === 'cancelled' || (state !== 'loading' && state !== 'confirming') || checks >= confirmationChecks) return;
    let isCurrent = true;
    const timer = setTimeout(
      () => {
        apiFetch<AgreementSignupCheckoutStatus>(`/api/public/maintenance-plan-signups/checkout/${encodeURIComponent(checkout)}`)
          .then((answer) => isCurrent && setState(answer.status))
          .catch((error: unknown) => isCurrent && setState(error instanceof ApiError && (error.status === 404 || error.status === 400) ? 'unknown' : 'confirming'))
          .finally(() => isCurrent && setChecks((count) => count + 1));
      },
      checks === 0 ? 0 : 1500,
    );
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [checkout, state, checks]);

  useEffect(() => {
    headingRef.current?.focus();
  }, [state]);

  const isPaid = state === 'paid';
  const isWaiting = state === 'loading' || state === 'confirming';
  const title = isPaid ? 'Payment received. Thank you!' : isWaiting ? 'Confirming your payment\u2026' : 'Your payment was not completed';
  const text = isPaid
    ? 'Stripe e-mails your receipt. Our office confirms your plan and calls you to book your first tune-up; the payment counts toward your plan, and is refunded in full if we cannot take it on.'
    : isWaiting
      ? checks >= confirmationChecks
        ? 'Stripe has not confirmed your payment to us yet. If you paid, it will reach us and our office will confirm it with you.'
        : 'Stripe is confirming your payment with us. This takes a few seconds.'
      : 'Your sign-up is kept: you can pay when our office confirms your plan and calls you.';
  return (
    <div role="status" className={`mb-6 rounded-lg border p-6 ${isPaid ? 'border-green-200 bg-green-50' : 'border-slate-200 bg-slate-50'}`}>
      <h3 ref={headingRef} tabIndex={-1} className="text-xl font-bold text-brand-900 focus:outline-none">
        {title}
      </h3>
      <p className="mt-2 text-slate-800">{text}</p>
      <CallUs className="mt-2 text-slate-800" />
    </div>
  );
}

/** "Questions? Call <the company's phone>." under the sign-up's answers. */
function CallUs({ className }: { className: string }) {
  return (
    <p className={className}>
      Questions? Call{' '}
      <a className="font-semibold underline" href={telHref(company.phone)}>
        {company.phone}
      </a>
      .
    </p>
  );
}
