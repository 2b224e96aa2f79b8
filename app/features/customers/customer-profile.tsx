import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { customerMessages, type Customer, type CustomerEquipment, type CustomerProfileResponse, type CustomerWorkOrderSummary } from '#shared/customer.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/dialog.tsx';
import { ApiError } from '#client/lib/api.ts';
import { apiErrorMessage, useCustomerProfile, useDeleteCustomer, useUpdateCustomer } from './api.ts';
import { ViewActivityLink } from '#client/features/settings/activity-link.tsx';
import type { DirectoryLocationState } from './customer-directory.tsx';
import { CustomerForm } from './customer-form.tsx';
import { PhotoGallery, PhotoManager } from './customer-photos.tsx';
import {
  cityLine,
  customerTypeLabels,
  customerTypeTones,
  formatCalendarDate,
  mapsSearchUrl,
  newWorkOrderPath,
  placePinPath,
  refrigerantLabel,
  telHref,
  tonnageLabel,
  workOrderStatusLabel,
  workOrderStatusTone,
} from './labels.ts';

const cardClass = 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6';

/**
 * Customer profile (spec 000 sections 2, 4, 8): view mode with contact details, equipment,
 * photos and work order history; Edit Profile switches to the form with the photo manager;
 * Delete asks first. A missing customer shows 'Customer not found'.
 */
