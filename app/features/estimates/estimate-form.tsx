import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { todayIn } from '#shared/dates.ts';
import { estimateServiceTypes, estimateTimePreferences } from '#shared/enums.ts';
import {
  estimateMessages,
  estimateServiceTypeLabels,
  estimateTimePreferenceLabels,
  type EstimateSubmissionResponse,
} from '#shared/estimate-labels.ts';
import { estimateResponseHours } from '#shared/business.ts';
import { smsConsentWording } from '#shared/contact.ts';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError, apiFetch, newIdempotencyKey } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { ContactField, FormErrorAlert, HoneypotField, PersonFields, RequiredFieldsNote } from '#client/features/site/index.ts';

/** Spec 000 section 9: the success panel resets after 8000 ms. */
export const successPanelMs = 8000;

type FieldName = 'name' | 'email' | 'phone' | 'address' | 'serviceType' | 'preferredDate' | 'preferredTime' | 'description' | 'smsConsent';
type FieldErrors = Partial<Record<FieldName, string>>;

/** Today in the company's time zone; undefined while prerendering (the page is built ahead of time). */
function useCompanyToday(): string | undefined {
  return useSyncExternalStore(
    () => () => undefined,
    () => todayIn(company.timeZone),
    () => undefined,
  );
}

/** The shared schema, fetched on first interaction with the form (see estimate-validation.ts). */
const loadValidation = () => import('./estimate-validation.ts');

/**
 * The free-estimate form (spec 000 sections 2, 4, 5, 8): validated with the shared schema before
 * sending (the server validates again), disabled with 'Submitting...' while sending, a thank-you
 * panel that returns to an empty form after 8 seconds or on 'Submit Another Request', and the
 * spec's error above the form. A double click or a retry sends the same idempotency key, so the
 * request is stored once.
 */
