import { useId, useState, type FormEvent } from 'react';
import { calendarAppointmentUpdateSchema, calendarDayEnd, calendarDayStart, calendarMessages, type CalendarEvent } from '#shared/calendar.ts';
import { workOrderPriorities, workOrderServiceTypes, workOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import { canTransition, workOrderCreateRequestSchema } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useActiveTechnicians, priorityLabel, serviceTypeLabel, workOrderStatusLabel } from '#client/features/work-orders/index.ts';
import { CustomerPicker, type PickedCustomer } from '#client/features/customers/index.ts';
import { failureMessage, overlapsOf, useCreateAppointment, useUpdateAppointment } from './api.ts';
import { OverlapList } from './overlap-list.tsx';

type Values = {
  title: string;
  serviceType: string;
  priority: string;
  serviceDate: string;
  startTime: string;
  endTime: string;
  technicianId: string;
  description: string;
  status: WorkOrderStatus;
  notes: string;
};
type FieldName = keyof Values;
const fieldOrder: readonly FieldName[] = ['title', 'serviceType', 'priority', 'serviceDate', 'startTime', 'endTime', 'technicianId', 'description', 'status', 'notes'];

/** What a new appointment starts with: the spec's defaults (repair, normal, 08:00-17:00, today) or the selected range. */
export type AppointmentDraft = { serviceDate: string; startTime: string; endTime: string };

/** The form's time preference follows the chosen start (the work-order screens show it). */
function timePreferenceFor(startTime: string): string {
  if (startTime < '12:00') return 'morning';
  if (startTime < '17:00') return 'afternoon';
  return 'anytime';
}

/**
 * 'Create New Appointment' (prefilled from a selected range or the defaults) and 'Edit Appointment'
 * (the same fields plus Status and Notes; spec 001 sections 2 and 5). The customer is chosen with
 * the work-order form's picker (2+ characters, name or phone, at most 10). An edit carries the
 * version it was based on; a technician's double booking is confirmed before it is saved.
 */
export type AppointmentToEdit = CalendarEvent & { description: string; notes: string | null };

