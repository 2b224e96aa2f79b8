import type { ReactNode } from 'react';
import { workOrderPriorities, workOrderServiceTypes, workOrderTimePreferences } from '#shared/enums.ts';
import { workOrderTimePreferenceLabels } from '#shared/work-order.ts';
import { workOrderPlaceMessages } from '#shared/work-order-place.ts';
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

/** The service address as the forms hold it: text, empty when the job is at the customer's address. */
export type ServiceAddressValues = { serviceAddress: string; serviceCity: string; serviceState: string; serviceZip: string };
export type ServiceAddressField = keyof ServiceAddressValues;
export const serviceAddressFieldNames = ['serviceAddress', 'serviceCity', 'serviceState', 'serviceZip'] as const satisfies readonly ServiceAddressField[];
export const noServiceAddress: ServiceAddressValues = { serviceAddress: '', serviceCity: '', serviceState: '', serviceZip: '' };

/** The stored columns as the form's text (null is empty). */
export function serviceAddressValuesOf(workOrder: { [Field in ServiceAddressField]?: string | null }): ServiceAddressValues {
  return {
    serviceAddress: workOrder.serviceAddress ?? '',
    serviceCity: workOrder.serviceCity ?? '',
    serviceState: workOrder.serviceState ?? '',
    serviceZip: workOrder.serviceZip ?? '',
  };
}

/** The form's text as the body sends it: all four, empty ones as null (all null clears it). */
export function serviceAddressBody(values: ServiceAddressValues): { [Field in ServiceAddressField]: string | null } {
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    serviceAddress: text(values.serviceAddress),
    serviceCity: text(values.serviceCity),
    serviceState: text(values.serviceState),
    serviceZip: text(values.serviceZip),
  };
}

const serviceAddressLabels: Record<ServiceAddressField, string> = {
  serviceAddress: 'Service Street Address',
  serviceCity: 'Service City',
  serviceState: 'Service State',
  serviceZip: 'Service ZIP',
};

/**
 * Where the job is when it is not the customer's address on file (decision 018-a, follow-up):
 * street, city and state together (ZIP optional), or all empty; 'Clear' empties all four.
 */
export function ServiceAddressFieldset({
  values,
  errors,
  fieldId,
  onChange,
}: {
  values: ServiceAddressValues;
  errors: Partial<Record<ServiceAddressField, string | undefined>>;
  fieldId: (name: ServiceAddressField) => string;
  onChange: (name: ServiceAddressField, value: string) => void;
}) {
  const isSet = serviceAddressFieldNames.some((name) => values[name].trim() !== '');
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" aria-describedby={fieldId('serviceAddress') + '-hint'}>
      <legend className="px-1 text-sm font-semibold text-slate-900">{workOrderPlaceMessages.serviceAddress}</legend>
      <p id={fieldId('serviceAddress') + '-hint'} className="text-sm text-slate-600">
        {workOrderPlaceMessages.serviceAddressHint}
      </p>
      <FormField id={fieldId('serviceAddress')} label={serviceAddressLabels.serviceAddress} error={errors.serviceAddress}>
        <input
          id={fieldId('serviceAddress')}
          value={values.serviceAddress}
          onChange={(event) => onChange('serviceAddress', event.target.value)}
          maxLength={300}
          autoComplete="off"
          className={controlClass}
          {...errorAttributes(fieldId('serviceAddress'), errors.serviceAddress)}
        />
      </FormField>
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
        {(['serviceCity', 'serviceState', 'serviceZip'] as const).map((name) => (
          <FormField key={name} id={fieldId(name)} label={serviceAddressLabels[name]} error={errors[name]}>
            <input
              id={fieldId(name)}
              value={values[name]}
              onChange={(event) => onChange(name, event.target.value)}
              maxLength={name === 'serviceCity' ? 100 : name === 'serviceState' ? 2 : 10}
              inputMode={name === 'serviceZip' ? 'numeric' : undefined}
              autoComplete="off"
              className={controlClass}
              {...errorAttributes(fieldId(name), errors[name])}
            />
          </FormField>
        ))}
      </div>
      {isSet ? (
        <button
          type="button"
          className="text-sm font-semibold text-brand-700 underline"
          onClick={() => serviceAddressFieldNames.forEach((name) => onChange(name, ''))}
        >
          Clear service address
        </button>
      ) : null}
    </fieldset>
  );
}