export function EstimateForm({ submitLabel = 'Get My Free Estimate', heading }: { submitLabel?: string; heading: string }) {
  const idPrefix = useId();
  const fieldId = (name: FieldName) => `${idPrefix}-${name}`;
  const today = useCompanyToday();
  const formRef = useRef<HTMLFormElement>(null);
  const successHeadingRef = useRef<HTMLHeadingElement>(null);
  const idempotencyKey = useRef<string | undefined>(undefined);
  const [status, setStatus] = useState<'idle' | 'submitting' | 'success'>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [hasReturnedFromSuccess, setHasReturnedFromSuccess] = useState(false);

  useEffect(() => {
    if (status !== 'success') return;
    successHeadingRef.current?.focus();
    const timer = window.setTimeout(() => {
      setStatus('idle');
      setHasReturnedFromSuccess(true);
    }, successPanelMs);
    return () => window.clearTimeout(timer);
  }, [status]);

  useEffect(() => {
    if (status === 'idle' && hasReturnedFromSuccess) formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [status, hasReturnedFromSuccess]);

  function clearError(name: FieldName) {
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
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
      setFormError(estimateMessages.submitFailed('the page could not load everything it needs', company.phone));
      return;
    }
    const parsed = validation.estimateRequestSchema(todayIn(company.timeZone)).safeParse(values);
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0] as FieldName;
        found[name] ??= issue.message;
      }
      setErrors(found);
      const firstInvalid = Object.keys(found)[0] as FieldName | undefined;
      if (firstInvalid) document.getElementById(fieldId(firstInvalid))?.focus();
      return;
    }
    setErrors({});
    idempotencyKey.current ??= newIdempotencyKey();
    setStatus('submitting');
    try {
      await apiFetch<EstimateSubmissionResponse>('/api/public/estimate-requests', {
        method: 'POST',
        body: values,
        headers: { 'idempotency-key': idempotencyKey.current },
      });
      formRef.current?.reset();
      idempotencyKey.current = undefined;
      setStatus('success');
    } catch (error) {
      const message = error instanceof ApiError && error.code !== 'NETWORK' ? error.message : 'the connection to our server failed';
      setFormError(estimateMessages.submitFailed(message.replace(/\.$/, ''), company.phone));
      setStatus('idle');
    }
  }

  if (status === 'success') {
    return (
      <div className="rounded-lg border border-green-200 bg-green-50 p-8 text-center" role="status">
        <h2 ref={successHeadingRef} tabIndex={-1} className="text-2xl font-bold text-green-900 focus:outline-none">
          Thank You!
        </h2>
        <p className="mt-3 text-green-900">
          We received your request and will contact you within {estimateResponseHours} hours. A confirmation is on its way to your
          inbox.
        </p>
        <p className="mt-2 text-green-900">
          Need help right away? Call <a className="font-semibold underline" href={`tel:${company.phone.replace(/[^\d+]/g, '')}`}>{company.phone}</a>.
        </p>
        <button
          type="button"
          onClick={() => {
            setStatus('idle');
            setHasReturnedFromSuccess(true);
          }}
          className="mt-6 rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Submit Another Request
        </button>
      </div>
    );
  }

  const isSubmitting = status === 'submitting';
  const describedBy = (name: FieldName) => (errors[name] ? `${fieldId(name)}-error` : undefined);
  return (
    <div>
      <h2 className="text-2xl font-bold text-slate-900">{heading}</h2>
      <RequiredFieldsNote className="mt-1" />
      <FormErrorAlert message={formError} />
      <form ref={formRef} noValidate onSubmit={onSubmit} onFocus={() => void loadValidation().catch(() => undefined)} className="mt-4">
        <fieldset disabled={isSubmitting} className="grid gap-4 sm:grid-cols-2">
          <legend className="sr-only">{heading}</legend>
          <PersonFields fieldId={fieldId} errors={errors} clearError={clearError} nameLabel="Full Name" />
          <FormField id={fieldId('serviceType')} label="Service Type" isRequired error={errors.serviceType}>
            <select id={fieldId('serviceType')} name="serviceType" required defaultValue="" aria-invalid={errors.serviceType ? true : undefined} aria-describedby={describedBy('serviceType')} onChange={() => clearError('serviceType')} className={controlClass}>
              <option value="" disabled>
                Select a service
              </option>
              {estimateServiceTypes.map((type) => (
                <option key={type} value={type}>
                  {estimateServiceTypeLabels[type]}
                </option>
              ))}
            </select>
          </FormField>
          <div className="sm:col-span-2">
            <ContactField name="address" id={fieldId('address')} label="Service Address" placeholder="Street, city, ZIP" error={errors.address} onChange={() => clearError('address')} />
          </div>
          <FormField id={fieldId('preferredDate')} label="Preferred Date" error={errors.preferredDate}>
            <input id={fieldId('preferredDate')} name="preferredDate" type="date" min={today} aria-invalid={errors.preferredDate ? true : undefined} aria-describedby={describedBy('preferredDate')} onChange={() => clearError('preferredDate')} className={controlClass} />
          </FormField>
          <FormField id={fieldId('preferredTime')} label="Preferred Time" error={errors.preferredTime}>
            <select id={fieldId('preferredTime')} name="preferredTime" defaultValue="" onChange={() => clearError('preferredTime')} className={controlClass}>
              <option value="">No preference</option>
              {estimateTimePreferences.map((time) => (
                <option key={time} value={time}>
                  {estimateTimePreferenceLabels[time]}
                </option>
              ))}
            </select>
          </FormField>
          <div className="sm:col-span-2">
            <FormField id={fieldId('description')} label="Tell us about your project" error={errors.description}>
              <textarea id={fieldId('description')} name="description" rows={4} aria-invalid={errors.description ? true : undefined} aria-describedby={describedBy('description')} onChange={() => clearError('description')} className={controlClass} />
            </FormField>
          </div>
          <div className="flex items-start gap-3 sm:col-span-2">
            <input id={fieldId('smsConsent')} name="smsConsent" type="checkbox" className="mt-1 size-4 shrink-0 rounded border-slate-400 text-accent-700" />
            <label htmlFor={fieldId('smsConsent')} className="text-sm text-slate-700">
              {smsConsentWording(company.name)}
            </label>
          </div>
          <HoneypotField />
          <div className="sm:col-span-2">
            <button type="submit" className="w-full rounded-md bg-accent-700 px-6 py-3 text-lg font-semibold text-white hover:bg-accent-800 disabled:opacity-70 sm:w-auto">
              {isSubmitting ? 'Submitting...' : submitLabel}
            </button>
          </div>
        </fieldset>
      </form>
    </div>
  );
}
