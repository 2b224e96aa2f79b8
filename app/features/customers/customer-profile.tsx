import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { customerMessages, type Customer, type CustomerProfileResponse } from '#shared/customer.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/dialog.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useIsAdmin } from '#client/features/auth/index.ts';
import { apiErrorMessage, useCustomerProfile, useDeleteCustomer, useUpdateCustomer } from './api.ts';
import { CustomerMessagesSection } from '#client/features/messaging/index.ts';
import { QuotesPanel } from '#client/features/quotes/index.ts';
import { CustomerAgreements } from '#client/features/agreements/index.ts';
import { ViewActivityLink } from '#client/features/settings/index.ts';
import type { DirectoryLocationState } from './customer-directory.tsx';
import { CustomerForm } from './customer-form.tsx';
import { cardClass, HvacEquipment, ProfileView, WorkOrderHistory } from './customer-profile-sections.tsx';
import { PhotoGallery, PhotoManager } from './customer-photos.tsx';
import { customerTypeLabels, customerTypeTones, formatCalendarDate } from './labels.ts';

/**
 * Customer profile (spec 000 sections 2, 4, 8): view mode with contact details, equipment,
 * photos and work order history; Edit Profile switches to the form with the photo manager;
 * Delete asks first. A missing customer shows 'Customer not found'.
 */
