import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import { googleMapsSearchUrl, mapDefaults, mapMessages, type MapCustomer, type MapCustomerDetails, type MapProperty, type MapPropertyDetails, type MapWorkOrderSummary } from '#shared/map.ts';
import { fieldStepOf, fieldStepText } from '#shared/tech.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { company } from '#client/lib/company.ts';
import { cityLine, customerProfilePath, customerTypeLabels, customerTypeTones, telHref, workOrderStatusLabel, workOrderStatusTone } from '#client/features/customers/index.ts';
import { useMapCustomerDetails, useMapPropertyDetails } from './api.ts';

// The popups (opened by a marker) and the sidebar (opened by 'View Details'), for both views.
// What the list answer already has shows at once; the rest loads on demand.

type Address = { address: string; city: string; state: string; zip?: string | null };

/** The new work order screen for a customer, or for an address (whose fields the new-customer form takes). */
export function newWorkOrderHref(address: Address, customerId?: string): string {
  const params = new URLSearchParams();
  if (customerId) params.set('customer', customerId);
  params.set('address', address.address);
  if (address.city) params.set('city', address.city);
  if (address.state) params.set('state', address.state);
  if (address.zip) params.set('zip', address.zip);
  return `/admin/workorders/new?${params}`;
}

const workOrderNumber = (workOrder: MapWorkOrderSummary) => workOrder.workOrderNumber || workOrder.id.slice(0, 8);

function DetailsStatus({ isPending, isError, onRetry }: { isPending: boolean; isError: boolean; onRetry: () => void }) {
  if (isPending) return <p role="status" className="text-sm text-slate-600">Loading details...</p>;
  if (!isError) return null;
  return (
    <p role="alert" className="text-sm text-red-800">
      The details could not be loaded.{' '}
      <button type="button" className="font-semibold underline" onClick={onRetry}>
        {mapMessages.retry}
      </button>
    </p>
  );
}

function StatusBadges({ property }: { property: MapProperty }) {
  return (
    <div className="flex flex-wrap gap-1">
      <Badge tone="warning">{property.pendingCount} Pending</Badge>
      <Badge tone="info">{property.scheduledCount} Scheduled</Badge>
      <Badge tone="primary">{property.inProgressCount} In Progress</Badge>
    </div>
  );
}

function WorkOrderItem({ workOrder }: { workOrder: MapWorkOrderSummary }) {
  return (
    <li className="rounded border border-slate-200 px-2 py-1 text-sm">
      <Link to={`/admin/workorders/${encodeURIComponent(workOrder.id)}`} className="font-semibold text-brand-700 hover:underline">
        {workOrderNumber(workOrder)}
      </Link>{' '}
      <span className="text-slate-900">{workOrder.title}</span>
      <span className="mt-0.5 flex flex-wrap items-center gap-1 text-xs text-slate-600">
        <span className="capitalize">{workOrder.serviceType}</span>
        <Badge tone={workOrderStatusTone(workOrder.status)}>{workOrderStatusLabel(workOrder.status)}</Badge>
        <FieldStepNote workOrder={workOrder} />
      </span>
    </li>
  );
}

