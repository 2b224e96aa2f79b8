import { useId, useState, type FormEvent } from 'react';
import { workOrderMessages, workOrderTimePreferenceLabels, workOrderUpdateSchema } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { apiErrorMessage, useCustomerProfile, formatCalendarDate } from '#client/features/customers/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { conflictCurrent, useActiveTechnicians, useUpdateWorkOrder, type WorkOrder, type WorkOrderFieldValues } from './api.ts';
import { priorityLabel, serviceTypeLabel } from './labels.ts';
import { addressLine } from '#shared/work-order-place.ts';
import { serviceAddressBody, serviceAddressValuesOf, ServiceAddressFieldset, type ServiceAddressValues, WorkOrderFieldset } from './work-order-fields.tsx';

type Values = WorkOrderFieldValues & ServiceAddressValues & { technicianId: string; equipmentId: string };
type FieldName = keyof Values;
const fieldOrder: readonly FieldName[] = [
  'title', 'serviceType', 'priority', 'serviceDate', 'timePreference', 'description', 'technicianId', 'equipmentId',
  'serviceAddress', 'serviceCity', 'serviceState', 'serviceZip',
];

const valuesOf = (workOrder: WorkOrder): Values => ({
  title: workOrder.title,
  serviceType: workOrder.serviceType,
  priority: workOrder.priority,
  serviceDate: workOrder.serviceDate,
  timePreference: workOrder.timePreference,
  description: workOrder.description,
  technicianId: workOrder.technicianId ?? '',
  equipmentId: workOrder.equipmentId ?? '',
  ...serviceAddressValuesOf(workOrder),
});

/** How a field of a work order reads to a person (the conflict notice lists the current values). */
const fieldLabels: Record<FieldName, string> = {
  title: 'Title',
  serviceType: 'Service Type',
  priority: 'Priority',
  serviceDate: 'Service Date',
  timePreference: 'Time Preference',
  description: 'Description',
  technicianId: 'Technician',
  equipmentId: 'Equipment',
  serviceAddress: 'Service address',
  serviceCity: 'Service city',
  serviceState: 'Service state',
  serviceZip: 'Service ZIP',
};

/**
 * 'Edit Details': the work order's own fields, its technician (active ones, or the one it already
 * has) and the customer's equipment it concerns. The save carries the version the form was based
 * on; if someone else saved first, the form keeps the user's draft, lists the values now stored,
 * and a second save (now based on those) replaces them knowingly.
 */
