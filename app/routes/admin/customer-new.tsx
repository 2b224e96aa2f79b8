import { Link, useNavigate } from 'react-router';
import { customerMessages } from '#shared/customer.ts';
import { useCreateCustomer, type DirectoryLocationState, CustomerForm } from '#client/features/customers/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `New Customer | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

/** Spec 000 section 2: New customer; success goes to the directory, Cancel goes back to it. */
export default function NewCustomerRoute() {
  const navigate = useNavigate();
  const create = useCreateCustomer();
  return (
    <section aria-labelledby="new-customer-title" className="mx-auto max-w-4xl space-y-6">
      <nav aria-label="Breadcrumb">
        <Link to="/admin/customers" className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
          <span aria-hidden="true">←</span> Customer Directory
        </Link>
      </nav>
      <div>
        <h1 id="new-customer-title" className="text-2xl font-bold text-slate-900">
          New Customer
        </h1>
        <p className="mt-1 text-sm text-slate-600">Add a customer and the equipment at their address.</p>
      </div>
      <CustomerForm
        ariaLabel="New customer"
        submitLabel="Create Customer"
        failureMessage={customerMessages.createFailed}
        onSubmit={async (values) => {
          const { customer } = await create.mutateAsync(values);
          await navigate('/admin/customers', { state: { createdCustomerName: customer.name } satisfies DirectoryLocationState });
        }}
        onCancel={() => void navigate('/admin/customers')}
      />
    </section>
  );
}
