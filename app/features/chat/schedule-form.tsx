import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { OpenWindowText } from '#shared/booking.ts';
import { formatAppointmentDate, formatAppointmentWindow } from '#shared/messaging.ts';
import { chatServiceTypes } from '#shared/chat.ts';
import { smsConsentWording } from '#shared/contact.ts';
import { todayIn } from '#shared/dates.ts';
import { FormField } from '#client/components/ui/form-field.tsx';
import { company } from '#client/lib/company.ts';
import { cancelBookingForm, fetchChatWindows, setBookingValue, submitBooking, zipOfAddress } from './chat-actions.ts';
import { useChatState, type BookingField } from './chat-store.ts';

const serviceTypeLabels: Record<(typeof chatServiceTypes)[number], string> = {
  repair: 'Repair',
  maintenance: 'Maintenance',
  installation: 'Installation',
  inspection: 'Inspection',
};

// text-base below `sm`: phones zoom into inputs with smaller text.
const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600 aria-[invalid=true]:border-red-600 sm:text-sm';


/**
 * The chat's inline Schedule Service form (spec 000 sections 4 and 5): validated with the shared
 * schema (exact spec messages under the fields, each cleared when its field is edited), disabled
 * with 'Creating...' while sending, Cancel closes it. Its values live in the chat store, so they
 * survive closing the window or moving to another page.
 */
