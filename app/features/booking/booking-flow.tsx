import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { OnlineBookingBooked, OpenWindowsResponse, OpenWindowText } from '#shared/booking.ts';
import { smsConsentWording } from '#shared/contact.ts';
import { telHref } from '#shared/company-profile.ts';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError, apiFetch, newIdempotencyKey } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';

/** What the visitor can ask for; emergency is never booked online (issue 21): it says to call. */
const serviceChoices = [
  { value: 'repair', label: 'Repair: something is not working right' },
  { value: 'maintenance', label: 'Maintenance: a seasonal tune-up' },
  { value: 'inspection', label: 'Inspection: a check of the system' },
  { value: 'installation', label: 'A new system: installation or replacement' },
  { value: 'ductwork', label: 'Ductwork' },
  { value: 'emergency', label: 'Emergency: no heat or cooling now, water leaking, a burning smell' },
] as const;
type ServiceChoice = (typeof serviceChoices)[number]['value'];

type ContactField = 'name' | 'phone' | 'email' | 'address' | 'description' | 'smsConsent';
type FieldErrors = Partial<Record<ContactField | 'serviceType' | 'zip' | 'window', string>>;

/** The site's orange call to action (as on the other public pages). */
const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-accent-700 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-accent-800 disabled:opacity-70';

const loadValidation = () => import('./booking-validation.ts');
type Validation = Awaited<ReturnType<typeof loadValidation>>;

/** Days shown at first; the rest behind "Show later days". */
const firstDays = 5;

const windowKey = (window: OpenWindowText) => `${window.date} ${window.start}-${window.end}`;

/**
 * The booking page's flow (issue 21): service type → ZIP code → the open arrival windows by day →
 * contact details → confirm. The windows are the server's (GET /api/public/booking/windows); the
 * choice is booked with POST /api/public/booking, which checks it again under a lock. A window
 * taken meanwhile shows the open ones now with a message, never an error page. Emergencies and
 * services booked by phone point to the phone.
 */