export function AppointmentDialog({
  mode,
  event,
  draft,
  onClose,
  onSaved,
}: {
  mode: 'create' | 'edit';
  /** Editing: the appointment as the calendar shows it, with its description and notes. */
  event?: AppointmentToEdit;
  draft?: AppointmentDraft;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const idPrefix = useId();
  const fieldId = (name: FieldName) => `${idPrefix}-${name}`;
  const technicians = useActiveTechnicians();
  const create = useCreateAppointment();
  const update = useUpdateAppointment();
  const isPending = create.isPending || update.isPending;
  const [customer, setCustomer] = useState<PickedCustomer | undefined>(() =>
    event ? { id: event.customer.id, name: event.customer.name, phone: event.customer.phone, address: event.customer.address } : undefined,
  );
  const [values, setValues] = useState<Values>(() =>
    event
      ? {
          title: event.title,
          serviceType: event.serviceType,
          priority: event.priority,
          serviceDate: event.serviceDate,
          startTime: event.startTime,
          endTime: event.endTime,
          technicianId: event.technician?.id ?? '',
          description: event.description,
          status: event.status,
          notes: event.notes ?? '',
        }
      : {
          title: '',
          serviceType: 'repair',
          priority: 'normal',
          serviceDate: draft!.serviceDate,
          startTime: draft!.startTime,
          endTime: draft!.endTime,
          technicianId: '',
          description: '',
          status: 'pending',
          notes: '',
        },
  );
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [overlap, setOverlap] = useState<ReturnType<typeof overlapsOf>>();
  const [base, setBase] = useState(event?.updatedAt ?? '');

  const technicianOptions = technicians.data?.technicians ?? [];
  const keepsInactiveTechnician = Boolean(event?.technician) && !technicianOptions.some((technician) => technician.id === event?.technician?.id);

  function change(name: FieldName, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
    setOverlap(undefined);
  }

  function showErrors(issues: { path: PropertyKey[]; message: string }[]) {
    const next: Partial<Record<FieldName, string>> = {};
    for (const issue of issues) {
      const field = String(issue.path[0]) as FieldName;
      if (fieldOrder.includes(field)) next[field] ??= issue.message;
    }
    setErrors(next);
    const first = fieldOrder.find((name) => next[name]);
    if (first) document.getElementById(fieldId(first))?.focus();
    return Object.keys(next).length > 0;
  }

  async function save(allowOverlap: boolean) {
    setFormError(undefined);
    if (!customer) {
      setFormError(calendarMessages.selectCustomer);
      return;
    }
    const failed = mode === 'create' ? calendarMessages.createFailed : calendarMessages.updateFailed;
    try {
      if (mode === 'create') {
        const body = {
          customerId: customer.id,
          title: values.title,
          serviceType: values.serviceType,
          priority: values.priority,
          serviceDate: values.serviceDate,
          startTime: values.startTime,
          endTime: values.endTime,
          timePreference: timePreferenceFor(values.startTime),
          description: values.description,
          technicianId: values.technicianId || null,
          allowOverlap,
        };
        const parsed = workOrderCreateRequestSchema(values.serviceDate).safeParse(body);
        if (!parsed.success) {
          showErrors(parsed.error.issues);
          return;
        }
        // The fields as typed; the choices with the types the schema checked (the same values).
        const { serviceType, priority, timePreference } = parsed.data;
        await create.mutateAsync({ ...body, serviceType, priority, timePreference });
        onSaved('Appointment created.');
      } else {
        const body = {
          id: event!.id,
          customerId: customer.id,
          title: values.title,
          serviceType: values.serviceType as CalendarEvent['serviceType'],
          priority: values.priority as CalendarEvent['priority'],
          serviceDate: values.serviceDate,
          startTime: values.startTime,
          endTime: values.endTime,
          description: values.description,
          technicianId: values.technicianId || null,
          status: values.status,
          notes: values.notes,
          expectedUpdatedAt: base,
          allowOverlap,
        };
        const parsed = calendarAppointmentUpdateSchema.safeParse(body);
        if (!parsed.success) {
          showErrors(parsed.error.issues);
          return;
        }
        await update.mutateAsync(body);
        onSaved('Appointment updated.');
      }
    } catch (error) {
      const overlaps = overlapsOf(error);
      if (overlaps) {
        setOverlap(overlaps);
        return;
      }
      if (error instanceof ApiError && error.status === 409 && (error.details as { current?: { updatedAt: string } } | undefined)?.current) {
        // Saving again replaces the other person's change knowingly.
        setBase((error.details as { current: { updatedAt: string } }).current.updatedAt);
      }
      if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)) {
        showErrors(
          (error.details as { path?: unknown; message?: unknown }[]).map((problem) => ({
            path: [String(problem.path ?? '').split('.')[0] ?? ''],
            message: String(problem.message ?? ''),
          })),
        );
      }
      setFormError(failureMessage(failed, error));
    }
  }

  function onSubmit(submitEvent: FormEvent<HTMLFormElement>) {
    submitEvent.preventDefault();
    void save(false);
  }

  const title = mode === 'create' ? 'Create New Appointment' : 'Edit Appointment';
  const statusAllowed = (status: WorkOrderStatus) => !event || status === event.status || canTransition(event.status, status);

  return (
    <Dialog title={title} onClose={() => (isPending ? undefined : onClose())} className="max-w-2xl">
      <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4" aria-label={title}>
        <div aria-live="assertive" className="space-y-2">
          {formError ? <Alert>{formError}</Alert> : null}
          {overlap ? (
            <Alert>
              <p>{overlap.message}</p>
              <OverlapList overlaps={overlap.overlaps} />
              <div className="mt-3 flex flex-wrap gap-2">
                <Button size="sm" variant="destructive" onClick={() => void save(true)} disabled={isPending}>
                  Book Anyway
                </Button>
                <Button size="sm" variant="secondary" onClick={() => setOverlap(undefined)} disabled={isPending}>
                  Change the Time
                </Button>
              </div>
            </Alert>
          ) : null}
        </div>

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">
            Customer <span aria-hidden="true" className="text-red-700">*</span>
          </legend>
          <CustomerPicker picked={customer} isLoadingPreselection={false} onPick={(picked) => { setCustomer(picked); setFormError(undefined); }} onClear={() => setCustomer(undefined)} />
        </fieldset>

        <FormField id={fieldId('title')} label="Title" isRequired error={errors.title}>
          <input id={fieldId('title')} value={values.title} onChange={(e) => change('title', e.target.value)} required maxLength={200} className={controlClass} {...errorAttributes(fieldId('title'), errors.title)} />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id={fieldId('serviceType')} label="Service Type" isRequired error={errors.serviceType}>
            <select id={fieldId('serviceType')} value={values.serviceType} onChange={(e) => change('serviceType', e.target.value)} required className={controlClass} {...errorAttributes(fieldId('serviceType'), errors.serviceType)}>
              {workOrderServiceTypes.map((type) => (
                <option key={type} value={type}>
                  {serviceTypeLabel(type)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id={fieldId('priority')} label="Priority" error={errors.priority}>
            <select id={fieldId('priority')} value={values.priority} onChange={(e) => change('priority', e.target.value)} className={controlClass} {...errorAttributes(fieldId('priority'), errors.priority)}>
              {workOrderPriorities.map((priority) => (
                <option key={priority} value={priority}>
                  {priorityLabel(priority)}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField id={fieldId('serviceDate')} label="Date" isRequired error={errors.serviceDate}>
            <input id={fieldId('serviceDate')} type="date" value={values.serviceDate} onChange={(e) => change('serviceDate', e.target.value)} required className={controlClass} {...errorAttributes(fieldId('serviceDate'), errors.serviceDate)} />
          </FormField>
          <FormField id={fieldId('startTime')} label="Start Time" isRequired error={errors.startTime}>
            <input id={fieldId('startTime')} type="time" step={900} min={calendarDayStart} max={calendarDayEnd} value={values.startTime} onChange={(e) => change('startTime', e.target.value)} required className={controlClass} {...errorAttributes(fieldId('startTime'), errors.startTime)} />
          </FormField>
          <FormField id={fieldId('endTime')} label="End Time" isRequired error={errors.endTime}>
            <input id={fieldId('endTime')} type="time" step={900} min={calendarDayStart} max={calendarDayEnd} value={values.endTime} onChange={(e) => change('endTime', e.target.value)} required className={controlClass} {...errorAttributes(fieldId('endTime'), errors.endTime)} />
          </FormField>
        </div>
        <FormField id={fieldId('technicianId')} label="Technician" error={errors.technicianId}>
          <select id={fieldId('technicianId')} value={values.technicianId} onChange={(e) => change('technicianId', e.target.value)} className={controlClass} {...errorAttributes(fieldId('technicianId'), errors.technicianId)}>
            <option value="">Unassigned</option>
            {keepsInactiveTechnician && event?.technician ? <option value={event.technician.id}>{event.technician.name} (inactive)</option> : null}
            {technicianOptions.map((technician) => (
              <option key={technician.id} value={technician.id}>
                {technician.name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={fieldId('description')} label="Description" isRequired error={errors.description}>
          <textarea id={fieldId('description')} value={values.description} onChange={(e) => change('description', e.target.value)} required rows={3} className={controlClass} {...errorAttributes(fieldId('description'), errors.description)} />
        </FormField>
        {mode === 'edit' ? (
          <>
            <FormField id={fieldId('status')} label="Status" error={errors.status}>
              <select id={fieldId('status')} value={values.status} onChange={(e) => change('status', e.target.value)} className={controlClass} {...errorAttributes(fieldId('status'), errors.status)}>
                {workOrderStatuses.map((status) => (
                  <option key={status} value={status} disabled={!statusAllowed(status)}>
                    {workOrderStatusLabel(status)}
                    {statusAllowed(status) ? '' : ' (not allowed from here)'}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id={fieldId('notes')} label="Notes" error={errors.notes}>
              <textarea id={fieldId('notes')} value={values.notes} onChange={(e) => change('notes', e.target.value)} rows={3} className={controlClass} {...errorAttributes(fieldId('notes'), errors.notes)} />
            </FormField>
          </>
        ) : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="accent" disabled={isPending}>
            {isPending ? 'Saving...' : mode === 'create' ? 'Create Appointment' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