export function CustomerProfile({ customerId }: { customerId: string }) {
  const navigate = useNavigate();
  const deletion = useDeleteCustomer(customerId);
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
          <section aria-labelledby="photos-title" className={cardClass}>
            <h2 id="photos-title" className="text-lg font-semibold text-slate-900">
              Equipment Photos
            </h2>
            <div className="mt-4">
              <PhotoGallery photos={photos} />
            </div>
          </section>
          <WorkOrderHistory customerId={customer.id} workOrders={workOrders} />
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

function ProfileView({ profile }: { profile: CustomerProfileResponse }) {
  const { customer } = profile;
  return (
    <section aria-labelledby="contact-title" className={cardClass}>
      <h2 id="contact-title" className="text-lg font-semibold text-slate-900">
        Contact Information
      </h2>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
        <Detail label="Phone">
          <a href={telHref(customer.phone)} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            {customer.phone}
          </a>
        </Detail>
        <Detail label="Email">
          {customer.email ? (
            <a href={`mailto:${customer.email}`} className="font-medium break-all text-brand-700 underline-offset-2 hover:underline">
              {customer.email}
            </a>
          ) : (
            <span className="text-slate-600">{customerMessages.notProvided}</span>
          )}
        </Detail>
        <Detail label="Address">
          <a
            href={mapsSearchUrl(customer)}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            {customer.address}
            <br />
            {cityLine(customer)}
            <span className="sr-only"> (opens Google Maps in a new tab)</span>
          </a>
          <MapLocation customer={customer} />
        </Detail>
        <Detail label="Notes" className="sm:col-span-2 lg:col-span-3">
          {customer.notes ? <span className="whitespace-pre-line">{customer.notes}</span> : <NotRecorded text="No notes" />}
        </Detail>
      </dl>
    </section>
  );
}

/** Where the customer is on the service map, and the way to place (or move) the pin by hand. */
function MapLocation({ customer }: { customer: Customer }) {
  const isPlaced = customer.latitude !== null && customer.longitude !== null;
  const text = isPlaced
    ? null
    : customer.geocodingStatus === 'failed'
      ? 'Not on the map: the address could not be geocoded.'
      : 'Not on the map yet: waiting for geocoding.';
  return (
    <span className="mt-1 block text-sm text-slate-700">
      {text ? <span className="mr-2">{text}</span> : null}
      <Link to={placePinPath(customer.id)} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
        {isPlaced ? 'Move pin on map' : 'Place pin on map'}
      </Link>
    </span>
  );
}

function Detail({ label, className = '', children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1 text-slate-900">{children}</dd>
    </div>
  );
}

function NotRecorded({ text = 'Not recorded' }: { text?: string }) {
  return <span className="text-slate-600">{text}</span>;
}

function YesNo({ value }: { value: boolean }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${value ? 'bg-green-600' : 'bg-slate-400'}`} />
      {value ? 'Yes' : 'No'}
    </span>
  );
}

function HvacEquipment({ customer, equipment }: { customer: Customer; equipment: CustomerEquipment[] }) {
  const orEmpty = (value: string | null, format: (value: string) => string = (text) => text) =>
    value ? format(value) : <NotRecorded />;
  return (
    <section aria-labelledby="equipment-title" className={cardClass}>
      <h2 id="equipment-title" className="text-lg font-semibold text-slate-900">
        HVAC Equipment
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-4 lg:grid-cols-4">
        <Detail label="Indoor unit">
          <YesNo value={customer.hasIndoorUnit} />
        </Detail>
        <Detail label="Outdoor unit">
          <YesNo value={customer.hasOutdoorUnit} />
        </Detail>
        <Detail label="Brand">{orEmpty(customer.unitBrand)}</Detail>
        <Detail label="Model">
          <span className="break-all">{orEmpty(customer.unitModel)}</span>
        </Detail>
        <Detail label="Serial Number">
          <span className="break-all">{orEmpty(customer.unitSerial)}</span>
        </Detail>
        <Detail label="Install Date">{orEmpty(customer.installDate, formatCalendarDate)}</Detail>
        <Detail label="Refrigerant">{orEmpty(customer.refrigerantType, refrigerantLabel)}</Detail>
        <Detail label="Tonnage">{orEmpty(customer.tonnage, tonnageLabel)}</Detail>
      </dl>
      {equipment.length > 0 ? (
        <div className="mt-6">
          <h3 className="text-base font-semibold text-slate-900">Equipment on record</h3>
          <ul className="mt-3 grid grid-cols-1 gap-3 md:grid-cols-2">
            {equipment.map((item) => (
              <li key={item.id} className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
                <p className="font-semibold text-slate-900">
                  {item.equipmentType}
                  {item.location ? <span className="font-normal text-slate-600"> · {item.location}</span> : null}
                </p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-slate-700">
                  <dt className="text-slate-600">Brand</dt>
                  <dd>{item.brand ?? '—'}</dd>
                  <dt className="text-slate-600">Model</dt>
                  <dd className="break-all">{item.model ?? '—'}</dd>
                  <dt className="text-slate-600">Serial</dt>
                  <dd className="break-all">{item.serialNumber ?? '—'}</dd>
                  <dt className="text-slate-600">Warranty</dt>
                  <dd>{item.warrantyStatus ?? '—'}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function WorkOrderHistory({ customerId, workOrders }: { customerId: string; workOrders: CustomerWorkOrderSummary[] }) {
  return (
    <section aria-labelledby="history-title" className={cardClass}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="history-title" className="text-lg font-semibold text-slate-900">
          Work Order History
        </h2>
        <Link to={newWorkOrderPath(customerId)} className={buttonClass('accent', 'sm')}>
          New Work Order
        </Link>
      </div>
      {workOrders.length === 0 ? (
        <p className="mt-4 rounded-md border border-dashed border-slate-300 bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">
          No work orders yet.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200">
          {workOrders.map((order) => {
            const number = order.workOrderNumber || order.id.slice(0, 8);
            return (
              <li key={order.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-mono text-sm text-slate-600">{number}</span>
                    <Badge tone={workOrderStatusTone(order.status)}>{workOrderStatusLabel(order.status)}</Badge>
                  </p>
                  <p className="mt-1 font-medium text-slate-900">{order.title}</p>
                  <p className="text-sm text-slate-600">
                    Service date: <time dateTime={order.serviceDate}>{formatCalendarDate(order.serviceDate)}</time>
                  </p>
                </div>
                <Link to={`/admin/workorders/${encodeURIComponent(order.id)}`} className={buttonClass('secondary', 'sm', 'shrink-0 self-start sm:self-center')}>
                  View Details<span className="sr-only"> of work order {number}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
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
