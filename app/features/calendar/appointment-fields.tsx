import { calendarDayEnd, calendarDayStart, type CalendarEvent } from '#shared/calendar.ts';
import { workOrderPriorities, workOrderServiceTypes, workOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import { canTransition } from '#shared/work-order.ts';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { useActiveTechnicians, priorityLabel, serviceTypeLabel, workOrderStatusLabel } from '#client/features/work-orders/index.ts';

export type Values = {
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
export type FieldName = keyof Values;
/** The fields in the order they are shown: the first one with an error gets the focus. */
export const fieldOrder: readonly FieldName[] = ['title', 'serviceType', 'priority', 'serviceDate', 'startTime', 'endTime', 'technicianId', 'description', 'status', 'notes'];

/**
 * The appointment form's fields after the customer: title, service type, priority, date and times,
 * technician (an inactive technician already assigned stays selectable) and description; editing
 * adds Status (only the moves the transition table allows) and Notes.
 */
export function AppointmentFields({
  mode,
  event,
  fieldId,
  values,
  errors,
  change,
}: {
  mode: 'create' | 'edit';
  /** Editing: the appointment being edited. */
  event?: CalendarEvent;
  fieldId: (name: FieldName) => string;
  values: Values;
  errors: Partial<Record<FieldName, string>>;
  change: (name: FieldName, value: string) => void;
}) {
  const technicians = useActiveTechnicians();
  const technicianOptions = technicians.data?.technicians ?? [];
  const keepsInactiveTechnician = Boolean(event?.technician) && !technicianOptions.some((technician) => technician.id === event?.technician?.id);
  const statusAllowed = (status: WorkOrderStatus) => !event || status === event.status || canTransition(event.status, status);

  return (
    <>
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
    </>
  );
}
