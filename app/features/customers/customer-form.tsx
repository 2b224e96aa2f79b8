import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { customerInputSchema, customerMessages, type Customer, type CustomerValues } from '#shared/customer.ts';
import { customerTypes, refrigerantTypes, tonnages, type CustomerType } from '#shared/enums.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError } from '#client/lib/api.ts';
import { customerTypeLabels, refrigerantLabel, tonnageLabel } from './labels.ts';

/** What the form holds: text as typed, booleans for the two equipment flags. */
export type CustomerFormValues = {
  name: string;
  type: CustomerType;
  phone: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  notes: string;
  hasIndoorUnit: boolean;
  hasOutdoorUnit: boolean;
  unitBrand: string;
  unitModel: string;
  unitSerial: string;
  installDate: string;
  refrigerantType: string;
  tonnage: string;
};

type FieldName = keyof CustomerFormValues;
type FieldErrors = Partial<Record<FieldName, string>>;

/** Screen order: the first invalid field in this order gets the focus. */
const fieldOrder: readonly FieldName[] = [
  'name',
  'type',
  'phone',
  'email',
  'address',
  'city',
  'state',
  'zip',
  'notes',
  'hasIndoorUnit',
  'hasOutdoorUnit',
  'unitBrand',
  'unitModel',
  'unitSerial',
  'installDate',
  'refrigerantType',
  'tonnage',
];

/** Spec 000 section 5: Bluffton, SC, residential, equipment flags off; missing e-mail and ZIP are empty. */
export function customerFormValues(customer?: Partial<Customer>): CustomerFormValues {
  return {
    name: customer?.name ?? '',
    type: customer?.type ?? 'residential',
    phone: customer?.phone ?? '',
    email: customer?.email ?? '',
    address: customer?.address ?? '',
    city: customer?.city ?? 'Bluffton',
    state: customer?.state ?? 'SC',
    zip: customer?.zip ?? '',
    notes: customer?.notes ?? '',
    hasIndoorUnit: customer?.hasIndoorUnit ?? false,
    hasOutdoorUnit: customer?.hasOutdoorUnit ?? false,
    unitBrand: customer?.unitBrand ?? '',
    unitModel: customer?.unitModel ?? '',
    unitSerial: customer?.unitSerial ?? '',
    installDate: customer?.installDate?.slice(0, 10) ?? '',
    refrigerantType: customer?.refrigerantType ?? '',
    tonnage: customer?.tonnage ?? '',
  };
}

/** The field a server problem's path ("phone", "body.phone", "/phone") names, if it is one of ours. */
function fieldOfPath(path: unknown): FieldName | undefined {
  const parts = Array.isArray(path) ? path.map(String) : typeof path === 'string' ? path.split(/[./]/) : [];
  return parts.find((part): part is FieldName => (fieldOrder as readonly string[]).includes(part));
}

export type CustomerFormProps = {
  /** A saved customer (edit) or nothing (new: the spec's defaults). */
  initialCustomer?: Partial<Customer>;
  /** Sends the validated values; throw (an ApiError) to show the failure. */
  onSubmit: (values: CustomerValues) => Promise<unknown>;
  onCancel: () => void;
  submitLabel: string;
  /** The submit button's text while sending ('Saving...' unless the screen's action says otherwise). */
  pendingLabel?: string;
  /** The form-level message for a refusal with the server's message, e.g. customerMessages.createFailed. */
  failureMessage: (message: string) => string;
  /** The message for anything else (network failure, unexpected answer). */
  unexpectedMessage?: string;
  /** Heading level of the section titles (2 on its own screen, 3 inside another form's section). */
  headingLevel?: 2 | 3;
  /** Extra sections after HVAC Equipment (the profile's Equipment Photos). */
  children?: ReactNode;
  /** Accessible name of the form. */
  ariaLabel?: string;
};

/**
 * The customer form (spec 000 sections 2 and 5): Basic Information and HVAC Equipment, validated
 * with the shared schema before sending; errors under the fields and the first invalid field
 * focused; the server's field problems shown the same way; other failures above the form.
 * Used by New customer and the profile's edit mode, and later inside New work order.
 */
