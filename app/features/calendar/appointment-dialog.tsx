import { useId, useState, type FormEvent } from 'react';
import { calendarAppointmentUpdateSchema, calendarMessages, type CalendarEvent } from '#shared/calendar.ts';
import { workOrderCreateRequestSchema } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { ApiError } from '#client/lib/api.ts';
import { CustomerPicker, type PickedCustomer } from '#client/features/customers/index.ts';
import { failureMessage, overlapsOf, useCreateAppointment, useUpdateAppointment } from './api.ts';
import { AppointmentFields, fieldOrder, type FieldName, type Values } from './appointment-fields.tsx';
import { OverlapList } from './overlap-list.tsx';

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

        <AppointmentFields mode={mode} event={event} fieldId={fieldId} values={values} errors={errors} change={change} />
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