export function ScheduleForm({ shouldFocusOnMount }: { shouldFocusOnMount: boolean }) {
  const { booking } = useChatState();
  const idPrefix = useId();
  const fieldId = (field: BookingField) => `${idPrefix}-${field}`;
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const today = todayIn(company.timeZone);
  const { values, errors, isSubmitting } = booking;

  useEffect(() => {
    if (shouldFocusOnMount) firstFieldRef.current?.focus({ preventScroll: true });
  }, [shouldFocusOnMount]);

  // The open arrival windows (issue 21) once the service type and an address with a ZIP code we book
  // online are known; again after a window was taken meanwhile (the form's error changes).
  const zip = zipOfAddress(values.address);
  const [windows, setWindows] = useState<{ key: string; list: OpenWindowText[] }>();
  const windowsKey = values.serviceType && zip ? `${values.serviceType}|${zip}|${booking.formError ?? ''}` : '';
  useEffect(() => {
    if (!windowsKey) return;
    const [serviceType, forZip] = windowsKey.split('|') as [string, string];
    const controller = new AbortController();
    fetchChatWindows(serviceType, forZip, controller.signal)
      .then((list) => setWindows({ key: windowsKey, list }))
      .catch(() => setWindows({ key: windowsKey, list: [] }));
    return () => controller.abort();
  }, [windowsKey]);
  const offered = windowsKey && windows?.key === windowsKey ? windows.list : [];

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await submitBooking();
    if (result?.firstInvalid) document.getElementById(fieldId(result.firstInvalid))?.focus();
  }

  const fieldProps = (field: BookingField) => ({
    id: fieldId(field),
    name: field,
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${fieldId(field)}-error` : undefined,
    className: inputClass,
  });
  const onEdit = (field: BookingField) => (event: { currentTarget: { value: string } }) => setBookingValue(field, event.currentTarget.value);

  return (
    <section aria-labelledby={`${idPrefix}-title`} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start gap-3">
        <span aria-hidden="true" className="grid size-9 shrink-0 place-items-center rounded-full bg-accent-700/10 text-accent-700">
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" className="size-5">
            <rect x="3" y="4" width="18" height="18" rx="2" />
            <path d="M16 2v4M8 2v4M3 10h18M9 16l2 2 4-4" />
          </svg>
        </span>
        <div>
          <h3 id={`${idPrefix}-title`} className="text-base font-semibold text-slate-900">
            Schedule Service
          </h3>
          <p className="mt-0.5 text-sm text-slate-600">Tell us where and what&apos;s wrong. We&apos;ll call to confirm a time.</p>
        </div>
      </div>
      {booking.formError ? (
        <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-2.5 text-sm text-red-800">
          {booking.formError}
        </p>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="mt-4" aria-labelledby={`${idPrefix}-title`}>
        <fieldset disabled={isSubmitting} className="grid grid-cols-2 gap-3">
          <legend className="sr-only">Your details and the service you need</legend>
          <div className="col-span-2">
            <FormField id={fieldId('name')} label="Name" isRequired error={errors.name}>
              <input ref={firstFieldRef} {...fieldProps('name')} onChange={onEdit('name')} autoComplete="name" required />
            </FormField>
          </div>
          <div className="col-span-2">
            <FormField id={fieldId('phone')} label="Phone" isRequired error={errors.phone}>
              <input {...fieldProps('phone')} onChange={onEdit('phone')} type="tel" inputMode="tel" autoComplete="tel" placeholder="(843) 555-0123" required />
            </FormField>
          </div>
          <div className="col-span-2">
            <FormField id={fieldId('email')} label="Email" hint="(optional)" error={errors.email}>
              <input {...fieldProps('email')} onChange={onEdit('email')} type="email" autoComplete="email" />
            </FormField>
          </div>
          <div className="col-span-2">
            <FormField id={fieldId('address')} label="Service Address" isRequired error={errors.address}>
              <input {...fieldProps('address')} onChange={onEdit('address')} autoComplete="street-address" placeholder="Street, city, ZIP" required />
            </FormField>
          </div>
          <div className="col-span-2 min-[360px]:col-span-1">
            <FormField id={fieldId('serviceType')} label="Service Type" isRequired error={errors.serviceType}>
              <select {...fieldProps('serviceType')} onChange={onEdit('serviceType')} required>
                <option value="" disabled>
                  Select...
                </option>
                {chatServiceTypes.map((type) => (
                  <option key={type} value={type}>
                    {serviceTypeLabels[type]}
                  </option>
                ))}
              </select>
            </FormField>
          </div>
          <div className="col-span-2 min-[360px]:col-span-1">
            <FormField id={fieldId('preferredDate')} label="Preferred Date" error={errors.preferredDate}>
              <input {...fieldProps('preferredDate')} onChange={onEdit('preferredDate')} type="date" min={today} />
            </FormField>
          </div>
          {offered.length > 0 ? (
            <div className="col-span-2">
              <FormField id={fieldId('window')} label="Arrival time" hint="(book a real time now, or leave it to us)" error={errors.window}>
                <select {...fieldProps('window')} onChange={onEdit('window')}>
                  <option value="">No time now: call me to confirm one</option>
                  {offered.map((window) => (
                    <option key={`${window.date} ${window.start}-${window.end}`} value={`${window.date} ${window.start}-${window.end}`}>
                      {formatAppointmentDate(window.date)}, {formatAppointmentWindow(window.start, window.end)}
                    </option>
                  ))}
                </select>
              </FormField>
            </div>
          ) : null}
          <div className="col-span-2">
            <FormField id={fieldId('description')} label="Describe the problem" hint="(optional)" error={errors.description}>
              <textarea {...fieldProps('description')} onChange={onEdit('description')} rows={3} maxLength={2000} className={`${inputClass} resize-none`} />
            </FormField>
          </div>
          <div className="col-span-2 flex items-start gap-2">
            <input
              id={fieldId('smsConsent')}
              name="smsConsent"
              type="checkbox"
              checked={values.smsConsent === 'true'}
              onChange={(event) => setBookingValue('smsConsent', event.currentTarget.checked ? 'true' : '')}
              className="mt-0.5 size-4 shrink-0 rounded border-slate-400 text-accent-700"
            />
            <label htmlFor={fieldId('smsConsent')} className="text-xs leading-snug text-slate-700">
              {smsConsentWording(company.name)}
            </label>
          </div>
          <div className="col-span-2 mt-1 flex flex-wrap justify-end gap-2">
            <button
              type="button"
              onClick={cancelBookingForm}
              className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60"
            >
              Cancel
            </button>
            <button
              type="submit"
              className="inline-flex items-center gap-2 rounded-lg bg-accent-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-accent-800 disabled:cursor-wait disabled:opacity-80"
            >
              {isSubmitting ? (
                <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4 motion-safe:animate-spin" fill="none">
                  <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
                  <path d="M21 12a9 9 0 00-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
                </svg>
              ) : null}
              {isSubmitting ? 'Creating...' : 'Create Service Request'}
            </button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
