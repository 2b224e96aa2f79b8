import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { customerInputSchema, customerMessages, type Customer, type CustomerValues } from '#shared/customer.ts';
import { customerTypes, type CustomerType } from '#shared/enums.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError } from '#client/lib/api.ts';
import { EquipmentFields, TextField, type CustomerFieldErrors, type CustomerFieldName, type CustomerFormControls } from './customer-form-fields.tsx';
import { customerTypeLabels } from './labels.ts';

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

type FieldName = CustomerFieldName;
type FieldErrors = CustomerFieldErrors;

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
  const sectionClass = cardClassName('p-4 sm:p-6');
  const headingClass = 'text-lg font-semibold text-slate-900';

  const form: CustomerFormControls = { fieldId, values, errors, update };

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
          <TextField form={form} name="name" label="Name" maxLength={200} required className="sm:col-span-4" />
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
          <TextField form={form} name="phone" label="Phone" type="tel" inputMode="tel" maxLength={40} required className="sm:col-span-3" />
          <TextField form={form} name="email" label="Email" type="email" inputMode="email" maxLength={254} className="sm:col-span-3" />
          <TextField form={form} name="address" label="Address" maxLength={300} required className="sm:col-span-6" />
          <TextField form={form} name="city" label="City" maxLength={100} required className="sm:col-span-3" />
          <TextField form={form} name="state" label="State" maxLength={2} required autoCapitalize="characters" className="sm:col-span-1" />
          <TextField form={form} name="zip" label="ZIP Code" inputMode="numeric" maxLength={10} className="sm:col-span-2" />
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
        <EquipmentFields form={form} />
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
