import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { customerMessages, type CustomerListItem } from '#shared/customer.ts';
import { todayIn } from '#shared/dates.ts';
import { customerTypes } from '#shared/enums.ts';
import { leadConversionSchema, leadMessages, type LeadConversionInput, type LeadConversionProposal, type LeadConversionResult, type LeadListItem } from '#shared/lead.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { CustomerPicker, customerTypeLabels } from '#client/features/customers/index.ts';
import { WorkOrderFieldset } from '#client/features/work-orders/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { useConversionProposal, useConvertLead } from './api.ts';

type CustomerFields = { name: string; type: string; phone: string; email: string; address: string; city: string; state: string; zip: string };
type WorkOrderFields = LeadConversionProposal['workOrder'];
type Errors = Record<string, string | undefined>;

const customerFieldOrder: (keyof CustomerFields)[] = ['name', 'type', 'phone', 'email', 'address', 'city', 'state', 'zip'];
const workOrderFieldOrder: (keyof WorkOrderFields)[] = ['title', 'serviceType', 'priority', 'serviceDate', 'timePreference', 'description', 'notes'];

/** Problems as the shared schema and the server name them ('customer.phone', 'workOrder.title'), keyed the same way. */
function errorsFrom(issues: { path: string; message: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) if (!errors[issue.path]) errors[issue.path] = issue.message;
  return errors;
}

/**
 * 'Qualify & Convert to Work Order': the customer (the one with the same phone or e-mail, or a new
 * one from the lead's details) and the work order prefilled from the lead; staff adjust, the server
 * does all of it in one transaction.
 */
export function ConvertLeadDialog({
  lead,
  onClose,
  onConverted,
}: {
  lead: LeadListItem;
  onClose: () => void;
  onConverted: (result: LeadConversionResult) => void;
}) {
  const proposal = useConversionProposal(lead.id);
  const convert = useConvertLead(lead.id);
  const closeRef = useRef<HTMLButtonElement>(null);

  return (
    <Dialog
      title={leadMessages.convertTitle}
      description={`Create a work order for ${lead.name ?? 'this lead'} and link the lead to its customer.`}
      onClose={() => (convert.isPending ? undefined : onClose())}
      initialFocusRef={closeRef}
      className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl"
    >
      {proposal.isPending ? (
        <p role="status" className="mt-4 text-slate-600">
          Preparing the work order...
        </p>
      ) : proposal.isError ? (
        <div className="mt-4 space-y-3">
          <Alert>{proposal.error instanceof ApiError ? leadMessages.convertFailed(proposal.error.message) : 'The lead could not be loaded.'}</Alert>
          <Button ref={closeRef} variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      ) : (
        <ConversionForm proposal={proposal.data} convert={convert} closeRef={closeRef} onClose={onClose} onConverted={onConverted} />
      )}
    </Dialog>
  );
}