export function EditDetailsDialog({ workOrder, technicianName, onClose, onSaved }: {
  workOrder: WorkOrder;
  technicianName: string | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const idPrefix = useId();
  const fieldId = (name: FieldName) => `${idPrefix}-${name}`;
  const [values, setValues] = useState<Values>(() => valuesOf(workOrder));
  const [base, setBase] = useState<WorkOrder>(workOrder);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [conflict, setConflict] = useState<{ field: FieldName; value: string }[]>();
  const technicians = useActiveTechnicians();
  const profile = useCustomerProfile(workOrder.customerId);
  const update = useUpdateWorkOrder(workOrder.id);

  const technicianOptions = technicians.data?.technicians ?? [];
  const keepsInactiveTechnician = Boolean(workOrder.technicianId) && !technicianOptions.some((technician) => technician.id === workOrder.technicianId);
  const equipmentOptions = profile.data?.equipment ?? [];

  function change(name: FieldName, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
  }

  function focusFirst(next: Partial<Record<FieldName, string>>) {
    const first = fieldOrder.find((name) => next[name]);
    if (first) document.getElementById(fieldId(first))?.focus();
  }

  function readable(name: FieldName, current: WorkOrder): string {
    const value = valuesOf(current)[name];
    if (name === 'serviceType') return serviceTypeLabel(value);
    if (name === 'priority') return priorityLabel(value);
    if (name === 'serviceDate') return formatCalendarDate(value);
    if (name === 'timePreference') return workOrderTimePreferenceLabels[value as keyof typeof workOrderTimePreferenceLabels] ?? value;
    if (name === 'technicianId') return technicianOptions.find((technician) => technician.id === value)?.name ?? (value ? 'another technician' : 'Unassigned');
    if (name === 'equipmentId') return equipmentOptions.find((item) => item.id === value)?.equipmentType ?? (value ? 'other equipment' : 'None');
    if (name === 'serviceAddress') return current.serviceAddress ? addressLine({ address: current.serviceAddress, city: current.serviceCity, state: current.serviceState, zip: current.serviceZip }) : 'None';
    return value || 'None';
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    const body = {
      ...values,
      technicianId: values.technicianId || null,
      equipmentId: values.equipmentId || null,
      ...serviceAddressBody(values),
      expectedUpdatedAt: base.updatedAt,
    };
    const result = workOrderUpdateSchema.safeParse(body);
    if (!result.success) {
      const next: Partial<Record<FieldName, string>> = {};
      for (const issue of result.error.issues) {
        const field = issue.path[0] as FieldName;
        if (fieldOrder.includes(field) && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      focusFirst(next);
      return;
    }
    try {
      // The fields as typed; the choices with the types the schema checked (the same values).
      const { serviceType, priority, timePreference } = result.data;
      await update.mutateAsync({ ...body, serviceType, priority, timePreference });
      onSaved();
    } catch (failure) {
      const current = conflictCurrent(failure);
      if (current) {
        const seen = valuesOf(base);
        const now = valuesOf(current);
        setConflict(fieldOrder.filter((name) => seen[name] !== now[name]).map((field) => ({ field, value: readable(field, current) })));
        setBase(current);
        return;
      }
      if (failure instanceof ApiError && failure.code === 'VALIDATION_FAILED' && Array.isArray(failure.details)) {
        const next: Partial<Record<FieldName, string>> = {};
        for (const problem of failure.details as { path?: unknown; message?: unknown }[]) {
          const field = String(problem.path ?? '').split('.')[0] as FieldName;
          if (fieldOrder.includes(field) && typeof problem.message === 'string') next[field] ??= problem.message;
        }
        setErrors(next);
        focusFirst(next);
      }
      setFormError(workOrderMessages.updateFailed(apiErrorMessage(failure) ?? workOrderMessages.unexpected));
    }
  }

  return (
    <Dialog
      title="Edit Work Order Details"
      description={`${workOrder.workOrderNumber ?? ''} ${workOrder.title}`.trim()}
      onClose={() => (update.isPending ? undefined : onClose())}
      className="max-w-2xl"
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-label="Edit work order details">
        <div aria-live="assertive" className="space-y-2">
          {conflict ? (
            <Alert>
              <p>{workOrderMessages.conflict}</p>
              {conflict.length > 0 ? (
                <>
                  <p className="mt-2 font-semibold">Saved by someone else:</p>
                  <ul className="mt-1 list-disc pl-5">
                    {conflict.map(({ field, value }) => (
                      <li key={field}>
                        {fieldLabels[field]}: {value}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              <p className="mt-2">Save again to replace them with your values, or cancel to keep theirs.</p>
            </Alert>
          ) : null}
          {formError ? <Alert>{formError}</Alert> : null}
        </div>
        <WorkOrderFieldset legend="Work Order Details" values={values} errors={errors} fieldId={fieldId} onChange={change} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={fieldId('technicianId')} label="Technician" error={errors.technicianId}>
              <select
                id={fieldId('technicianId')}
                value={values.technicianId}
                onChange={(event) => change('technicianId', event.target.value)}
                className={controlClass}
                {...errorAttributes(fieldId('technicianId'), errors.technicianId)}
              >
                <option value="">Unassigned</option>
                {keepsInactiveTechnician ? <option value={workOrder.technicianId ?? ''}>{technicianName ?? 'Current technician'} (inactive)</option> : null}
                {technicianOptions.map((technician) => (
                  <option key={technician.id} value={technician.id}>
                    {technician.name}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id={fieldId('equipmentId')} label="Equipment" error={errors.equipmentId} hint={profile.isPending ? '(loading...)' : undefined}>
              <select
                id={fieldId('equipmentId')}
                value={values.equipmentId}
                onChange={(event) => change('equipmentId', event.target.value)}
                className={controlClass}
                {...errorAttributes(fieldId('equipmentId'), errors.equipmentId)}
              >
                <option value="">None</option>
                {equipmentOptions.map((item) => (
                  <option key={item.id} value={item.id}>
                    {[item.equipmentType, item.brand, item.location].filter(Boolean).join(' · ')}
                  </option>
                ))}
              </select>
            </FormField>
          </div>
          <ServiceAddressFieldset values={values} errors={errors} fieldId={fieldId} onChange={change} />
        </WorkOrderFieldset>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="accent" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