export function BookingFlow() {
  const idPrefix = useId();
  const id = (name: string) => `${idPrefix}-${name}`;
  const [serviceType, setServiceType] = useState<ServiceChoice | ''>('');
  const [answer, setAnswer] = useState<{ query: { serviceType: string; zip: string }; response: OpenWindowsResponse }>();
  const [validation, setValidation] = useState<Validation>();
  const [chosen, setChosen] = useState<string>('');
  const [showAllDays, setShowAllDays] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [status, setStatus] = useState<'idle' | 'loading' | 'booking'>('idle');
  const [booked, setBooked] = useState<OnlineBookingBooked>();
  const idempotencyKey = useRef<string | undefined>(undefined);
  const windowsHeadingRef = useRef<HTMLHeadingElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const bookedHeadingRef = useRef<HTMLHeadingElement>(null);
  const firstFormRef = useRef<HTMLFormElement>(null);
  // A service chosen before the page came alive (the page is prerendered): taken up on hydration.
  useEffect(() => {
    const checked = firstFormRef.current?.querySelector<HTMLInputElement>('input[name="serviceType"]:checked');
    if (checked) setServiceType(checked.value as ServiceChoice);
  }, []);
  /** Where focus goes once the next render is on screen: the new step's heading, or the notice. */
  const focusNext = useRef<'windows' | 'notice' | 'booked' | undefined>(undefined);

  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = undefined;
    ({ windows: windowsHeadingRef, notice: noticeRef, booked: bookedHeadingRef })[target].current?.focus();
  });

  async function findTimes(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    setNotice(undefined);
    // Read from the form, not from state: what was chosen before the page came alive counts too.
    const form = new FormData(event.currentTarget);
    const serviceType = String(form.get('serviceType') ?? '') as ServiceChoice | '';
    const zip = String(form.get('zip') ?? '').trim();
    setServiceType(serviceType);
    const found: FieldErrors = {};
    if (!serviceType) found.serviceType = 'Choose the service you need.';
    if (serviceType !== 'emergency' && !/^\d{5}$/.test(zip)) found.zip = 'Enter the 5-digit ZIP code of the address we visit.';
    setErrors(found);
    if (found.serviceType) return document.getElementById(id('serviceType-repair'))?.focus();
    if (found.zip) return document.getElementById(id('zip'))?.focus();
    if (serviceType === 'emergency') return;
    setStatus('loading');
    try {
      const [loaded, response] = await Promise.all([
        validation ?? loadValidation(),
        apiFetch<OpenWindowsResponse>(`/api/public/booking/windows?serviceType=${encodeURIComponent(serviceType)}&zip=${encodeURIComponent(zip)}`),
      ]);
      setValidation(loaded);
      setAnswer({ query: { serviceType, zip }, response: loaded.openWindowsResponseSchema.parse(response) });
      setChosen('');
      setShowAllDays(false);
      focusNext.current = 'windows';
    } catch (error) {
      setFormError(error instanceof ApiError && error.code !== 'NETWORK' ? error.message : `We could not load the open times. Please try again or call us at ${company.phone}.`);
    } finally {
      setStatus('idle');
    }
  }

  async function book(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'booking' || !answer || answer.response.status !== 'open' || !validation) return;
    setFormError(undefined);
    const window = answer.response.windows.find((candidate) => windowKey(candidate) === chosen);
    const values = Object.fromEntries(new FormData(event.currentTarget).entries());
    const body = { ...values, ...answer.query, date: window?.date ?? '', start: window?.start ?? '', end: window?.end ?? '' };
    const parsed = validation.onlineBookingSchema.safeParse(body);
    const found: FieldErrors = {};
    if (!window) found.window = 'Choose one of the open arrival times above.';
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const name = String(issue.path[0]);
      const field = (['date', 'start', 'end'].includes(name) ? 'window' : name) as keyof FieldErrors;
      found[field] ??= issue.message;
    }
    setErrors(found);
    const firstInvalid = (['window', 'name', 'phone', 'email', 'address', 'description'] as const).find((name) => found[name]);
    if (firstInvalid) {
      document.getElementById(firstInvalid === 'window' ? id('windows') : id(firstInvalid))?.focus();
      return;
    }
    idempotencyKey.current ??= newIdempotencyKey();
    setStatus('booking');
    try {
      const result = await apiFetch<OnlineBookingBooked>('/api/public/booking', { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey.current } });
      idempotencyKey.current = undefined;
      setBooked(result);
      focusNext.current = 'booked';
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // Taken meanwhile: the open windows now, and a new key for the next choice.
        const taken = validation.windowTakenDetailsSchema.safeParse(error.details);
        idempotencyKey.current = undefined;
        setAnswer({ ...answer, response: { status: 'open', windows: taken.success ? taken.data.windows : [] } });
        setChosen('');
        setNotice(error.message);
        focusNext.current = 'notice';
      } else {
        setFormError(error instanceof ApiError && error.code !== 'NETWORK' ? error.message : `The connection to our server failed. Please try again or call us at ${company.phone}.`);
      }
    } finally {
      setStatus('idle');
    }
  }

  if (booked) {
    return (
      <div className="rounded-lg border border-green-200 bg-green-50 p-6 md:p-8" role="status">
        <h2 ref={bookedHeadingRef} tabIndex={-1} className="text-2xl font-bold text-green-900 focus:outline-none">
          You are booked
        </h2>
        <p className="mt-3 text-green-900">{booked.message}</p>
        <p className="mt-2 text-green-900">
          Your reference: <strong>{booked.workOrderNumber}</strong>
        </p>
        {booked.visitPath ? (
          <p className="mt-4">
            <a className="font-semibold text-brand-800 underline" href={booked.visitPath}>
              See, move or cancel your visit
            </a>
            <span className="block text-sm text-slate-700">The same link is in your confirmation e-mail.</span>
          </p>
        ) : null}
      </div>
    );
  }

  const windows = answer?.response.status === 'open' ? answer.response.windows : [];
  const days = [...new Set(windows.map((window) => window.date))];
  const shownDays = showAllDays ? days : days.slice(0, firstDays);

  return (
    <div className="space-y-8">
      <form ref={firstFormRef} noValidate onSubmit={findTimes} aria-labelledby={id('step-1')} className="space-y-5">
        <h2 id={id('step-1')} className="text-2xl font-bold text-slate-900">
          Book a visit online
        </h2>
        <fieldset aria-describedby={errors.serviceType ? id('serviceType-error') : undefined}>
          <legend className="text-sm font-medium text-slate-800">What do you need?</legend>
          <div className="mt-2 space-y-2">
            {serviceChoices.map((choice) => (
              <label key={choice.value} className="flex items-start gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                <input
                  id={id(`serviceType-${choice.value}`)}
                  type="radio"
                  name="serviceType"
                  value={choice.value}
                  onChange={() => {
                    setServiceType(choice.value);
                    setAnswer(undefined);
                    setErrors((current) => ({ ...current, serviceType: undefined }));
                  }}
                  className="mt-1 h-4 w-4"
                />
                <span>{choice.label}</span>
              </label>
            ))}
          </div>
          {errors.serviceType ? (
            <p id={id('serviceType-error')} className="mt-1 text-sm text-red-700">
              {errors.serviceType}
            </p>
          ) : null}
        </fieldset>
        {serviceType === 'emergency' ? (
          <div className="rounded-lg bg-red-50 p-5" role="alert">
            <p className="font-semibold text-red-900">Emergencies are not booked online: call our 24/7 line now and we will send someone.</p>
            <a href={telHref(company.emergencyPhone)} className="mt-2 inline-block text-2xl font-bold text-red-800 underline-offset-4 hover:underline">
              {company.emergencyPhone}
            </a>
            <p className="mt-2 text-sm text-slate-800">If you smell gas, leave the house first and call your gas company or 911.</p>
          </div>
        ) : (
          <>
            <FormField id={id('zip')} label="ZIP code of the visit" isRequired error={errors.zip} className="max-w-xs">
              <input
                id={id('zip')}
                name="zip"
                inputMode="numeric"
                autoComplete="postal-code"
                maxLength={5}
                required
                onChange={() => setAnswer(undefined)}
                className={controlClass}
                {...errorAttributes(id('zip'), errors.zip)}
              />
            </FormField>
            <button type="submit" className={primaryButton} disabled={status === 'loading'}>
              {status === 'loading' ? 'Finding open times…' : 'See open times'}
            </button>
          </>
        )}
      </form>

      {formError ? (
        <p role="alert" className="rounded-md bg-red-50 p-4 text-red-800">
          {formError}
        </p>
      ) : null}

      {answer ? (
        <section aria-labelledby={id('step-2')} className="space-y-4">
          <h2 id={id('step-2')} ref={windowsHeadingRef} tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
            {answer.response.status === 'open' ? 'Choose an arrival time' : 'Book by phone'}
          </h2>
          {answer.response.status === 'outside_area' ? (
            <p className="rounded-md bg-amber-50 p-4 text-slate-900">
              We do not book visits at ZIP code {answer.query.zip} online. Call us at{' '}
              <a className="font-semibold text-brand-800 underline" href={telHref(company.phone)}>
                {company.phone}
              </a>
              : we may still be able to help.
            </p>
          ) : null}
          {answer.response.status === 'not_online' ? (
            <p className="rounded-md bg-amber-50 p-4 text-slate-900">
              This service is booked by phone, so we can plan it with you: call{' '}
              <a className="font-semibold text-brand-800 underline" href={telHref(company.phone)}>
                {company.phone}
              </a>{' '}
              or{' '}
              <a className="font-semibold text-brand-800 underline" href="/estimate">
                send us a request
              </a>{' '}
              and we will call you back.
            </p>
          ) : null}
          {answer.response.status === 'open' ? (
            <form noValidate onSubmit={book} className="space-y-6" aria-label="Your visit">
              {notice ? (
                <div ref={noticeRef} tabIndex={-1} role="alert" className="rounded-md bg-amber-50 p-4 font-semibold text-amber-900 focus:outline-none">
                  {notice}
                </div>
              ) : null}
              {windows.length === 0 ? (
                <p className="rounded-md bg-amber-50 p-4 text-slate-900">
                  No times are open online in the coming days. Call us at{' '}
                  <a className="font-semibold text-brand-800 underline" href={telHref(company.phone)}>
                    {company.phone}
                  </a>{' '}
                  and we will find one.
                </p>
              ) : (
                <fieldset id={id('windows')} tabIndex={-1} aria-describedby={errors.window ? id('window-error') : undefined} className="focus:outline-none">
                  <legend className="text-sm text-slate-700">Arrival windows in our local time. The technician arrives within the window you choose.</legend>
                  <div className="mt-3 space-y-4">
                    {shownDays.map((day) => (
                      <fieldset key={day}>
                        <legend className="font-semibold text-slate-900">{validation?.formatAppointmentDate(day)}</legend>
                        <div className="mt-2 flex flex-wrap gap-2">
                          {windows
                            .filter((window) => window.date === day)
                            .map((window) => (
                              <label key={windowKey(window)} className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                                <input
                                  type="radio"
                                  name="window"
                                  value={windowKey(window)}
                                  checked={chosen === windowKey(window)}
                                  onChange={() => {
                                    setChosen(windowKey(window));
                                    setErrors((current) => ({ ...current, window: undefined }));
                                  }}
                                  className="h-4 w-4"
                                />
                                {validation?.formatAppointmentWindow(window.start, window.end)}
                              </label>
                            ))}
                        </div>
                      </fieldset>
                    ))}
                  </div>
                  {days.length > shownDays.length ? (
                    <button type="button" className="mt-3 font-semibold text-brand-800 underline" onClick={() => setShowAllDays(true)}>
                      Show later days
                    </button>
                  ) : null}
                  {errors.window ? (
                    <p id={id('window-error')} className="mt-1 text-sm text-red-700">
                      {errors.window}
                    </p>
                  ) : null}
                </fieldset>
              )}
              {windows.length > 0 ? (
                <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
                  <h2 className="text-2xl font-bold text-slate-900 md:col-span-2">Your details</h2>
                  <FormField id={id('name')} label="Name" isRequired error={errors.name}>
                    <input id={id('name')} name="name" autoComplete="name" required className={controlClass} {...errorAttributes(id('name'), errors.name)} />
                  </FormField>
                  <FormField id={id('phone')} label="Phone" isRequired error={errors.phone}>
                    <input id={id('phone')} name="phone" type="tel" autoComplete="tel" required className={controlClass} {...errorAttributes(id('phone'), errors.phone)} />
                  </FormField>
                  <FormField id={id('email')} label="E-mail" isRequired hint="(your confirmation goes here)" error={errors.email}>
                    <input id={id('email')} name="email" type="email" autoComplete="email" required className={controlClass} {...errorAttributes(id('email'), errors.email)} />
                  </FormField>
                  <FormField id={id('address')} label="Street address of the visit" isRequired error={errors.address}>
                    <input id={id('address')} name="address" autoComplete="street-address" required className={controlClass} {...errorAttributes(id('address'), errors.address)} />
                  </FormField>
                  <FormField id={id('description')} label="What is going on?" error={errors.description} className="md:col-span-2">
                    <textarea id={id('description')} name="description" rows={3} className={controlClass} {...errorAttributes(id('description'), errors.description)} />
                  </FormField>
                  <label className="flex items-start gap-3 text-sm text-slate-700 md:col-span-2">
                    <input type="checkbox" name="smsConsent" className="mt-1 h-4 w-4" />
                    <span>{smsConsentWording(company.name)}</span>
                  </label>
                  <div className="md:col-span-2">
                    <button type="submit" className={primaryButton} disabled={status === 'booking'}>
                      {status === 'booking' ? 'Booking…' : 'Book this time'}
                    </button>
                  </div>
                </div>
              ) : null}
            </form>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
