import { refrigerantTypes, tonnages } from '#shared/enums.ts';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import type { CustomerFormValues } from './customer-form.tsx';
import { refrigerantLabel, tonnageLabel } from './labels.ts';

// The customer form's controls: each one labelled through FormField, tied to its error, and
// writing back through `update`.

export type CustomerFieldName = keyof CustomerFormValues;
export type CustomerFieldErrors = Partial<Record<CustomerFieldName, string>>;

/** What every control needs from the form. */
export type CustomerFormControls = {
  fieldId: (name: CustomerFieldName) => string;
  values: CustomerFormValues;
  errors: CustomerFieldErrors;
  update: <Name extends CustomerFieldName>(name: Name, value: CustomerFormValues[Name]) => void;
};

type TextName = Exclude<CustomerFieldName, 'hasIndoorUnit' | 'hasOutdoorUnit' | 'type'>;

/** A labelled text input (autocomplete off unless told). */
export function TextField({
  form,
  name,
  label,
  className,
  type = 'text',
  autoComplete = 'off',
  inputMode,
  maxLength,
  required,
  autoCapitalize,
}: {
  form: CustomerFormControls;
  name: TextName;
  label: string;
  className: string;
  type?: string;
  autoComplete?: string;
  inputMode?: 'tel' | 'email' | 'numeric' | 'text';
  maxLength?: number;
  required?: boolean;
  autoCapitalize?: string;
}) {
  const id = form.fieldId(name);
  const error = form.errors[name];
  return (
    <FormField id={id} label={label} isRequired={required} error={error} className={className}>
      <input
        id={id}
        name={name}
        type={type}
        value={form.values[name]}
        onChange={(event) => form.update(name, event.target.value)}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        autoCapitalize={autoCapitalize}
        required={required}
        {...errorAttributes(id, error)}
        className={controlClass}
      />
    </FormField>
  );
}

/** A select with "Not specified", the known values, and a stored value outside them kept as it is. */
function OptionalSelect({
  form,
  name,
  label,
  options,
  optionLabel,
}: {
  form: CustomerFormControls;
  name: 'refrigerantType' | 'tonnage';
  label: string;
  options: readonly string[];
  optionLabel: (value: string) => string;
}) {
  const id = form.fieldId(name);
  const error = form.errors[name];
  const value = form.values[name];
  return (
    <FormField id={id} label={label} error={error} className="sm:col-span-2">
      <select id={id} name={name} value={value} onChange={(event) => form.update(name, event.target.value)} {...errorAttributes(id, error)} className={controlClass}>
        <option value="">Not specified</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
        {value && !options.includes(value) ? <option value={value}>{value}</option> : null}
      </select>
    </FormField>
  );
}

function UnitCheckbox({ form, name, label }: { form: CustomerFormControls; name: 'hasIndoorUnit' | 'hasOutdoorUnit'; label: string }) {
  const id = form.fieldId(name);
  return (
    <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-800 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={form.values[name]}
        onChange={(event) => form.update(name, event.target.checked)}
        className="h-5 w-5 rounded border-slate-400 accent-brand-700"
      />
      <span className="text-sm font-medium">{label}</span>
    </label>
  );
}

/** The HVAC Equipment section's fields. */
export function EquipmentFields({ form }: { form: CustomerFormControls }) {
  return (
    <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-6">
      <div className="grid grid-cols-1 gap-3 sm:col-span-6 sm:grid-cols-2">
        <UnitCheckbox form={form} name="hasIndoorUnit" label="Has indoor unit" />
        <UnitCheckbox form={form} name="hasOutdoorUnit" label="Has outdoor unit" />
      </div>
      <TextField form={form} name="unitBrand" label="Brand" maxLength={100} className="sm:col-span-2" />
      <TextField form={form} name="unitModel" label="Model" maxLength={100} className="sm:col-span-2" />
      <TextField form={form} name="unitSerial" label="Serial Number" maxLength={100} className="sm:col-span-2" />
      <TextField form={form} name="installDate" label="Install Date" type="date" className="sm:col-span-2" />
      <OptionalSelect form={form} name="refrigerantType" label="Refrigerant" options={refrigerantTypes} optionLabel={refrigerantLabel} />
      <OptionalSelect form={form} name="tonnage" label="Tonnage" options={tonnages} optionLabel={tonnageLabel} />
    </div>
  );
}