/** The active work orders, then today's completed visits ("Done 2:15 PM": the marker's ring, issue 19). */
function WorkOrderList({ details }: { details: MapPropertyDetails }) {
  const shown = details.activeWorkOrderDetails.slice(0, mapDefaults.popupWorkOrders);
  const more = details.activeWorkOrders - shown.length;
  const done = details.doneTodayDetails.slice(0, mapDefaults.popupWorkOrders);
  const doneId = useId();
  return (
    <div className="space-y-2">
      {shown.length === 0 ? (
        <p className="text-sm text-slate-600">{mapMessages.noActiveWorkOrders}</p>
      ) : (
        <div>
          <ul aria-label="Active work orders" className="space-y-1.5">
            {shown.map((workOrder) => (
              <WorkOrderItem key={workOrder.id} workOrder={workOrder} />
            ))}
          </ul>
          {more > 0 ? <p className="mt-1 text-sm text-slate-600">{mapMessages.more(more)}</p> : null}
        </div>
      )}
      {done.length > 0 ? (
        <div>
          <p id={doneId} className="text-xs font-semibold text-slate-700 uppercase">
            {mapMessages.doneToday}
          </p>
          <ul aria-labelledby={doneId} className="mt-1 space-y-1.5">
            {done.map((workOrder) => (
              <WorkOrderItem key={workOrder.id} workOrder={workOrder} />
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** Where the technician is with this work order, and since when (issue 19). */
function FieldStepNote({ workOrder }: { workOrder: MapWorkOrderSummary }) {
  const field = fieldStepOf(workOrder);
  return field ? <span data-testid="map-field-step">{fieldStepText(field, company.timeZone)}</span> : null;
}

/** The single customer at a property, when there is exactly one (the new work order is for them). */
const onlyCustomerId = (details: MapPropertyDetails | undefined) => (details?.customers.length === 1 ? details.customers[0]!.id : undefined);

export function PropertyPopup({ property, onViewDetails }: { property: MapProperty; onViewDetails: () => void }) {
  const details = useMapPropertyDetails(property);
  return (
    <div className="space-y-2" data-testid="map-popup">
      <h2 className="text-base font-bold text-slate-900">{property.address}</h2>
      <p className="text-sm text-slate-700">{cityLine(property)}</p>
      <p className="flex flex-wrap items-center gap-1 text-sm text-slate-700">
        <Badge tone={customerTypeTones[property.propertyType]}>{customerTypeLabels[property.propertyType]}</Badge>
        <span>
          {property.customerCount} {property.customerCount === 1 ? 'customer' : 'customers'}
        </span>
      </p>
      <StatusBadges property={property} />
      <DetailsStatus isPending={details.isPending} isError={details.isError} onRetry={() => void details.refetch()} />
      {details.data ? <WorkOrderList details={details.data} /> : null}
      <div className="flex flex-wrap gap-2 pt-1">
        <Button size="sm" onClick={onViewDetails}>
          {mapMessages.viewDetails}
        </Button>
        <Link to={newWorkOrderHref(property, onlyCustomerId(details.data))} className={buttonClass('accent', 'sm')}>
          {mapMessages.newWorkOrder}
        </Link>
      </div>
    </div>
  );
}

export function CustomerPopup({ customer, onViewDetails }: { customer: MapCustomer; onViewDetails: () => void }) {
  const details = useMapCustomerDetails(customer.id);
  const data = details.data;
  return (
    <div className="space-y-2" data-testid="map-popup">
      <h2 className="text-base font-bold text-slate-900">{customer.name}</h2>
      {data ? <p className="text-sm text-slate-700">{[data.address, cityLine(data)].filter(Boolean).join(', ')}</p> : null}
      <p className="flex flex-wrap gap-2">
        <Badge tone={customerTypeTones[customer.type]}>{customerTypeLabels[customer.type]}</Badge>
        {data?.isMember ? <Badge tone="accent">Plan member</Badge> : null}
      </p>
      {data ? (
        <p className="text-sm">
          <a href={telHref(data.phone)} className="text-brand-700 hover:underline">
            {data.phone}
          </a>
          {data.email ? (
            <>
              <br />
              <a href={`mailto:${data.email}`} className="break-all text-brand-700 hover:underline">
                {data.email}
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      <DetailsStatus isPending={details.isPending} isError={details.isError} onRetry={() => void details.refetch()} />
      <p className="text-sm font-medium text-slate-800">
        {customer.activeWorkOrders > 0 ? `${customer.activeWorkOrders} active work ${customer.activeWorkOrders === 1 ? 'order' : 'orders'}` : mapMessages.noActiveWorkOrders}
      </p>
      <div className="flex flex-wrap gap-2 pt-1">
        <Link to={customerProfilePath(customer.id)} className={buttonClass('primary', 'sm')}>
          {mapMessages.viewCustomer}
        </Link>
        {/* Not in the spec's customer popup, but its Customer Details sidebar needs a way in. */}
        <Button size="sm" variant="secondary" onClick={onViewDetails}>
          {mapMessages.viewDetails}
        </Button>
        <Link to={data ? newWorkOrderHref(data, customer.id) : `/admin/workorders/new?customer=${encodeURIComponent(customer.id)}`} className={buttonClass('accent', 'sm')}>
          {mapMessages.newWorkOrder}
        </Link>
      </div>
    </div>
  );
}

function SidebarFrame({ title, onClose, children }: { title: string; onClose: () => void; children: React.ReactNode }) {
  // Opened from a popup: focus moves here (below the map on a phone, where it is scrolled into view).
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
    headingRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <aside aria-labelledby="map-sidebar-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="map-sidebar">
      <div className="flex items-start justify-between gap-2">
        <h2 id="map-sidebar-title" ref={headingRef} tabIndex={-1} className="text-lg font-bold text-slate-900 focus:outline-none">
          {title}
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close details">
          <span aria-hidden="true">✕</span>
        </Button>
      </div>
      <div className="mt-3 space-y-3">{children}</div>
    </aside>
  );
}

function SidebarActions({ address, customerId }: { address: Address; customerId?: string }) {
  return (
    <div className="flex flex-col gap-2 pt-2">
      <Link to={newWorkOrderHref(address, customerId)} className={buttonClass('accent', 'sm')}>
        {mapMessages.createWorkOrder}
      </Link>
      <a href={googleMapsSearchUrl(address)} target="_blank" rel="noopener noreferrer" className={buttonClass('secondary', 'sm')}>
        {mapMessages.openInGoogleMaps}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    </div>
  );
}

const Term = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <div className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm">
    <dt className="text-slate-600">{label}</dt>
    <dd className="text-right font-medium text-slate-900">{children}</dd>
  </div>
);

export function PropertySidebar({ property, onClose }: { property: MapProperty; onClose: () => void }) {
  const details = useMapPropertyDetails(property);
  return (
    <SidebarFrame title={mapMessages.propertyDetails} onClose={onClose}>
      <div>
        <p className="font-semibold text-slate-900">{property.address}</p>
        <p className="text-sm text-slate-700">{cityLine(property)}</p>
      </div>
      <dl>
        <Term label="Property type">{customerTypeLabels[property.propertyType]}</Term>
        <Term label="Customers">{property.customerCount}</Term>
        <Term label="Active work orders">{property.activeWorkOrders}</Term>
      </dl>
      <StatusBadges property={property} />
      <DetailsStatus isPending={details.isPending} isError={details.isError} onRetry={() => void details.refetch()} />
      {details.data ? (
        <>
          <ul aria-label="Customers at this address" className="space-y-1 text-sm">
            {details.data.customers.map((customer) => (
              <li key={customer.id}>
                <Link to={customerProfilePath(customer.id)} className="font-semibold text-brand-700 hover:underline">
                  {customer.name}
                </Link>{' '}
                <span className="text-slate-600">{customer.phone}</span>
                {customer.isMember ? (
                  <Badge tone="accent" className="ml-2">
                    Plan member
                  </Badge>
                ) : null}
              </li>
            ))}
          </ul>
          <WorkOrderList details={details.data} />
        </>
      ) : null}
      <SidebarActions address={property} customerId={onlyCustomerId(details.data)} />
    </SidebarFrame>
  );
}

export function CustomerSidebar({ customer, onClose }: { customer: MapCustomer; onClose: () => void }) {
  const details = useMapCustomerDetails(customer.id);
  const data: MapCustomerDetails | undefined = details.data;
  return (
    <SidebarFrame title={mapMessages.customerDetails} onClose={onClose}>
      <div>
        <Link to={customerProfilePath(customer.id)} className="font-semibold text-brand-700 hover:underline">
          {customer.name}
        </Link>
        {data ? <p className="text-sm text-slate-700">{[data.address, cityLine(data)].filter(Boolean).join(', ')}</p> : null}
      </div>
      <DetailsStatus isPending={details.isPending} isError={details.isError} onRetry={() => void details.refetch()} />
      <dl>
        <Term label="Customer type">{customerTypeLabels[customer.type]}</Term>
        {data ? <Term label="Maintenance plan">{data.isMember ? 'Member (priority service)' : 'None'}</Term> : null}
        {data ? <Term label="Phone">{data.phone}</Term> : null}
        {data?.email ? <Term label="Email">{data.email}</Term> : null}
        <Term label="Active work orders">{customer.activeWorkOrders}</Term>
        <Term label="All work orders">{customer.totalWorkOrders}</Term>
      </dl>
      {data ? <SidebarActions address={data} customerId={customer.id} /> : null}
    </SidebarFrame>
  );
}
