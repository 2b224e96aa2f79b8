import '#client/lib/zod-client.ts';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { z } from 'zod';
import {
  bookingSettingsSchema,
  defaultBookingSettings,
  technicianAvailabilitySchema,
  timeOffBodySchema,
  weekdayNames,
  type BookingSettingsInput,
  type BookingSettingsPage,
  type TechnicianBooking,
  type TimeOff,
  type TimeRangeText,
} from '#shared/booking.ts';
import { workOrderServiceTypes, type WorkOrderServiceType } from '#shared/enums.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { FieldErrorAnnouncement, useFocusField } from '#client/features/account/index.ts';
import { formatDay } from '#client/features/invoices/index.ts';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { workOrderServiceTypeLabels } from '#client/lib/work-order-labels.ts';
import { useAddTimeOff, useBookingSettings, useRemoveTimeOff, useSaveBookingSettings, useSaveTechnicianAvailability } from './booking-api.ts';

/** Problems by the field's path ("arrivalWindows.0.end", "serviceTypes.repair.durationMinutes"), the first one per field. */
type Problems = Record<string, string | undefined>;

/**
 * The shared contract's problems (checked before sending) or the server's (a 400's details), by the
 * name of the control they belong to: a ZIP code's problem belongs to the ZIP code list.
 */
function problemsFrom(issues: readonly { path: string; message: string }[]): Problems {
  const problems: Problems = {};
  for (const issue of issues) {
    const path = issue.path.startsWith('serviceAreaZips') ? 'serviceAreaZips' : issue.path;
    problems[path] ??= issue.message;
  }
  return problems;
}

const zodProblems = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  problemsFrom(issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })));

function serverProblems(error: unknown): Problems {
  return error instanceof ApiError && Array.isArray(error.details) ? problemsFrom(error.details as { path: string; message: string }[]) : {};
}

/** The first problem in the form's order (the contract checks fields in the order they are shown). */
const firstProblem = (problems: Problems) => Object.entries(problems).find(([, message]) => message);

/**
 * A form's problems: the input is checked with the shared contract before it is sent, and a refusal's
 * details are shown the same way, each under its control; the first one is announced and its
 * control takes the focus (a range list's problem, such as an overlap, focuses its first start time).
 */
function useProblems(formRef: RefObject<HTMLFormElement | null>) {
  const focusField = useFocusField(formRef);
  const [problems, setProblems] = useState<Problems>({});
  const [announced, setAnnounced] = useState<string>();
  function show(found: Problems) {
    setProblems(found);
    const [path, message] = firstProblem(found) ?? [];
    setAnnounced(message);
    if (path) focusField(/^(arrivalWindows|workingHours\.\d)$/.test(path) ? `${path}.0.start` : path);
  }
  return {
    problems,
    /** True when the contract accepts the input; else its problems are shown. */
    accepts(schema: z.ZodType, input: unknown): boolean {
      const checked = schema.safeParse(input);
      show(checked.success ? {} : zodProblems(checked.error.issues));
      return checked.success;
    },
    showRefusal: (error: unknown) => show(serverProblems(error)),
    /** A changed control's problems go (rows are kept by position: a removed row's problem must not move to the next). */
    dismiss: (prefix: string) =>
      setProblems((current) => (Object.keys(current).some((path) => path.startsWith(prefix)) ? Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith(prefix))) : current)),
    /** The first problem's message, for FieldErrorAnnouncement: changed only by a submit. */
    announced,
  };
}

