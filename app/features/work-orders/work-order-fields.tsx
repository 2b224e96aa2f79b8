import type { ReactNode } from 'react';
import { workOrderPriorities, workOrderServiceTypes, workOrderTimePreferences } from '#shared/enums.ts';
import { workOrderTimePreferenceLabels } from '#shared/work-order.ts';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import type { WorkOrderFieldValues } from './api.ts';
import { priorityLabel, serviceTypeLabel } from './labels.ts';

type FieldName = keyof WorkOrderFieldValues;

/**
 * Title, service type, priority, service date, time preference and 'Description (Required)' with
 * the spec's labels and their errors; the form's own extra fields follow as children.
 */
export function WorkOrderFieldset({
  legend,
  values,
  errors,
  fieldId,
  onChange,
  className = 'space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6',
  children,
}: {
  legend: string;
  values: WorkOrderFieldValues;
  errors: Partial<Record<FieldName, string | undefined>>;
  fieldId: (name: FieldName) => string;
  onChange: (name: FieldName, value: string) => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <fieldset className={className}>
      <legend className="px-1 text-lg font-semibold text-slate-900">{legend}</legend>
      <FormField id={fieldId('title')} label="Title" isRequired error={errors.title}>
        <input
          id={fieldId('title')}
          value={values.title}
          onChange={(event) => onChange('title', event.target.value)}
          required
          maxLength={200}
          className={controlClass}
          {...errorAttributes(fieldId('title'), errors.title)}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={fieldId('serviceType')} label="Service Type" isRequired error={errors.serviceType}>
          <select
            id={fieldId('serviceType')}
            value={values.serviceType}
            onChange={(event) => onChange('serviceType', event.target.value)}
            required
            className={controlClass}
            {...errorAttributes(fieldId('serviceType'), errors.serviceType)}
          >
            {workOrderServiceTypes.map((value) => (
              <option key={value} value={value}>
                {serviceTypeLabel(value)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={fieldId('priority')} label="Priority" isRequired error={errors.priority}>
          <select
            id={fieldId('priority')}
            value={values.priority}
            onChange={(event) => onChange('priority', event.target.value)}
            required
            className={controlClass}
            {...errorAttributes(fieldId('priority'), errors.priority)}
          >
            {workOrderPriorities.map((value) => (
              <option key={value} value={value}>
                {priorityLabel(value)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={fieldId('serviceDate')} label="Service Date" isRequired error={errors.serviceDate}>
          <input
            id={fieldId('serviceDate')}
            type="date"
            value={values.serviceDate}
            onChange={(event) => onChange('serviceDate', event.target.value)}
            required
            className={controlClass}
            {...errorAttributes(fieldId('serviceDate'), errors.serviceDate)}
          />
        </FormField>
        <FormField id={fieldId('timePreference')} label="Time Preference" isRequired error={errors.timePreference}>
          <select
            id={fieldId('timePreference')}
            value={values.timePreference}
            onChange={(event) => onChange('timePreference', event.target.value)}
            required
            className={controlClass}
            {...errorAttributes(fieldId('timePreference'), errors.timePreference)}
          >
            {workOrderTimePreferences.map((value) => (
              <option key={value} value={value}>
                {workOrderTimePreferenceLabels[value]}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <FormField id={fieldId('description')} label="Description (Required)" error={errors.description}>
        <textarea
          id={fieldId('description')}
          value={values.description}
          onChange={(event) => onChange('description', event.target.value)}
          required
          rows={4}
          maxLength={5000}
          className={controlClass}
          {...errorAttributes(fieldId('description'), errors.description)}
        />
      </FormField>
      {children}
    </fieldset>
  );
}