export function CustomerForm({
  initialCustomer,
  onSubmit,
  onCancel,
  submitLabel,
  pendingLabel = 'Saving...',
  failureMessage,
  unexpectedMessage = customerMessages.unexpected,
  headingLevel = 2,
  children,
  ariaLabel,
}: CustomerFormProps) {
  const idPrefix = useId();
  const fieldId = (name: FieldName) => `${idPrefix}-${name}`;
  const [values, setValues] = useState<CustomerFormValues>(() => customerFormValues(initialCustomer));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ field: FieldName }>();
  const alertRef = useRef<HTMLDivElement>(null);
  const isMounted = useRef(true);

  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);

  // After the errors are on screen, so the field is announced with its message.
  useEffect(() => {
    if (focusRequest) document.getElementById(`${idPrefix}-${focusRequest.field}`)?.focus();
  }, [focusRequest, idPrefix]);

  useEffect(() => {
    if (formError) alertRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [formError]);

  function update<Name extends FieldName>(name: Name, value: CustomerFormValues[Name]) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
  }

  function showFieldErrors(found: FieldErrors) {
    setErrors(found);
    const first = fieldOrder.find((name) => found[name]);
    if (first) setFocusRequest({ field: first });
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmitting) return;
    setFormError(undefined);
    const parsed = customerInputSchema.safeParse(values);
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const name = fieldOfPath(issue.path);
        if (name) found[name] ??= issue.message;
      }
      showFieldErrors(found);
      return;
    }
    setErrors({});
    setIsSubmitting(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      if (!isMounted.current) return;
      if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)) {
        const found: FieldErrors = {};
        for (const problem of error.details as { path?: unknown; message?: unknown }[]) {
          const name = fieldOfPath(problem.path);
          if (name && typeof problem.message === 'string') found[name] ??= problem.message;
        }
        if (Object.keys(found).length > 0) {
          showFieldErrors(found);
          return;
        }
      }
      setFormError(error instanceof ApiError && error.code !== 'NETWORK' && error.message ? failureMessage(error.message) : unexpectedMessage);
    } finally {
      if (isMounted.current) setIsSubmitting(false);
    }
  }

  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const sectionClass = 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6';
  const headingClass = 'text-lg font-semibold text-slate-900';

  const textInput = (
    name: Exclude<FieldName, 'hasIndoorUnit' | 'hasOutdoorUnit' | 'type'>,
    props: { type?: string; autoComplete?: string; inputMode?: 'tel' | 'email' | 'numeric' | 'text'; maxLength?: number; required?: boolean; autoCapitalize?: string } = {},
  ) => (
    <input
      id={fieldId(name)}
      name={name}
      type={props.type ?? 'text'}
      value={values[name]}
      onChange={(event) => update(name, event.target.value)}
      autoComplete={props.autoComplete ?? 'off'}
      inputMode={props.inputMode}
      maxLength={props.maxLength}
      autoCapitalize={props.autoCapitalize}
      required={props.required}
      {...errorAttributes(fieldId(name), errors[name])}
      className={controlClass}
    />
  );

  const checkbox = (name: 'hasIndoorUnit' | 'hasOutdoorUnit', label: string) => (
    <label htmlFor={fieldId(name)} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-800 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
      <input
        id={fieldId(name)}
        name={name}
        type="checkbox"
        checked={values[name]}
        onChange={(event) => update(name, event.target.checked)}
        className="h-5 w-5 rounded border-slate-400 accent-brand-700"
      />
      <span className="text-sm font-medium">{label}</span>
    </label>
  );

  const basicId = `${idPrefix}-basic`;
  const equipmentId = `${idPrefix}-equipment`;

  return (
    <form noValidate onSubmit={handleSubmit} aria-label={ariaLabel} aria-busy={isSubmitting || undefined} className="space-y-6">
      <div aria-live="assertive" ref={alertRef}>
        {formError ? <Alert>{formError}</Alert> : null}
      </div>
      <p className="text-sm text-slate-600">
        Fields marked <span aria-hidden="true" className="text-red-700">*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>

      <section aria-labelledby={basicId} className={sectionClass}>
        <Heading id={basicId} className={headingClass}>
          Basic Information
        </Heading>
        <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-6">
          <FormField id={fieldId('name')} label="Name" isRequired error={errors.name} className="sm:col-span-4">
            {textInput('name', { autoComplete: 'off', maxLength: 200, required: true })}
          </FormField>
          <FormField id={fieldId('type')} label="Type" isRequired error={errors.type} className="sm:col-span-2">
            <select
              id={fieldId('type')}
              name="type"
              value={values.type}
              onChange={(event) => update('type', event.target.value as CustomerType)}
              required
              {...errorAttributes(fieldId('type'), errors.type)}
              className={controlClass}
            >
              {customerTypes.map((type) => (
                <option key={type} value={type}>
                  {customerTypeLabels[type]}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id={fieldId('phone')} label="Phone" isRequired error={errors.phone} className="sm:col-span-3">
            {textInput('phone', { type: 'tel', inputMode: 'tel', maxLength: 40, required: true })}
          </FormField>
          <FormField id={fieldId('email')} label="Email" error={errors.email} className="sm:col-span-3">
            {textInput('email', { type: 'email', inputMode: 'email', maxLength: 254 })}
          </FormField>
          <FormField id={fieldId('address')} label="Address" isRequired error={errors.address} className="sm:col-span-6">
            {textInput('address', { maxLength: 300, required: true })}
          </FormField>
          <FormField id={fieldId('city')} label="City" isRequired error={errors.city} className="sm:col-span-3">
            {textInput('city', { maxLength: 100, required: true })}
          </FormField>
          <FormField id={fieldId('state')} label="State" isRequired error={errors.state} className="sm:col-span-1">
            {textInput('state', { maxLength: 2, required: true, autoCapitalize: 'characters' })}
          </FormField>
          <FormField id={fieldId('zip')} label="ZIP Code" error={errors.zip} className="sm:col-span-2">
            {textInput('zip', { inputMode: 'numeric', maxLength: 10 })}
          </FormField>
          <FormField id={fieldId('notes')} label="Notes" error={errors.notes} className="sm:col-span-6">
            <textarea
              id={fieldId('notes')}
              name="notes"
              rows={3}
              value={values.notes}
              onChange={(event) => update('notes', event.target.value)}
              maxLength={5000}
              {...errorAttributes(fieldId('notes'), errors.notes)}
              className={controlClass}
            />
          </FormField>
        </div>
      </section>

      <section aria-labelledby={equipmentId} className={sectionClass}>
        <Heading id={equipmentId} className={headingClass}>
          HVAC Equipment
        </Heading>
        <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-6">
          <div className="grid grid-cols-1 gap-3 sm:col-span-6 sm:grid-cols-2">
            {checkbox('hasIndoorUnit', 'Has indoor unit')}
            {checkbox('hasOutdoorUnit', 'Has outdoor unit')}
          </div>
          <FormField id={fieldId('unitBrand')} label="Brand" error={errors.unitBrand} className="sm:col-span-2">
            {textInput('unitBrand', { maxLength: 100 })}
          </FormField>
          <FormField id={fieldId('unitModel')} label="Model" error={errors.unitModel} className="sm:col-span-2">
            {textInput('unitModel', { maxLength: 100 })}
          </FormField>
          <FormField id={fieldId('unitSerial')} label="Serial Number" error={errors.unitSerial} className="sm:col-span-2">
            {textInput('unitSerial', { maxLength: 100 })}
          </FormField>
          <FormField id={fieldId('installDate')} label="Install Date" error={errors.installDate} className="sm:col-span-2">
            {textInput('installDate', { type: 'date' })}
          </FormField>
          <FormField id={fieldId('refrigerantType')} label="Refrigerant" error={errors.refrigerantType} className="sm:col-span-2">
            <select
              id={fieldId('refrigerantType')}
              name="refrigerantType"
              value={values.refrigerantType}
              onChange={(event) => update('refrigerantType', event.target.value)}
              {...errorAttributes(fieldId('refrigerantType'), errors.refrigerantType)}
              className={controlClass}
            >
              <option value="">Not specified</option>
              {refrigerantTypes.map((type) => (
                <option key={type} value={type}>
                  {refrigerantLabel(type)}
                </option>
              ))}
              {values.refrigerantType && !(refrigerantTypes as readonly string[]).includes(values.refrigerantType) ? (
                <option value={values.refrigerantType}>{values.refrigerantType}</option>
              ) : null}
            </select>
          </FormField>
          <FormField id={fieldId('tonnage')} label="Tonnage" error={errors.tonnage} className="sm:col-span-2">
            <select
              id={fieldId('tonnage')}
              name="tonnage"
              value={values.tonnage}
              onChange={(event) => update('tonnage', event.target.value)}
              {...errorAttributes(fieldId('tonnage'), errors.tonnage)}
              className={controlClass}
            >
              <option value="">Not specified</option>
              {tonnages.map((tonnage) => (
                <option key={tonnage} value={tonnage}>
                  {tonnageLabel(tonnage)}
                </option>
              ))}
              {values.tonnage && !(tonnages as readonly string[]).includes(values.tonnage) ? (
                <option value={values.tonnage}>{values.tonnage}</option>
              ) : null}
            </select>
          </FormField>
        </div>
      </section>

      {children}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" variant="accent" disabled={isSubmitting}>
          {isSubmitting ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