export function CustomerProfile({ customerId }: { customerId: string }) {
  const navigate = useNavigate();
  const deletion = useDeleteCustomer(customerId);
  // Deleting a customer is for administrators only (decision 018-f): a dispatcher sees no Delete.
  const canDelete = useIsAdmin();
  // After a delete the profile is gone: do not ask for it again while leaving.
  const profile = useCustomerProfile(customerId, { enabled: !deletion.isSuccess });
  const [mode, setMode] = useState<'view' | 'edit'>('view');
  const [notice, setNotice] = useState<string>();
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<string>();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const hasSwitchedMode = useRef(false);

  // Moving between view and edit mode puts the focus on the title, so the change is announced.
  useEffect(() => {
    if (!hasSwitchedMode.current) return;
    titleRef.current?.focus();
  }, [mode]);

  function switchMode(next: 'view' | 'edit') {
    hasSwitchedMode.current = true;
    setDeleteError(undefined);
    setNotice(undefined);
    setMode(next);
  }

  if (deletion.isSuccess) {
    return (
      <p role="status" className="p-8 text-center text-slate-600">
        Customer deleted. Returning to the directory...
      </p>
    );
  }

  if (profile.isPending) {
    return (
      <p role="status" className="rounded-lg border border-slate-200 bg-white p-8 text-center text-slate-600">
        Loading customer...
      </p>
    );
  }

  if (profile.isError) {
    const error = profile.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <CustomerNotFound />;
    return (
      <div role="alert" className="mx-auto max-w-lg rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
        <p className="font-semibold">The customer could not be loaded.</p>
        <p className="mt-1 text-sm">{apiErrorMessage(error) ?? customerMessages.unexpected}</p>
        <div className="mt-4 flex justify-center gap-3">
          <Button onClick={() => void profile.refetch()} disabled={profile.isFetching}>
            {profile.isFetching ? 'Retrying...' : 'Try again'}
          </Button>
          <Link to="/admin/customers" className={buttonClass('secondary')}>
            Back to Customers
          </Link>
        </div>
      </div>
    );
  }

  const { customer, equipment, photos, workOrders } = profile.data;

  function confirmDelete() {
    deletion.mutate(undefined, {
      onSuccess: () => {
        void navigate('/admin/customers', { replace: true, state: { deletedCustomerName: customer.name } satisfies DirectoryLocationState });
      },
      onError: (error) => {
        setIsConfirmingDelete(false);
        setDeleteError(customerMessages.deleteFailed(apiErrorMessage(error) ?? customerMessages.unexpected));
      },
    });
  }

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb">
        <Link to="/admin/customers" className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
          <span aria-hidden="true">←</span> Customer Directory
        </Link>
      </nav>

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 ref={titleRef} tabIndex={-1} className="text-2xl font-bold break-words text-slate-900 focus:outline-none">
              {customer.name}
            </h1>
            <Badge tone={customerTypeTones[customer.type]}>{customerTypeLabels[customer.type]}</Badge>
          </div>
          <p className="mt-1 text-sm text-slate-600">
            {mode === 'edit' ? 'Editing profile' : `Customer since ${formatCalendarDate(customer.createdAt)}`}
            {mode === 'view' ? <ViewActivityLink entityType="customer" entityId={customer.id} className="ml-3" /> : null}
          </p>
        </div>
        {mode === 'view' ? (
          <div className="flex w-full gap-3 sm:w-auto">
            <Button onClick={() => switchMode('edit')} className="flex-1 sm:flex-none">
              <PencilIcon />
              Edit Profile
            </Button>
            {canDelete ? (
              <Button
                variant="danger"
                onClick={() => {
                  setDeleteError(undefined);
                  setIsConfirmingDelete(true);
                }}
                className="flex-1 sm:flex-none"
              >
                Delete
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>

      <div aria-live="polite">{notice ? <Alert tone="success">{notice}</Alert> : null}</div>
      <div aria-live="assertive">{deleteError ? <Alert>{deleteError}</Alert> : null}</div>

      {mode === 'view' ? (
        <ProfileView profile={profile.data} />
      ) : (
        <ProfileEdit
          customer={customer}
          photos={photos}
          onSaved={() => {
            switchMode('view');
            setNotice('Changes saved.');
          }}
          onCancel={() => switchMode('view')}
        />
      )}

      {mode === 'view' ? (
        <>
          <HvacEquipment customer={customer} equipment={equipment} />
          <CustomerAgreements customerId={customer.id} equipment={equipment} canCancel={canDelete} />
          <section aria-labelledby="photos-title" className={cardClass}>
            <h2 id="photos-title" className="text-lg font-semibold text-slate-900">
              Equipment Photos
            </h2>
            <div className="mt-4">
              <PhotoGallery photos={photos} />
            </div>
          </section>
          <WorkOrderHistory customerId={customer.id} workOrders={workOrders} />
          <QuotesPanel source={{ customerId: customer.id }} filter={{ customerId: customer.id }} defaultTitle={`Quote for ${customer.name}`} />
          <CustomerMessagesSection customerId={customer.id} changedAt={customer.updatedAt} />
        </>
      ) : null}

      {isConfirmingDelete ? (
        <ConfirmDialog
          title="Delete customer"
          message={customerMessages.deleteConfirm}
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          isPending={deletion.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setIsConfirmingDelete(false)}
        />
      ) : null}
    </div>
  );
}

function ProfileEdit({
  customer,
  photos,
  onSaved,
  onCancel,
}: {
  customer: Customer;
  photos: CustomerProfileResponse['photos'];
  onSaved: () => void;
  onCancel: () => void;
}) {
  const update = useUpdateCustomer(customer.id);
  const photosId = useId();
  return (
    <CustomerForm
      initialCustomer={customer}
      ariaLabel={`Edit ${customer.name}`}
      submitLabel="Save Changes"
      failureMessage={customerMessages.updateFailed}
      onSubmit={async (values) => {
        await update.mutateAsync(values);
        onSaved();
      }}
      onCancel={onCancel}
    >
      <section aria-labelledby={photosId} className={cardClass}>
        <h2 id={photosId} className="text-lg font-semibold text-slate-900">
          Equipment Photos
        </h2>
        <div className="mt-4">
          <PhotoManager customerId={customer.id} photos={photos} />
        </div>
      </section>
    </CustomerForm>
  );
}

/** Spec 000 section 2: the variant of the screen for a customer that does not exist. */
export function CustomerNotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-2xl font-bold text-slate-900">{customerMessages.notFoundTitle}</h1>
      <p className="mt-2 text-slate-600">{customerMessages.notFoundText}</p>
      <Link to="/admin/customers" className={buttonClass('primary', 'md', 'mt-6')}>
        Back to Customer Directory
      </Link>
    </div>
  );
}

function PencilIcon() {
  return (
    <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round">
      <path d="M4 20h4L19 9l-4-4L4 16z" />
    </svg>
  );
}
