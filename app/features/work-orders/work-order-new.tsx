import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { customerMessages, type CustomerValues } from '#shared/customer.ts';
import { todayIn } from '#shared/dates.ts';
import { workOrderCreateSchema, workOrderMessages } from '#shared/work-order.ts';
import { checkServiceAddress, isSameAddress, type PostalAddress } from '#shared/work-order-place.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { useCustomerProfile, CustomerPicker, type PickedCustomer, CustomerForm } from '#client/features/customers/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { useCreateWorkOrder, type WorkOrderFields } from './api.ts';
import { workOrderListPath } from './labels.ts';
import { noServiceAddress, serviceAddressBody, ServiceAddressFieldset, type ServiceAddressValues, WorkOrderFieldset } from './work-order-fields.tsx';
import type { WorkOrderListLocationState } from './work-order-list.tsx';

type FormValues = WorkOrderFields & ServiceAddressValues;
type FieldName = keyof FormValues;
type FieldErrors = Partial<Record<FieldName, string>>;
const fieldOrder: readonly FieldName[] = [
  'title', 'serviceType', 'priority', 'serviceDate', 'timePreference', 'description', 'notes',
  'serviceAddress', 'serviceCity', 'serviceState', 'serviceZip',
];

/**
 * The body's service address: what the form holds, unless it is the customer's address on file
 * (the map's property of a customer who lives there, or a new customer made with it).
 */
function serviceAddressFor(values: ServiceAddressValues, customer: Partial<PostalAddress> | undefined) {
  const body = serviceAddressBody(values);
  if (!body.serviceAddress || !customer?.address) return body;
  const place = { address: body.serviceAddress, city: body.serviceCity, state: body.serviceState, zip: body.serviceZip };
  return isSameAddress(place, { ...customer, address: customer.address }) ? serviceAddressBody(noServiceAddress) : body;
}


/**
 * New work order (spec 000 sections 2 and 5): pick a customer (or preselect one with ?customer=),
 * or add a new one inline (sent with the work order in one request, one transaction), then the
 * work order details. Success goes to the list with the spec's message.
 */