/** A number typed in a box: empty is no number (the contract says what to enter), not 0. */
const numberFrom = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * Rows of start and end times (arrival windows, a day's working hours), each with its remove
 * button, and an add button. Each input is named by its path, so a problem finds its control.
 */
function TimeRanges({
  path,
  rowName,
  ranges,
  onChange,
  problems,
  max,
  addLabel,
  emptyText,
}: {
  path: string;
  rowName: (index: number) => string;
  ranges: TimeRangeText[];
  onChange: (ranges: TimeRangeText[]) => void;
  problems: Problems;
  max: number;
  addLabel: string;
  emptyText: string;
}) {
  const id = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // After "Add", the new row's start time takes the focus once it is rendered.
  const focusNewRow = useRef(false);
  useEffect(() => {
    if (!focusNewRow.current) return;
    focusNewRow.current = false;
    listRef.current?.querySelector<HTMLInputElement>('li:last-child input')?.focus();
  }, [ranges.length]);

  const change = (index: number, part: keyof TimeRangeText, value: string) => onChange(ranges.map((range, at) => (at === index ? { ...range, [part]: value } : range)));
  const groupProblem = problems[path];
  return (
    <div className="space-y-2">
      {ranges.length === 0 ? <p className="text-sm text-slate-600">{emptyText}</p> : null}
      <ul ref={listRef} className="space-y-2">
        {ranges.map((range, index) => (
          <li key={index} className="flex flex-wrap items-start gap-2">
            {(['start', 'end'] as const).map((part) => {
              const inputId = `${id}-${index}-${part}`;
              const problem = problems[`${path}.${index}.${part}`];
              return (
                <div key={part} className="w-36">
                  <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
                    <span className="sr-only">{rowName(index)} </span>
                    {part === 'start' ? 'Start' : 'End'}
                  </label>
                  <input
                    id={inputId}
                    name={`${path}.${index}.${part}`}
                    type="time"
                    value={range[part]}
                    onChange={(event) => change(index, part, event.target.value)}
                    className={controlClass}
                    {...errorAttributes(inputId, problem)}
                  />
                  {problem ? (
                    <p id={`${inputId}-error`} className="mt-1 text-sm text-red-700">
                      {problem}
                    </p>
                  ) : null}
                </div>
              );
            })}
            <Button
              variant="ghost"
              size="sm"
              className="mt-7"
              aria-label={`Remove ${rowName(index)}`}
              onClick={() => {
                onChange(ranges.filter((_, at) => at !== index));
                addRef.current?.focus();
              }}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {groupProblem ? <p className="text-sm text-red-700">{groupProblem}</p> : null}
      <Button
        ref={addRef}
        variant="secondary"
        size="sm"
        disabled={ranges.length >= max}
        onClick={() => {
          const last = ranges.at(-1);
          onChange([...ranges, last ? { start: last.end, end: '' } : { start: '08:00', end: '17:00' }]);
          focusNewRow.current = true;
        }}
      >
        {addLabel}
      </Button>
    </div>
  );
}

type ServiceTypeForm = { durationMinutes: string; bookableOnline: boolean; leadTimeHours: string; horizonDays: string };
type RulesForm = {
  onlineBookingEnabled: boolean;
  arrivalWindows: TimeRangeText[];
  travelBufferMinutes: string;
  serviceAreaZips: string;
  cancelCutoffHours: string;
  serviceTypes: Record<WorkOrderServiceType, ServiceTypeForm>;
};

const byServiceType = <Value,>(valueOf: (type: WorkOrderServiceType) => Value) =>
  Object.fromEntries(workOrderServiceTypes.map((type) => [type, valueOf(type)])) as Record<WorkOrderServiceType, Value>;

function rulesFormOf(settings: BookingSettingsPage['settings']): RulesForm {
  return {
    ...settings,
    travelBufferMinutes: String(settings.travelBufferMinutes),
    serviceAreaZips: settings.serviceAreaZips.join('\n'),
    cancelCutoffHours: String(settings.cancelCutoffHours),
    serviceTypes: byServiceType((type) => {
      const { durationMinutes, bookableOnline, leadTimeHours, horizonDays } = settings.serviceTypes[type];
      return { durationMinutes: String(durationMinutes), bookableOnline, leadTimeHours: String(leadTimeHours), horizonDays: String(horizonDays) };
    }),
  };
}

function rulesInputOf(form: RulesForm): BookingSettingsInput {
  return {
    ...form,
    travelBufferMinutes: numberFrom(form.travelBufferMinutes),
    serviceAreaZips: form.serviceAreaZips.split(/[\s,;]+/).filter(Boolean),
    cancelCutoffHours: numberFrom(form.cancelCutoffHours),
    serviceTypes: byServiceType((type) => {
      const { durationMinutes, bookableOnline, leadTimeHours, horizonDays } = form.serviceTypes[type];
      return { durationMinutes: numberFrom(durationMinutes), bookableOnline, leadTimeHours: numberFrom(leadTimeHours), horizonDays: numberFrom(horizonDays) };
    }),
  };
}

/** A labelled text input named by its path, with its problem under it. */
function PathField({ path, label, hint, problems, value, onChange, className }: { path: string; label: string; hint?: string; problems: Problems; value: string; onChange: (value: string) => void; className?: string }) {
  const id = useId();
  return (
    <FormField id={id} label={label} hint={hint} error={problems[path]} className={className}>
      <input id={id} name={path} inputMode="numeric" value={value} onChange={(event) => onChange(event.target.value)} className={controlClass} {...errorAttributes(id, problems[path])} />
    </FormField>
  );
}

function BookingRulesForm({ page }: { page: BookingSettingsPage }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { problems, accepts, showRefusal, dismiss, announced } = useProblems(formRef);
  const save = useSaveBookingSettings();
  const [form, setForm] = useState(() => rulesFormOf(page.settings));
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState(false);

  const set = <Key extends keyof RulesForm>(key: Key, value: RulesForm[Key]) => {
    setForm((current) => ({ ...current, [key]: value }));
    dismiss(key);
  };
  const setType = <Key extends keyof ServiceTypeForm>(type: WorkOrderServiceType, key: Key, value: ServiceTypeForm[Key]) => {
    setForm((current) => ({ ...current, serviceTypes: { ...current.serviceTypes, [type]: { ...current.serviceTypes[type], [key]: value } } }));
    dismiss(`serviceTypes.${type}.${key}`);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    setFormError(undefined);
    const input = rulesInputOf(form);
    if (!accepts(bookingSettingsSchema, input)) return;
    try {
      const answer = await save.mutateAsync(input);
      // As stored: windows in order, each ZIP code once.
      setForm(rulesFormOf(answer.settings));
      setSaved(true);
    } catch (error) {
      showRefusal(error);
      setFormError(`Not saved: ${messageOf(error)}`);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className={cardClassName('space-y-6 p-4 sm:p-6')}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          Booking rules
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {page.updatedAt ? `Last saved ${new Date(page.updatedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}.` : 'The defaults are in force until you save.'}
        </p>
      </div>
      <label className="flex items-center gap-2 text-slate-800">
        <input type="checkbox" name="onlineBookingEnabled" checked={form.onlineBookingEnabled} onChange={(event) => set('onlineBookingEnabled', event.target.checked)} className="h-5 w-5" />
        Customers can book visits online
      </label>

      <fieldset className="space-y-2">
        <legend className="font-semibold text-slate-900">Arrival windows</legend>
        <p className="text-sm text-slate-600">The times customers choose from; the technician arrives within the window.</p>
        <TimeRanges
          path="arrivalWindows"
          rowName={(index) => `Window ${index + 1}`}
          ranges={form.arrivalWindows}
          onChange={(ranges) => set('arrivalWindows', ranges)}
          problems={problems}
          max={8}
          addLabel="Add a window"
          emptyText="No arrival windows yet."
        />
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <PathField path="travelBufferMinutes" label="Travel buffer (minutes)" hint="(between visits)" problems={problems} value={form.travelBufferMinutes} onChange={(value) => set('travelBufferMinutes', value)} />
        <PathField path="cancelCutoffHours" label="Cancel cut-off (hours)" hint="(before the visit)" problems={problems} value={form.cancelCutoffHours} onChange={(value) => set('cancelCutoffHours', value)} />
        <FormField id={`${id}-zips`} label="Service area ZIP codes" hint="(one per line or separated by commas)" error={problems.serviceAreaZips} className="sm:col-span-2">
          <textarea
            id={`${id}-zips`}
            name="serviceAreaZips"
            rows={4}
            value={form.serviceAreaZips}
            onChange={(event) => set('serviceAreaZips', event.target.value)}
            className={controlClass}
            {...errorAttributes(`${id}-zips`, problems.serviceAreaZips)}
          />
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <Button variant="secondary" size="sm" onClick={() => set('serviceAreaZips', defaultBookingSettings.serviceAreaZips.join('\n'))}>
              Fill from the service areas
            </Button>
            <span className="text-sm text-slate-600">The site’s towns: {serviceAreas.map((area) => area.name).join(', ')}.</span>
          </div>
        </FormField>
      </div>

      <div className="space-y-3">
        <h3 className="font-semibold text-slate-900">Service types</h3>
        {workOrderServiceTypes.map((type) => {
          const values = form.serviceTypes[type];
          const path = `serviceTypes.${type}`;
          return (
            <fieldset key={type} className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-4">
              <legend className="px-1 font-medium text-slate-900">{workOrderServiceTypeLabels[type]}</legend>
              <PathField path={`${path}.durationMinutes`} label="Visit length (minutes)" problems={problems} value={values.durationMinutes} onChange={(value) => setType(type, 'durationMinutes', value)} />
              <PathField path={`${path}.leadTimeHours`} label="Lead time (hours)" problems={problems} value={values.leadTimeHours} onChange={(value) => setType(type, 'leadTimeHours', value)} />
              <PathField path={`${path}.horizonDays`} label="Bookable ahead (days)" problems={problems} value={values.horizonDays} onChange={(value) => setType(type, 'horizonDays', value)} />
              <label className="flex items-center gap-2 text-sm text-slate-800 sm:self-end sm:pb-2">
                <input type="checkbox" name={`${path}.bookableOnline`} checked={values.bookableOnline} onChange={(event) => setType(type, 'bookableOnline', event.target.checked)} className="h-5 w-5" />
                Bookable online
              </label>
            </fieldset>
          );
        })}
      </div>

      <FieldErrorAnnouncement message={announced} />
      <div aria-live="polite">{saved ? <Alert tone="success">Online booking settings saved.</Alert> : null}</div>
      <div aria-live="assertive">{formError ? <Alert>{formError}</Alert> : null}</div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save booking settings'}
      </Button>
    </form>
  );
}

/** Monday first, as a work week is read. */
const weekOrder = [1, 2, 3, 4, 5, 6, 0] as const;

function TechnicianHoursForm({ technician }: { technician: TechnicianBooking }) {
  const formRef = useRef<HTMLFormElement>(null);
  const { problems, accepts, showRefusal, dismiss, announced } = useProblems(formRef);
  const save = useSaveTechnicianAvailability();
  const [hours, setHours] = useState<Record<string, TimeRangeText[]>>(() => Object.fromEntries(weekOrder.map((day) => [String(day), technician.workingHours[String(day)] ?? []])));
  const [serviceTypes, setServiceTypes] = useState<WorkOrderServiceType[]>(technician.serviceTypes);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string }>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    const input = { workingHours: hours, serviceTypes };
    if (!accepts(technicianAvailabilitySchema, input)) return;
    try {
      const answer = await save.mutateAsync({ id: technician.id, ...input });
      setHours(Object.fromEntries(weekOrder.map((day) => [String(day), answer.technician.workingHours[String(day)] ?? []])));
      setNotice({ tone: 'success', text: `${technician.name}’s hours and service types saved.` });
    } catch (error) {
      showRefusal(error);
      setNotice({ tone: 'error', text: `Not saved: ${messageOf(error)}` });
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={`Hours and service types of ${technician.name}`} className="space-y-4">
      <fieldset className="space-y-3">
        <legend className="font-semibold text-slate-900">Working hours</legend>
        <p className="text-sm text-slate-600">A day without hours is a day off. Up to 3 ranges a day, for example around a lunch break.</p>
        {weekOrder.map((day) => {
          const name = weekdayNames[day];
          return (
            <fieldset key={day} className="space-y-1 border-t border-slate-100 pt-3">
              <legend className="text-sm font-medium text-slate-900">{name}</legend>
              <TimeRanges
                path={`workingHours.${day}`}
                rowName={(index) => (index === 0 ? `${name} hours` : `${name} hours ${index + 1}`)}
                ranges={hours[String(day)] ?? []}
                onChange={(ranges) => {
                  setHours((current) => ({ ...current, [String(day)]: ranges }));
                  dismiss(`workingHours.${day}`);
                }}
                problems={problems}
                max={3}
                addLabel={`Add hours on ${name}`}
                emptyText="Day off."
              />
            </fieldset>
          );
        })}
      </fieldset>
      <fieldset>
        <legend className="font-semibold text-slate-900">Service types {technician.name} does</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {workOrderServiceTypes.map((type) => (
            <label key={type} className="flex items-center gap-2 text-slate-800">
              <input
                type="checkbox"
                name="serviceTypes"
                checked={serviceTypes.includes(type)}
                onChange={(event) => {
                  setServiceTypes((current) => (event.target.checked ? [...current, type] : current.filter((other) => other !== type)));
                  dismiss('serviceTypes');
                }}
                className="h-5 w-5"
              />
              {workOrderServiceTypeLabels[type]}
            </label>
          ))}
        </div>
        {problems.serviceTypes ? <p className="mt-1 text-sm text-red-700">{problems.serviceTypes}</p> : null}
      </fieldset>
      <FieldErrorAnnouncement message={announced} />
      <div aria-live="polite">{notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}</div>
      <div aria-live="assertive">{notice?.tone === 'error' ? <Alert>{notice.text}</Alert> : null}</div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save hours'}
      </Button>
    </form>
  );
}

/** "Jun 3, 2026 – Jun 5, 2026" or "Jun 3, 2026, 13:00–15:30". */
function timeOffText(entry: TimeOff): string {
  const days = entry.endsOn === entry.startsOn ? formatDay(entry.startsOn) : `${formatDay(entry.startsOn)} – ${formatDay(entry.endsOn)}`;
  return entry.startTime && entry.endTime ? `${days}, ${entry.startTime}–${entry.endTime}` : days;
}

type TimeOffForm = { startsOn: string; endsOn: string; isPartDay: boolean; startTime: string; endTime: string; reason: string };
const emptyTimeOff: TimeOffForm = { startsOn: '', endsOn: '', isPartDay: false, startTime: '', endTime: '', reason: '' };

function TimeOffSection({ technician }: { technician: TechnicianBooking }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { problems, accepts, showRefusal, dismiss, announced } = useProblems(formRef);
  const add = useAddTimeOff();
  const remove = useRemoveTimeOff();
  const [form, setForm] = useState<TimeOffForm>(emptyTimeOff);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string }>();
  const set = (values: Partial<TimeOffForm>) => {
    setForm((current) => ({ ...current, ...values }));
    for (const key of Object.keys(values)) dismiss(key);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    // Part of a day is on one day; whole days without a last day are the one day.
    const input = {
      startsOn: form.startsOn,
      endsOn: form.isPartDay || !form.endsOn ? form.startsOn : form.endsOn,
      startTime: form.isPartDay ? form.startTime : null,
      endTime: form.isPartDay ? form.endTime : null,
      reason: form.reason,
    };
    if (!accepts(timeOffBodySchema, input)) return;
    try {
      const { timeOff } = await add.mutateAsync({ technicianId: technician.id, ...input });
      setForm(emptyTimeOff);
      setNotice({ tone: 'success', text: `Time off added: ${timeOffText(timeOff)}.` });
    } catch (error) {
      showRefusal(error);
      setNotice({ tone: 'error', text: `Not added: ${messageOf(error)}` });
    }
  }

  async function removeEntry(entry: TimeOff) {
    setNotice(undefined);
    try {
      await remove.mutateAsync(entry.id);
      setNotice({ tone: 'success', text: `Time off removed: ${timeOffText(entry)}.` });
    } catch (error) {
      setNotice({ tone: 'error', text: `Not removed: ${messageOf(error)}` });
    }
  }

  const field = (name: 'startsOn' | 'endsOn' | 'startTime' | 'endTime' | 'reason', label: string, type: string) => (
    <FormField id={`${id}-${name}`} label={label} error={problems[name]}>
      <input
        id={`${id}-${name}`}
        name={name}
        type={type}
        value={form[name]}
        maxLength={name === 'reason' ? 200 : undefined}
        onChange={(event) => set({ [name]: event.target.value })}
        className={controlClass}
        {...errorAttributes(`${id}-${name}`, problems[name])}
      />
    </FormField>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <h4 id={`${id}-title`} className="font-semibold text-slate-900">
        Time off
      </h4>
      {technician.timeOff.length === 0 ? (
        <p className="text-sm text-slate-600">No time off coming up.</p>
      ) : (
        <ul aria-labelledby={`${id}-title`} className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {technician.timeOff.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span className="text-slate-900">
                {timeOffText(entry)}
                {entry.reason ? <span className="text-slate-600"> · {entry.reason}</span> : null}
              </span>
              <Button variant="danger" size="sm" disabled={remove.isPending} onClick={() => void removeEntry(entry)} aria-label={`Remove time off ${timeOffText(entry)}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">{notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}</div>
      <div aria-live="assertive">{notice?.tone === 'error' ? <Alert>{notice.text}</Alert> : null}</div>
      <form ref={formRef} onSubmit={submit} noValidate aria-label={`Add time off for ${technician.name}`} className="space-y-3 rounded-md border border-slate-200 p-3">
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" checked={form.isPartDay} onChange={(event) => set({ isPartDay: event.target.checked })} className="h-5 w-5" />
          Part of a day
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          {field('startsOn', form.isPartDay ? 'Day' : 'First day', 'date')}
          {form.isPartDay ? null : field('endsOn', 'Last day (empty for one day)', 'date')}
          {form.isPartDay ? field('startTime', 'From', 'time') : null}
          {form.isPartDay ? field('endTime', 'Until', 'time') : null}
          <div className="sm:col-span-2">{field('reason', 'Reason (optional)', 'text')}</div>
        </div>
        <FieldErrorAnnouncement message={announced} />
        <Button type="submit" variant="secondary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add time off'}
        </Button>
      </form>
    </section>
  );
}

function TechniciansAvailability({ technicians }: { technicians: TechnicianBooking[] }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Technicians’ hours and time off
      </h2>
      <p className="max-w-3xl text-sm text-slate-600">
        Online booking offers a window only when a technician who does the service type is working, is not off, and can arrive within it with the
        travel buffer around their other visits. Open a technician to change their hours, service types and time off.
      </p>
      {technicians.length === 0 ? <p className="text-slate-600">No technicians yet. Add them under Technicians.</p> : null}
      {technicians.map((technician) => (
        <details key={technician.id} className={cardClassName('p-0')}>
          <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-4 py-3 font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 sm:px-6">
            <span>{technician.name}</span>
            {technician.active ? null : <Badge>Inactive</Badge>}
            {technician.timeOff.length > 0 ? <Badge tone="warning">{technician.timeOff.length === 1 ? '1 time off' : `${technician.timeOff.length} times off`}</Badge> : null}
          </summary>
          <section aria-label={technician.name} className="space-y-6 border-t border-slate-200 p-4 sm:p-6">
            <TechnicianHoursForm technician={technician} />
            <TimeOffSection technician={technician} />
          </section>
        </details>
      ))}
    </section>
  );
}

/**
 * Settings -> Online booking (issue 21, decision 026-c): what customers can book online (arrival
 * windows, travel buffer, service area, cancel cut-off, per service type the visit's length and how
 * far ahead), and when each technician can take a booking.
 */
export function BookingPanel() {
  const page = useBookingSettings();
  if (page.isPending) return <p role="status">Loading the online booking settings…</p>;
  if (page.isError) {
    return (
      <Alert>
        Could not load the online booking settings: {messageOf(page.error)}{' '}
        <Button variant="secondary" size="sm" onClick={() => void page.refetch()} disabled={page.isFetching}>
          Try again
        </Button>
      </Alert>
    );
  }
  return (
    <div className="space-y-6">
      <BookingRulesForm page={page.data} />
      <TechniciansAvailability technicians={page.data.technicians} />
    </div>
  );
}