function ConversionForm({
  proposal,
  convert,
  closeRef,
  onClose,
  onConverted,
}: {
  proposal: LeadConversionProposal;
  convert: ReturnType<typeof useConvertLead>;
  closeRef: React.RefObject<HTMLButtonElement | null>;
  onClose: () => void;
  onConverted: (result: LeadConversionResult) => void;
}) {
  const idPrefix = useId();
  const fieldId = (path: string) => `${idPrefix}-${path.replace('.', '-')}`;
  const matched = proposal.matchedCustomer;
  const [customerMode, setCustomerMode] = useState<'existing' | 'new'>(matched ? 'existing' : 'new');
  const [existing, setExisting] = useState<CustomerListItem | null>(matched);
  const [customer, setCustomer] = useState<CustomerFields>({
    name: proposal.newCustomer.name ?? '',
    type: proposal.newCustomer.type ?? 'residential',
    phone: proposal.newCustomer.phone ?? '',
    email: proposal.newCustomer.email ?? '',
    address: proposal.newCustomer.address ?? '',
    city: proposal.newCustomer.city ?? 'Bluffton',
    state: proposal.newCustomer.state ?? 'SC',
    zip: proposal.newCustomer.zip ?? '',
  });
  const [workOrder, setWorkOrder] = useState<WorkOrderFields>(proposal.workOrder);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [focusRequest, setFocusRequest] = useState<{ path: string }>();

  useEffect(() => {
    if (focusRequest) document.getElementById(fieldId(focusRequest.path))?.focus();
  }, [focusRequest]); // eslint-disable-line react-hooks/exhaustive-deps

  function body(): LeadConversionInput {
    return {
      customer:
        customerMode === 'existing' ? { mode: 'existing', customerId: existing?.id ?? '' } : { mode: 'new', ...customer, type: customer.type as 'residential' },
      workOrder,
    };
  }

  function showProblems(issues: { path: string; message: string }[]) {
    const next = errorsFrom(issues);
    setErrors(next);
    const order = ['customer.customerId', ...customerFieldOrder.map((name) => `customer.${name}`), ...workOrderFieldOrder.map((name) => `workOrder.${name}`)];
    const first = order.find((path) => next[path]);
    if (first) setFocusRequest({ path: first });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    const values = body();
    const checked = leadConversionSchema(todayIn(company.timeZone)).safeParse(values);
    if (!checked.success) {
      showProblems(checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
      setFormError('Please check the highlighted fields.');
      return;
    }
    setErrors({});
    try {
      onConverted(await convert.mutateAsync(values));
    } catch (error) {
      if (error instanceof ApiError && Array.isArray(error.details)) showProblems(error.details as { path: string; message: string }[]);
      setFormError(error instanceof ApiError && error.code !== 'NETWORK' ? leadMessages.convertFailed(error.message) : 'An unexpected error occurred');
    }
  }

  const text = (path: `customer.${keyof CustomerFields}` | `workOrder.${keyof WorkOrderFields}`) => ({
    id: fieldId(path),
    ...errorAttributes(fieldId(path), errors[path]),
    className: controlClass,
  });
  const setCustomerField = (name: keyof CustomerFields, value: string) => {
    setCustomer((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [`customer.${name}`]: undefined }));
  };
  const setWorkOrderField = (name: keyof WorkOrderFields, value: string) => {
    setWorkOrder((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [`workOrder.${name}`]: undefined }));
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Convert lead to work order" className="mt-4 space-y-5">
      <div aria-live="assertive">{formError ? <Alert>{formError}</Alert> : null}</div>

      <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 font-semibold text-slate-900">Customer</legend>
        {matched ? null : (
          <p className="text-sm text-slate-600">No customer has this phone number or e-mail yet: a new customer is proposed from the lead.</p>
        )}
        <label className="flex items-start gap-2">
          <input type="radio" name={`${idPrefix}-customer-mode`} checked={customerMode === 'existing'} onChange={() => setCustomerMode('existing')} className="mt-1 size-4" />
          <span>
            Use an existing customer{existing ? ': ' : ''}
            {existing ? <strong>{existing.name}</strong> : null}
            {existing ? <span className="block text-sm text-slate-600">{[existing.phone, existing.email, existing.address].filter(Boolean).join(' · ')}</span> : null}
          </span>
        </label>
        {customerMode === 'existing' ? (
          <CustomerPicker
            id={fieldId('customer.customerId')}
            label="Find another customer"
            hint="(name or phone)"
            placeholder={null}
            noResults={customerMessages.noResultsTitle}
            className="ml-6 space-y-2"
            error={errors['customer.customerId']}
            onPick={(picked) => {
              setExisting(picked);
              setErrors((current) => ({ ...current, 'customer.customerId': undefined }));
            }}
          />
        ) : null}
        <label className="flex items-start gap-2">
          <input type="radio" name={`${idPrefix}-customer-mode`} checked={customerMode === 'new'} onChange={() => setCustomerMode('new')} className="mt-1 size-4" />
          <span>Create a new customer from the lead</span>
        </label>
        {customerMode === 'new' ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField id={fieldId('customer.name')} label="Name" isRequired error={errors['customer.name']}>
              <input {...text('customer.name')} value={customer.name} onChange={(event) => setCustomerField('name', event.target.value)} required autoComplete="off" />
            </FormField>
            <FormField id={fieldId('customer.type')} label="Type" isRequired error={errors['customer.type']}>
              <select {...text('customer.type')} value={customer.type} onChange={(event) => setCustomerField('type', event.target.value)}>
                {customerTypes.map((value) => (
                  <option key={value} value={value}>
                    {customerTypeLabels[value]}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id={fieldId('customer.phone')} label="Phone" isRequired error={errors['customer.phone']}>
              <input {...text('customer.phone')} type="tel" value={customer.phone} onChange={(event) => setCustomerField('phone', event.target.value)} required autoComplete="off" />
            </FormField>
            <FormField id={fieldId('customer.email')} label="Email" error={errors['customer.email']}>
              <input {...text('customer.email')} type="email" value={customer.email} onChange={(event) => setCustomerField('email', event.target.value)} autoComplete="off" />
            </FormField>
            <FormField id={fieldId('customer.address')} label="Address" isRequired error={errors['customer.address']} className="sm:col-span-2">
              <input {...text('customer.address')} value={customer.address} onChange={(event) => setCustomerField('address', event.target.value)} required autoComplete="off" />
            </FormField>
            <FormField id={fieldId('customer.city')} label="City" isRequired error={errors['customer.city']}>
              <input {...text('customer.city')} value={customer.city} onChange={(event) => setCustomerField('city', event.target.value)} required autoComplete="off" />
            </FormField>
            <div className="grid grid-cols-2 gap-3">
              <FormField id={fieldId('customer.state')} label="State" isRequired error={errors['customer.state']}>
                <input {...text('customer.state')} value={customer.state} onChange={(event) => setCustomerField('state', event.target.value)} required maxLength={2} autoComplete="off" />
              </FormField>
              <FormField id={fieldId('customer.zip')} label="ZIP" error={errors['customer.zip']}>
                <input {...text('customer.zip')} value={customer.zip} onChange={(event) => setCustomerField('zip', event.target.value)} inputMode="numeric" autoComplete="off" />
              </FormField>
            </div>
          </div>
        ) : null}
      </fieldset>

      <WorkOrderFieldset
        legend="Work Order"
        className="space-y-3 rounded-md border border-slate-200 p-3"
        values={workOrder}
        errors={{
          title: errors['workOrder.title'],
          serviceType: errors['workOrder.serviceType'],
          priority: errors['workOrder.priority'],
          serviceDate: errors['workOrder.serviceDate'],
          timePreference: errors['workOrder.timePreference'],
          description: errors['workOrder.description'],
        }}
        fieldId={(name) => fieldId(`workOrder.${name}`)}
        onChange={setWorkOrderField}
      >
        <FormField id={fieldId('workOrder.notes')} label="Notes" error={errors['workOrder.notes']}>
          <textarea {...text('workOrder.notes')} value={workOrder.notes} onChange={(event) => setWorkOrderField('notes', event.target.value)} rows={2} />
        </FormField>
      </WorkOrderFieldset>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button ref={closeRef} variant="secondary" onClick={onClose} disabled={convert.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="accent" disabled={convert.isPending}>
          {convert.isPending ? 'Converting...' : 'Create Work Order'}
        </Button>
      </div>
    </form>
  );
}