export function NewWorkOrder({
  preselectedCustomerId,
  property,
}: {
  preselectedCustomerId?: string;
  /** The address the work is at (from the service map): shown, and the new customer form starts with it. */
  property?: { address: string; city: string; state: string; zip: string };
}) {
  const navigate = useNavigate();
  const create = useCreateWorkOrder();
  const idPrefix = useId();
  const fieldId = (name: FieldName) => `${idPrefix}-${name}`;
  const today = todayIn(company.timeZone);
  const [mode, setMode] = useState<'pick' | 'new'>('pick');
  const [picked, setPicked] = useState<PickedCustomer>();
  const [values, setValues] = useState<FormValues>({
    title: '',
    serviceType: 'repair',
    priority: 'normal',
    serviceDate: today,
    timePreference: 'morning',
    description: '',
    notes: '',
    // The map's 'Create Work Order' gives the property: where the job is unless it is the customer's own address.
    ...(property ? { serviceAddress: property.address, serviceCity: property.city, serviceState: property.state, serviceZip: property.zip } : noServiceAddress),
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [focusRequest, setFocusRequest] = useState<{ field: FieldName }>();
  const alertRef = useRef<HTMLDivElement>(null);

  const preselected = useCustomerProfile(preselectedCustomerId ?? '', { enabled: Boolean(preselectedCustomerId) });
  const preselectedCustomer = preselected.data?.customer;
  const [appliedPreselection, setAppliedPreselection] = useState<string>();
  if (preselectedCustomer && appliedPreselection !== preselectedCustomer.id) {
    setAppliedPreselection(preselectedCustomer.id);
    setPicked(preselectedCustomer);
  }

  useEffect(() => {
    if (focusRequest) document.getElementById(`${idPrefix}-${focusRequest.field}`)?.focus();
  }, [focusRequest, idPrefix]);

  useEffect(() => {
    if (formError) alertRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [formError]);

  function update(name: FieldName, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
  }

  /** The work order fields, checked with the shared schema (the customer id is checked apart). */
  function validate() {
    const result = workOrderCreateSchema(today).omit({ customerId: true }).superRefine(checkServiceAddress).safeParse(values);
    if (result.success) {
      setErrors({});
      // The fields as typed; the choices with the types the schema checked (the same values).
      const { serviceType, priority, timePreference } = result.data;
      return { ...values, serviceType, priority, timePreference };
    }
    const next: FieldErrors = {};
    for (const issue of result.error.issues) {
      const field = issue.path[0] as FieldName;
      if (fieldOrder.includes(field) && !next[field]) next[field] = issue.message;
    }
    setErrors(next);
    const first = fieldOrder.find((name) => next[name]);
    if (first) setFocusRequest({ field: first });
    return undefined;
  }

  async function send(body: Parameters<typeof create.mutateAsync>[0]) {
    const { workOrder } = await create.mutateAsync(body);
    const number = workOrder.workOrderNumber ? ` (${workOrder.workOrderNumber})` : '';
    await navigate(workOrderListPath, { state: { message: `${workOrderMessages.created}${number}` } satisfies WorkOrderListLocationState });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    if (!picked) {
      setFormError(workOrderMessages.selectCustomer);
      return;
    }
    const fields = validate();
    if (!fields) return;
    try {
      await send({ ...fields, ...serviceAddressFor(fields, picked), customerId: picked.id });
    } catch (error) {
      setFormError(error instanceof ApiError && error.code !== 'NETWORK' ? `${workOrderMessages.createFailed}: ${error.message}` : workOrderMessages.unexpected);
    }
  }

  /**
   * Inline customer: the CustomerForm validates its part; the work order part is checked here.
   * Which part failed decides the form's message ('Error creating customer' for the customer).
   */
  const failedPart = useRef<'customer' | 'workOrder'>('workOrder');
  async function onSubmitWithNewCustomer(customer: CustomerValues) {
    setFormError(undefined);
    const fields = validate();
    if (!fields) {
      failedPart.current = 'workOrder';
      throw new ApiError(400, 'VALIDATION_FAILED', 'Please check the work order details.');
    }
    try {
      await send({ ...fields, ...serviceAddressFor(fields, customer), customer });
    } catch (error) {
      failedPart.current = mentionsCustomer(error) ? 'customer' : 'workOrder';
      throw error;
    }
  }

  const workOrderFields = (
    <WorkOrderFieldset legend="Work Order Details" values={values} errors={errors} fieldId={fieldId} onChange={update}>
      <FormField id={fieldId('notes')} label="Notes" error={errors.notes}>
        <textarea id={fieldId('notes')} value={values.notes} onChange={(event) => update('notes', event.target.value)} rows={3} className={controlClass} {...errorAttributes(fieldId('notes'), errors.notes)} />
      </FormField>
      <ServiceAddressFieldset values={values} errors={errors} fieldId={fieldId} onChange={update} />
    </WorkOrderFieldset>
  );

  return (
    <section aria-labelledby="new-work-order-title" className="mx-auto max-w-4xl space-y-6">
      <nav aria-label="Breadcrumb">
        <Link to={workOrderListPath} className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
          <span aria-hidden="true">←</span> Work Orders
        </Link>
      </nav>
      <div>
        <h1 id="new-work-order-title" className="text-2xl font-bold text-slate-900">
          New Work Order
        </h1>
        <p className="mt-1 text-sm text-slate-600">Choose the customer, then describe the job.</p>
        {property ? (
          <p className="mt-2 text-sm text-slate-800" data-testid="work-order-property">
            <span className="font-semibold">Property: </span>
            {[property.address, property.city, [property.state, property.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
          </p>
        ) : null}
      </div>

      <section aria-labelledby="customer-section-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="customer-section-title" className="text-lg font-semibold text-slate-900">
            Customer
          </h2>
          {mode === 'pick' ? (
            <Button variant="secondary" size="sm" onClick={() => { setMode('new'); setFormError(undefined); }}>
              Add New Customer
            </Button>
          ) : (
            <Button variant="secondary" size="sm" onClick={() => setMode('pick')}>
              Select Existing Customer
            </Button>
          )}
        </div>
        {mode === 'pick' ? (
          <CustomerPicker
            picked={picked}
            isLoadingPreselection={Boolean(preselectedCustomerId) && preselected.isPending}
            onPick={(customer) => {
              setPicked(customer);
              setFormError(undefined);
            }}
            onClear={() => setPicked(undefined)}
          />
        ) : (
          <p className="text-sm text-slate-600">The new customer is saved together with the work order.</p>
        )}
      </section>

      {mode === 'new' ? (
        <CustomerForm
          initialCustomer={property ? { address: property.address, city: property.city, state: property.state || undefined, zip: property.zip } : undefined}
          ariaLabel="New work order with a new customer"
          headingLevel={2}
          submitLabel="Create Work Order"
          pendingLabel="Creating..."
          failureMessage={(message) =>
            failedPart.current === 'customer' ? customerMessages.createFailedInWorkOrderFlow : `${workOrderMessages.createFailed}: ${message}`
          }
          unexpectedMessage={workOrderMessages.unexpected}
          onSubmit={onSubmitWithNewCustomer}
          onCancel={() => void navigate(workOrderListPath)}
        >
          {workOrderFields}
        </CustomerForm>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="New work order" className="space-y-6">
          <div ref={alertRef} aria-live="assertive">
            {formError ? <Alert>{formError}</Alert> : null}
          </div>
          {workOrderFields}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => void navigate(workOrderListPath)}>
              Cancel
            </Button>
            <Button type="submit" variant="accent" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Work Order'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

/** Whether the server's refusal is about the inline customer (a problem path under "customer"). */
function mentionsCustomer(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (Array.isArray(error.details)) {
    return (error.details as { path?: unknown }[]).some((problem) => {
      const path = Array.isArray(problem.path) ? problem.path.map(String).join('.') : String(problem.path ?? '');
      return /(^|[./])customer([./]|$)/.test(path);
    });
  }
  return /customer/i.test(error.message);
}
