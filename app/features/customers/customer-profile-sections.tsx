// The customer profile's read-only sections: contact details with the map pin, HVAC equipment
// and the work order history.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { customerMessages, type Customer, type CustomerEquipment, type CustomerProfileResponse, type CustomerWorkOrderSummary } from '#shared/customer.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { cityLine, formatCalendarDate, mapsSearchUrl, newWorkOrderPath, placePinPath, refrigerantLabel, telHref, tonnageLabel, workOrderStatusLabel, workOrderStatusTone } from './labels.ts';

/** The profile's sections: a card with more room on wider screens. */
export const cardClass = cardClassName('p-4 sm:p-6');

export function ProfileView({ profile }: { profile: CustomerProfileResponse }) {
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

export function HvacEquipment({ customer, equipment }: { customer: Customer; equipment: CustomerEquipment[] }) {
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

export function WorkOrderHistory({ customerId, workOrders }: { customerId: string; workOrders: CustomerWorkOrderSummary[] }) {
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

