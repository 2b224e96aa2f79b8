import { Link } from 'react-router';
import { customerMatchMessages } from '#shared/customer-match.ts';
import { workOrderTimePreferenceLabels } from '#shared/work-order.ts';
import { addressLine, workOrderPlace } from '#shared/work-order-place.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { customerProfilePath, fullAddress, mapsSearchUrl, telHref } from '#client/features/customers/index.ts';
import type { WorkOrderDetailResponse } from './api.ts';
import { formatCalendarDate, formatClockTime, inspectionItemLabel, serviceTypeLabel } from './labels.ts';
import { Detail, DetailCard } from './detail-card.tsx';

type WorkOrder = WorkOrderDetailResponse['workOrder'];

/** "Mar 4, 2026 at 9:00 AM – 11:00 AM" once the work order is scheduled, otherwise undefined. */
export function scheduledLine(workOrder: WorkOrder): string | undefined {
  if (!workOrder.scheduledDate) return undefined;
  return `${formatCalendarDate(workOrder.scheduledDate.slice(0, 10))}${workOrder.scheduledStartTime ? ` at ${formatClockTime(workOrder.scheduledStartTime)}` : ''}${
    workOrder.scheduledEndTime ? ` – ${formatClockTime(workOrder.scheduledEndTime)}` : ''
  }`;
}

/** Who the work is for: the customer's name (to the profile), phone, e-mail and address. */
export function CustomerCard({ customer }: { customer: WorkOrderDetailResponse['customer'] }) {
  return (
    <DetailCard title="Customer">
      <p className="font-semibold">
        <Link to={customerProfilePath(customer.id)} className="text-brand-700 underline hover:text-brand-800">
          {customer.name}
        </Link>
      </p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-slate-700">Phone</dt>
        <dd>
          <a href={telHref(customer.phone)} className="text-brand-700 underline">
            {customer.phone}
          </a>
        </dd>
        <dt className="font-medium text-slate-700">Email</dt>
        <dd className="break-all">
          {customer.email ? (
            <a href={`mailto:${customer.email}`} className="text-brand-700 underline">
              {customer.email}
            </a>
          ) : (
            'Not provided'
          )}
        </dd>
        <dt className="font-medium text-slate-700">Address</dt>
        <dd>
          <a href={mapsSearchUrl(customer)} target="_blank" rel="noreferrer" className="text-brand-700 underline">
            {fullAddress(customer)}
            <span className="sr-only"> (opens Google Maps in a new tab)</span>
          </a>
        </dd>
      </dl>
    </DetailCard>
  );
}

/** When, where and what: date or schedule, time preference, service address, type, technician, duration, description. */
export function ServiceDetailsCard({
  workOrder,
  customer,
  technician,
}: {
  workOrder: WorkOrder;
  customer: WorkOrderDetailResponse['customer'];
  technician: WorkOrderDetailResponse['technician'];
}) {
  const place = workOrderPlace(workOrder, customer);
  const scheduled = scheduledLine(workOrder);
  return (
    <DetailCard title="Service Details">
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-2">
        <Detail label={scheduled ? 'Scheduled' : 'Requested date'}>{scheduled ?? formatCalendarDate(workOrder.serviceDate)}</Detail>
        <Detail label="Time preference">
          {workOrderTimePreferenceLabels[workOrder.timePreference as keyof typeof workOrderTimePreferenceLabels] ?? workOrder.timePreference}
        </Detail>
        {place.isServiceAddress ? (
          <Detail label={customerMatchMessages.serviceAddress}>
            <a href={mapsSearchUrl(addressLine(place))} target="_blank" rel="noreferrer" className="text-brand-700 underline">
              {addressLine(place)}
              <span className="sr-only"> (opens Google Maps in a new tab)</span>
            </a>
          </Detail>
        ) : null}
        <Detail label="Service type">{serviceTypeLabel(workOrder.serviceType)}</Detail>
        <Detail label="Technician">{technician?.name ?? 'Unassigned'}</Detail>
        <Detail label="Estimated duration">
          {workOrder.estimatedDuration != null ? `${workOrder.estimatedDuration} ${workOrder.estimatedDuration === 1 ? 'hour' : 'hours'}` : 'Not set'}
        </Detail>
      </dl>
      <h3 className="mt-4 text-sm font-semibold text-slate-800">Description</h3>
      <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">{workOrder.description || 'No description'}</p>
      {workOrder.specialInstructions ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Special instructions</h3>
          <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">{workOrder.specialInstructions}</p>
        </>
      ) : null}
    </DetailCard>
  );
}

/** The unit being serviced; only the fields that are known. */
export function EquipmentCard({ equipment }: { equipment: NonNullable<WorkOrderDetailResponse['equipment']> }) {
  return (
    <DetailCard title="Equipment">
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-2">
        <Detail label="Type">{equipment.equipmentType}</Detail>
        {equipment.location ? <Detail label="Location">{equipment.location}</Detail> : null}
        {equipment.brand ? <Detail label="Brand">{equipment.brand}</Detail> : null}
        {equipment.model ? <Detail label="Model">{equipment.model}</Detail> : null}
        {equipment.serialNumber ? <Detail label="Serial number">{equipment.serialNumber}</Detail> : null}
        {equipment.warrantyStatus ? <Detail label="Warranty">{equipment.warrantyStatus}</Detail> : null}
      </dl>
    </DetailCard>
  );
}

/** The saved inspection report: the readings and the checks done. */
export function InspectionReportCard({ report }: { report: NonNullable<WorkOrderDetailResponse['inspectionReport']> }) {
  return (
    <DetailCard title="Inspection Report">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <Detail label="MCA">{report.mca ?? '—'}</Detail>
        <Detail label="MOCP">{report.mocp ?? '—'}</Detail>
        <Detail label="Temp split">{report.tempSplit != null ? `${report.tempSplit}°F` : '—'}</Detail>
        <Detail label="Static pressure">{report.staticPressure != null ? `${report.staticPressure} in. WC` : '—'}</Detail>
      </dl>
      {report.inspectionItems.length > 0 ? (
        <ul aria-label="Inspection items" className="mt-3 flex flex-wrap gap-2">
          {report.inspectionItems.map((item) => (
            <li key={item}>
              <Badge tone="success">{inspectionItemLabel(item)}</Badge>
            </li>
          ))}
        </ul>
      ) : null}
    </DetailCard>
  );
}
